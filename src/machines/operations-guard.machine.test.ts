import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { operationsGuardMachine } from './operations-guard.machine';

const startGuard = (options: { hasToken: boolean; verify?: () => Promise<{ userId: string; publishing?: { xiaohongshu: 'export' | 'api'; linkedin: 'export' | 'api' } }> }, at = { pathname: '/kraken-operation/task/edit/7', search: 'tab=2' }) => {
  const verify = vi.fn(options.verify ?? (async () => ({ userId: 'u1' })));
  const redirectToLogin = vi.fn<(place: { pathname: string; search: string }) => void>();
  const refreshIdentity = vi.fn();
  /** Plays the app saying the session ended (a sign-out, a 401), once the guard follows it. */
  const session: { end: () => void } = { end: () => expect.fail('the guard does not follow the session') };
  const actor = createActor(
    operationsGuardMachine.provide({
      actors: {
        verifySession: fromPromise(() => verify()),
        watchSession: fromCallback(({ sendBack }) => {
          session.end = () => sendBack({ type: 'session.ended' });
        }),
      },
      actions: { redirectToLogin: (_, params) => redirectToLogin(params), refreshIdentity: () => refreshIdentity() },
      guards: { hasToken: () => options.hasToken },
    }),
    { input: at },
  ).start();
  return { actor, verify, redirectToLogin, refreshIdentity, session };
};

describe('the operations guard', () => {
  it('sends someone without a token to login with the exact path and query, without asking the server', () => {
    const { actor, verify, redirectToLogin } = startGuard({ hasToken: false });
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(redirectToLogin).toHaveBeenCalledTimes(1);
    expect(redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation/task/edit/7', search: 'tab=2' });
    expect(verify).not.toHaveBeenCalled();
  });

  it('lets the operator in once the session is verified', async () => {
    const { actor, redirectToLogin } = startGuard({ hasToken: true });
    expect(actor.getSnapshot().matches('verifying')).toBe(true);
    const state = await waitFor(actor, (snapshot) => snapshot.matches('allowed'));
    expect(state.context.verifiedAs).toBe('u1');
    expect(redirectToLogin).not.toHaveBeenCalled();
  });

  it('publishes by export until the server says otherwise, and takes what it says', async () => {
    const silent = startGuard({ hasToken: true });
    const { context } = await waitFor(silent.actor, (snapshot) => snapshot.matches('allowed'));
    expect(context.publishing).toEqual({ xiaohongshu: 'export', linkedin: 'export' });
    const told = startGuard({ hasToken: true, verify: async () => ({ userId: 'u1', publishing: { xiaohongshu: 'export', linkedin: 'api' } }) });
    const answered = await waitFor(told.actor, (snapshot) => snapshot.matches('allowed'));
    expect(answered.context.publishing).toEqual({ xiaohongshu: 'export', linkedin: 'api' });
  });

  it('sends to login when the verification fails', async () => {
    const { actor, redirectToLogin } = startGuard({ hasToken: true, verify: async () => Promise.reject(new Error('code 1')) });
    await waitFor(actor, (snapshot) => snapshot.matches('redirecting'));
    expect(redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation/task/edit/7', search: 'tab=2' });
  });

  it('sends to login from where the operator is now when the session ends (signed out, or a 401)', async () => {
    const { actor, redirectToLogin, session } = startGuard({ hasToken: true });
    await waitFor(actor, (snapshot) => snapshot.matches('allowed'));

    actor.send({ type: 'location.changed', pathname: '/kraken-operation/task/linkedin', search: 'draft=9' });
    expect(actor.getSnapshot().matches('allowed')).toBe(true);
    session.end();

    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(redirectToLogin).toHaveBeenCalledTimes(1);
    expect(redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation/task/linkedin', search: 'draft=9' });
  });

  it('follows the operator while the check is still running', async () => {
    let fail: (error: Error) => void = () => undefined;
    const { actor, redirectToLogin } = startGuard({ hasToken: true, verify: () => new Promise((_, reject) => (fail = reject)) });
    actor.send({ type: 'location.changed', pathname: '/kraken-operation', search: '' });
    fail(new Error('401'));
    await waitFor(actor, (snapshot) => snapshot.matches('redirecting'));
    expect(redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation', search: '' });
  });

  it('keeps the operator signed in when the check gets no answer, and checks again when asked', async () => {
    let answers = 0;
    const { actor, verify, redirectToLogin } = startGuard({
      hasToken: true,
      verify: async () => {
        answers += 1;
        if (answers === 1) throw Object.assign(new Error('The server cannot be reached.'), { unreachable: true });
        return { userId: 'u1' };
      },
    });
    await waitFor(actor, (snapshot) => snapshot.matches('unreachable'));
    expect(redirectToLogin).not.toHaveBeenCalled();
    actor.send({ type: 'retry' });
    await waitFor(actor, (snapshot) => snapshot.matches('allowed'));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(redirectToLogin).not.toHaveBeenCalled();
  });

  it('shuts the door when the session ends before the check answers, or while the server cannot be reached', async () => {
    const checking = startGuard({ hasToken: true, verify: () => new Promise(() => undefined) });
    checking.session.end();
    expect(checking.actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(checking.redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation/task/edit/7', search: 'tab=2' });

    const unreachable = startGuard({ hasToken: true, verify: async () => Promise.reject(Object.assign(new Error('down'), { unreachable: true })) });
    await waitFor(unreachable.actor, (snapshot) => snapshot.matches('unreachable'));
    unreachable.session.end();
    expect(unreachable.actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(unreachable.redirectToLogin).toHaveBeenCalledTimes(1);
  });

  it('keeps a signed-in person who is not an operator where they are, refused, instead of sending them to login', async () => {
    const { actor, redirectToLogin } = startGuard({ hasToken: true, verify: async () => Promise.reject(Object.assign(new Error('Forbidden'), { status: 403 })) });
    await waitFor(actor, (snapshot) => snapshot.matches('forbidden'));
    expect(actor.getSnapshot().context.verifiedAs).toBeNull();
    expect(redirectToLogin).not.toHaveBeenCalled();
    // there is nothing to check again: the answer was about who they are
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches('forbidden')).toBe(true);
  });

  it('still sends a refused person to login once their session ends', async () => {
    const { actor, redirectToLogin, session } = startGuard({ hasToken: true, verify: async () => Promise.reject(Object.assign(new Error('Forbidden'), { status: 403 })) });
    await waitFor(actor, (snapshot) => snapshot.matches('forbidden'));
    actor.send({ type: 'location.changed', pathname: '/kraken-operation/task/linkedin', search: '' });
    session.end();
    expect(actor.getSnapshot().matches('redirecting')).toBe(true);
    expect(redirectToLogin).toHaveBeenCalledWith({ pathname: '/kraken-operation/task/linkedin', search: '' });
  });

  it('shuts the area on someone whose role an admin took away mid-visit, without sending them to login, and has the app read their account again', async () => {
    const { actor, redirectToLogin, refreshIdentity } = startGuard({ hasToken: true });
    await waitFor(actor, (snapshot) => snapshot.matches('allowed'));
    expect(refreshIdentity).not.toHaveBeenCalled();
    actor.send({ type: 'access.withdrawn' });
    expect(actor.getSnapshot().matches('forbidden')).toBe(true);
    expect(refreshIdentity).toHaveBeenCalledTimes(1);
    expect(redirectToLogin).not.toHaveBeenCalled();
  });

  it('lets the check decide while it runs: a withdrawn role heard while verifying changes nothing', () => {
    const { actor } = startGuard({ hasToken: true, verify: () => new Promise(() => undefined) });
    actor.send({ type: 'access.withdrawn' });
    expect(actor.getSnapshot().matches('verifying')).toBe(true);
  });
});
