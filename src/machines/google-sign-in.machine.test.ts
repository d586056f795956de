import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { GoogleAuthorization, GoogleLoginRequest, LoginOptions, LoginResult } from '../contract/auth';
import { googleSignInMachine, type GoogleAttempt, type GoogleSignInInput } from './google-sign-in.machine';

const session: LoginResult = { token: 'tok-g', userInfo: { id: 'u-g', username: 'google-1', nickname: 'Ada', avatar: '' } };
const authorization: GoogleAuthorization = { url: 'https://accounts.google.com/o/oauth2/v2/auth?state=st-1', state: 'st-1' };
const refusal = (status: number, message: string) => Object.assign(new Error(message), { status });

const run = (
  input: GoogleSignInInput,
  fakes: {
    options?: () => Promise<LoginOptions>;
    authorize?: () => Promise<GoogleAuthorization>;
    login?: (request: GoogleLoginRequest) => Promise<LoginResult>;
  } = {},
) => {
  const calls = {
    login: vi.fn(fakes.login ?? (async () => session)),
    authorize: vi.fn(fakes.authorize ?? (async () => authorization)),
    remembered: [] as GoogleAttempt[],
    forgotten: 0,
    left: [] as string[],
    signedIn: [] as LoginResult[],
    went: [] as string[],
  };
  const actor = createActor(
    googleSignInMachine.provide({
      actors: {
        loadOptions: fromPromise(fakes.options ?? (async () => ({ google: true }))),
        authorize: fromPromise(() => calls.authorize()),
        login: fromPromise(({ input: request }) => calls.login(request)),
      },
      actions: {
        rememberAttempt: (_, attempt) => void calls.remembered.push(attempt),
        forgetAttempt: () => void (calls.forgotten += 1),
        leaveForGoogle: (_, { url }) => void calls.left.push(url),
        signedIn: (_, result) => void calls.signedIn.push(result),
        leave: (_, { to }) => void calls.went.push(to),
      },
    }),
    { input },
  ).start();
  return { actor, calls };
};

const returning = (query: string, attempt: GoogleAttempt | null = { state: 'st-1', returnTo: '/chat?x=1' }): GoogleSignInInput => ({
  mode: 'return',
  href: `https://chat.example/login/google?${query}`,
  attempt,
});

describe('Google sign-in on the login page', () => {
  it('is offered only when the server says so, and not when it cannot say', async () => {
    expect((await waitFor(run({ mode: 'offer', returnTo: '/' }).actor, (s) => !s.matches('checking'))).value).toBe('ready');
    const without = run({ mode: 'offer', returnTo: '/' }, { options: async () => ({ google: false }) });
    expect((await waitFor(without.actor, (s) => !s.matches('checking'))).value).toBe('unavailable');
    const older = run({ mode: 'offer', returnTo: '/' }, { options: async () => Promise.reject(refusal(404, 'Not Found')) });
    expect((await waitFor(older.actor, (s) => !s.matches('checking'))).value).toBe('unavailable');
  });

  it('remembers the state and where to go, then leaves for Google’s page', async () => {
    const { actor, calls } = run({ mode: 'offer', returnTo: '/kraken-operation' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'start' });
    await waitFor(actor, (s) => s.matches('leaving'));
    expect(calls.remembered).toEqual([{ state: 'st-1', returnTo: '/kraken-operation' }]);
    expect(calls.left).toEqual([authorization.url]);
    // back from Google through the back-forward cache: the button works again
    actor.send({ type: 'page.restored' });
    expect(actor.getSnapshot().value).toBe('ready');
  });

  it('keeps the button and says why when the start is refused', async () => {
    const { actor, calls } = run(
      { mode: 'offer', returnTo: '/' },
      { authorize: vi.fn().mockRejectedValueOnce(refusal(503, 'Google login is not configured')).mockResolvedValueOnce(authorization) },
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'start' });
    const refused = await waitFor(actor, (s) => s.context.failure !== null);
    expect(refused.value).toBe('ready');
    expect(refused.context.failure).toEqual({ reason: 'rejected', status: 503, msg: 'Google login is not configured' });
    expect(calls.left).toEqual([]);
    actor.send({ type: 'start' });
    expect((await waitFor(actor, (s) => s.matches('leaving'))).context.failure).toBeNull();
  });
});

describe('Google sign-in on the way back', () => {
  it('exchanges the code with the state it sent, signs in and goes where the person was going', async () => {
    const { actor, calls } = run(returning('code=4%2Fabc&state=st-1&scope=email'));
    await waitFor(actor, (s) => s.status === 'done');
    expect(calls.login).toHaveBeenCalledWith({ code: '4/abc', state: 'st-1' });
    expect(calls.signedIn).toEqual([session]);
    expect(calls.went).toEqual(['/chat?x=1']);
    expect(calls.forgotten).toBe(1);
  });

  it.each([
    ['another state', 'code=4%2Fabc&state=someone-elses', { state: 'st-1', returnTo: '/' }],
    ['no attempt in this tab', 'code=4%2Fabc&state=st-1', null],
    ['no state', 'code=4%2Fabc', { state: 'st-1', returnTo: '/' }],
    ['our state but no code', 'state=st-1', { state: 'st-1', returnTo: '/' }],
  ])('never sends a code back with %s', (_label, query, attempt) => {
    const { actor, calls } = run(returning(query, attempt));
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'foreign' });
    expect(calls.login).not.toHaveBeenCalled();
    expect(calls.forgotten).toBe(1);
  });

  it('says the person left Google without consenting', () => {
    const { actor, calls } = run(returning('error=access_denied&state=st-1'));
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'cancelled' });
    expect(calls.login).not.toHaveBeenCalled();
  });

  it('keeps the server’s refusal and starts over on request, still going to the same place', async () => {
    const { actor, calls } = run(returning('code=used&state=st-1'), { login: async () => Promise.reject(refusal(400, 'expired')) });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.failure).toEqual({ reason: 'rejected', status: 400, msg: 'expired' });
    expect(calls.signedIn).toEqual([]);
    actor.send({ type: 'start' });
    await waitFor(actor, (s) => s.matches('leaving'));
    expect(calls.remembered).toEqual([{ state: 'st-1', returnTo: '/chat?x=1' }]);
    expect(calls.left).toEqual([authorization.url]);
    // back again without finishing: told so, not stuck on "opening"
    actor.send({ type: 'page.restored' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'cancelled' });
  });

  it('stays on the failure when starting over is refused', async () => {
    const { actor } = run(returning('error=access_denied&state=st-1'), { authorize: async () => Promise.reject(refusal(429, 'Too many')) });
    actor.send({ type: 'start' });
    const failed = await waitFor(actor, (s) => s.matches('failed') && s.context.failure?.reason === 'rejected');
    expect(failed.context.failure).toMatchObject({ status: 429 });
  });
});
