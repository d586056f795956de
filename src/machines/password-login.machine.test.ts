import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginResult } from '../contract/auth';
import { passwordLoginMachine } from './password-login.machine';

const result: LoginResult = { token: 'tok-1', userInfo: { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' } };

const startLogin = (login: (input: { username: string; password: string }) => Promise<LoginResult> = async () => result) => {
  const attempt = vi.fn(login);
  const signedIn = vi.fn<(result: LoginResult) => void>();
  const leave = vi.fn();
  const actor = createActor(
    passwordLoginMachine.provide({
      actors: { login: fromPromise(({ input }) => attempt(input)) },
      actions: { signedIn: (_, params) => signedIn(params), leave: () => leave() },
    }),
  ).start();
  const type = (username: string, password: string) => {
    actor.send({ type: 'field.change', field: 'username', value: username });
    actor.send({ type: 'field.change', field: 'password', value: password });
  };
  return { actor, attempt, signedIn, leave, type };
};

describe('password login', () => {
  it('refuses to submit with a missing field, without calling the server', () => {
    const { actor, attempt, type } = startLogin();
    actor.send({ type: 'submit' });
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'missing-fields' });

    type('   ', 'secret');
    actor.send({ type: 'submit' });
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'missing-fields' });

    type('ada@example.com', '');
    actor.send({ type: 'submit' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    expect(attempt).not.toHaveBeenCalled();
  });

  it('keeps what was typed when the server refuses, and says why', async () => {
    const { actor, leave, signedIn, type } = startLogin(async () =>
      Promise.reject(Object.assign(new Error('Wrong account or password'), { status: 401 })),
    );
    type('ada@example.com', 'not-the-password');
    actor.send({ type: 'submit' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);

    const state = await waitFor(actor, (snapshot) => snapshot.matches('editing'));

    expect(state.context).toMatchObject({
      username: 'ada@example.com',
      password: 'not-the-password',
      failure: { reason: 'rejected', status: 401, msg: 'Wrong account or password' },
    });
    expect(signedIn).not.toHaveBeenCalled();
    expect(leave).not.toHaveBeenCalled();
  });

  it('says nothing of its own when what failed is not an error with a message', async () => {
    const { actor, type } = startLogin(() => Promise.reject('offline'));
    type('ada@example.com', 'secret');
    actor.send({ type: 'submit' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'rejected', status: undefined, msg: '' });
  });

  it('sends the trimmed account and the password as typed', async () => {
    const { actor, attempt, type } = startLogin();
    type('  ada@example.com ', ' pass word ');
    actor.send({ type: 'submit' });
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
    expect(attempt).toHaveBeenCalledWith({ username: 'ada@example.com', password: ' pass word ' });
  });

  it('on success hands the session to the app, then leaves', async () => {
    const order: string[] = [];
    const { actor, signedIn, leave, type } = startLogin();
    signedIn.mockImplementation(() => order.push('signedIn'));
    leave.mockImplementation(() => order.push('leave'));
    type('ada@example.com', 'correct horse');
    actor.send({ type: 'submit' });

    await waitFor(actor, (snapshot) => snapshot.status === 'done');

    expect(signedIn).toHaveBeenCalledWith(result);
    expect(order).toEqual(['signedIn', 'leave']);
  });

  it('clears the last failure when a new attempt starts, and ignores typing while submitting', async () => {
    let answer: (value: LoginResult) => void = () => undefined;
    const { actor, attempt, type } = startLogin(() => new Promise((resolve) => (answer = resolve)));
    actor.send({ type: 'submit' });
    type('ada@example.com', 'pw');
    actor.send({ type: 'submit' });

    expect(actor.getSnapshot().context.failure).toBeNull();
    actor.send({ type: 'submit' });
    expect(attempt).toHaveBeenCalledTimes(1);

    answer(result);
    await waitFor(actor, (snapshot) => snapshot.status === 'done');
  });
});
