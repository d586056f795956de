import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { UserInfo } from '../contract/users';
import { appMachine, isSignedIn } from './app.machine';

const ada: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };
const grace: UserInfo = { id: 'u2', username: 'grace@example.com', nickname: 'Grace', avatar: '' };

const httpError = (status: number, message = `HTTP ${status}`) => Object.assign(new Error(message), { status });

type Fakes = {
  hasToken?: boolean;
  prepare?: () => Promise<void>;
  fetchUser?: () => Promise<UserInfo>;
  revokeSession?: () => Promise<void>;
  /** Called with the way to say the network is back, while a failed start waits for it. */
  networkReturns?: (back: () => void) => () => void;
};

const startApp = (fakes: Fakes = {}) => {
  const fetchUser = vi.fn(fakes.fetchUser ?? (async () => ada));
  const revokeSession = vi.fn(fakes.revokeSession ?? (async () => undefined));
  const storeToken = vi.fn();
  const clearToken = vi.fn();
  const signedOut = vi.fn<(userId: string) => void>();
  const actor = createActor(
    appMachine.provide({
      actors: {
        prepare: fromPromise(fakes.prepare ?? (async () => undefined)),
        fetchUser: fromPromise(() => fetchUser()),
        revokeSession: fromPromise(() => revokeSession()),
        networkReturns: fromCallback(({ sendBack }) => (fakes.networkReturns ? fakes.networkReturns(() => sendBack({ type: 'retry' })) : undefined)),
      },
      actions: {
        storeToken: (_, params) => storeToken(params.token),
        clearToken: () => clearToken(),
        signedOut: (_, { userId }) => signedOut(userId),
      },
      guards: { hasToken: () => fakes.hasToken ?? false },
    }),
  ).start();
  /** Waits until the app rests: loaded (not refreshing or signing out) or errored. */
  const settle = () =>
    waitFor(
      actor,
      (state) =>
        state.matches('errored') ||
        (state.matches('loaded') && !state.matches({ loaded: 'refreshing' }) && !state.matches({ loaded: 'signingOut' })),
    );
  return { actor, fetchUser, revokeSession, storeToken, clearToken, signedOut, settle };
};

describe('app start', () => {
  it('starts as a visitor without asking for the user when no token is stored', async () => {
    const { actor, fetchUser, settle } = startApp({ hasToken: false });
    const state = await settle();
    expect(state.matches({ loaded: 'visitor' })).toBe(true);
    expect(fetchUser).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(isSignedIn(state)).toBe(false);
  });

  it('checks a stored token and starts signed in with its user', async () => {
    const { fetchUser, settle } = startApp({ hasToken: true });
    const state = await settle();
    expect(fetchUser).toHaveBeenCalledTimes(1);
    expect(state.matches({ loaded: 'signedIn' })).toBe(true);
    expect(state.context.user).toEqual(ada);
    expect(isSignedIn(state)).toBe(true);
  });

  it('forgets a token the server refuses (401) and starts as a visitor', async () => {
    const { clearToken, settle } = startApp({ hasToken: true, fetchUser: async () => Promise.reject(httpError(401)) });
    const state = await settle();
    expect(state.matches({ loaded: 'visitor' })).toBe(true);
    expect(clearToken).toHaveBeenCalledTimes(1);
    expect(state.context.user).toBeNull();
  });

  it('shows an error on a server failure, keeps the token, and retries on request', async () => {
    let attempt = 0;
    const { actor, clearToken, fetchUser, settle } = startApp({
      hasToken: true,
      fetchUser: async () => {
        attempt += 1;
        if (attempt === 1) throw httpError(500, 'The server is resting');
        return ada;
      },
    });
    const failed = await settle();
    expect(failed.matches('errored')).toBe(true);
    expect(failed.context.error).toBe('The server is resting');
    expect(clearToken).not.toHaveBeenCalled();

    actor.send({ type: 'retry' });
    const state = await settle();
    expect(state.matches({ loaded: 'signedIn' })).toBe(true);
    expect(fetchUser).toHaveBeenCalledTimes(2);
  });

  it('starts again by itself when the network comes back after a start that failed offline, and stops listening once started', async () => {
    let attempt = 0;
    let back: (() => void) | null = null;
    const stopped = vi.fn();
    const { actor, settle } = startApp({
      hasToken: true,
      fetchUser: async () => {
        attempt += 1;
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return ada;
      },
      networkReturns: (say) => {
        back = say;
        return stopped;
      },
    });
    expect((await settle()).matches('errored')).toBe(true);
    expect(back).not.toBeNull();
    back!();
    const state = await settle();
    expect(state.matches({ loaded: 'signedIn' })).toBe(true);
    expect(stopped).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('shows an error when the interface cannot be prepared', async () => {
    const { settle } = startApp({ prepare: async () => Promise.reject(new Error('bundle missing')) });
    const state = await settle();
    expect(state.matches('errored')).toBe(true);
    expect(state.context.error).toBe('bundle missing');
  });
});

describe('the session', () => {
  it('signs in: stores the token and shows the user', async () => {
    const { actor, storeToken, settle } = startApp();
    await settle();

    actor.send({ type: 'session.signedIn', token: 'tok-1', user: grace });

    expect(actor.getSnapshot().matches({ loaded: 'signedIn' })).toBe(true);
    expect(actor.getSnapshot().context.user).toEqual(grace);
    expect(storeToken).toHaveBeenCalledWith('tok-1');
  });

  it('signs out: revokes the session, forgets the token and the user, and says who chose to leave', async () => {
    const { actor, clearToken, revokeSession, signedOut, settle } = startApp({ hasToken: true });
    await settle();

    actor.send({ type: 'session.signOut' });
    const state = await settle();

    expect(revokeSession).toHaveBeenCalledTimes(1);
    expect(state.matches({ loaded: 'visitor' })).toBe(true);
    expect(state.context.user).toBeNull();
    expect(clearToken).toHaveBeenCalledTimes(1);
    expect(signedOut).toHaveBeenCalledExactlyOnceWith('u1');
  });

  it('signs out even when the server cannot be told', async () => {
    const { actor, clearToken, signedOut, settle } = startApp({ hasToken: true, revokeSession: async () => Promise.reject(new Error('offline')) });
    await settle();

    actor.send({ type: 'session.signOut' });
    const state = await settle();

    expect(state.matches({ loaded: 'visitor' })).toBe(true);
    expect(clearToken).toHaveBeenCalledTimes(1);
    expect(signedOut).toHaveBeenCalledExactlyOnceWith('u1');
  });

  it('an expired session becomes a visitor and forgets the token, but is no sign-out: the person will be back', async () => {
    const { actor, clearToken, signedOut, settle } = startApp({ hasToken: true });
    await settle();

    actor.send({ type: 'session.expired' });

    expect(actor.getSnapshot().matches({ loaded: 'visitor' })).toBe(true);
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(clearToken).toHaveBeenCalledTimes(1);
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('refreshes the user on request', async () => {
    const users = [ada, { ...ada, nickname: 'Countess' }];
    const { actor, fetchUser, settle } = startApp({ hasToken: true, fetchUser: async () => users.shift()! });
    await settle();

    actor.send({ type: 'session.refresh' });
    expect(isSignedIn(actor.getSnapshot())).toBe(true);
    const state = await settle();

    expect(fetchUser).toHaveBeenCalledTimes(2);
    expect(state.matches({ loaded: 'signedIn' })).toBe(true);
    expect(state.context.user?.nickname).toBe('Countess');
  });

  it('a refresh refused with 401 signs out; another failure keeps the user', async () => {
    const answers: Array<() => Promise<UserInfo>> = [
      async () => ada,
      async () => Promise.reject(httpError(503)),
      async () => Promise.reject(httpError(401)),
    ];
    const { actor, clearToken, settle } = startApp({ hasToken: true, fetchUser: () => answers.shift()!() });
    await settle();

    actor.send({ type: 'session.refresh' });
    let state = await settle();
    expect(state.matches({ loaded: 'signedIn' })).toBe(true);
    expect(state.context.user).toEqual(ada);

    actor.send({ type: 'session.refresh' });
    state = await settle();
    expect(state.matches({ loaded: 'visitor' })).toBe(true);
    expect(clearToken).toHaveBeenCalledTimes(1);
  });

  it('shows the details the account page saved, without asking the server again', async () => {
    const { actor, fetchUser, settle } = startApp({ hasToken: true });
    await settle();
    actor.send({ type: 'session.updated', user: { ...ada, nickname: 'Countess', wechatId: 'ada_lovelace' } });
    expect(actor.getSnapshot().matches({ loaded: 'signedIn' })).toBe(true);
    expect(actor.getSnapshot().context.user).toMatchObject({ nickname: 'Countess', wechatId: 'ada_lovelace' });
    expect(fetchUser).toHaveBeenCalledTimes(1);
  });

  it("ignores saved details of another account (signed out or switched meanwhile)", async () => {
    const { actor, settle } = startApp({ hasToken: true });
    await settle();
    actor.send({ type: 'session.updated', user: { ...grace, nickname: 'Admiral' } });
    expect(actor.getSnapshot().context.user).toEqual(ada);

    actor.send({ type: 'session.expired' });
    actor.send({ type: 'session.updated', user: { ...ada, nickname: 'Countess' } });
    expect(actor.getSnapshot().matches({ loaded: 'visitor' })).toBe(true);
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('a visitor cannot sign out or refresh', async () => {
    const { actor, fetchUser, revokeSession, settle } = startApp();
    await settle();
    actor.send({ type: 'session.signOut' });
    actor.send({ type: 'session.refresh' });
    expect(actor.getSnapshot().matches({ loaded: 'visitor' })).toBe(true);
    expect(fetchUser).not.toHaveBeenCalled();
    expect(revokeSession).not.toHaveBeenCalled();
  });

  it('keeps the toast queue reachable by its system id', async () => {
    const { actor, settle } = startApp();
    await settle();
    const toasts = actor.system.get('toasts');
    expect(toasts).toBeDefined();
    toasts!.send({ type: 'toast.add', toast: { title: 'Hi' } });
    expect(toasts!.getSnapshot().context.toasts).toHaveLength(1);
  });
});

describe('who is at the browser (presence)', () => {
  const presenceOf = (actor: ReturnType<typeof startApp>['actor']) => actor.getSnapshot().context.presence;

  it('a visitor who signs in is the same person: what they started stays', async () => {
    const { actor, settle } = startApp();
    await settle();
    expect(presenceOf(actor)).toEqual({ account: null, samePerson: true });
    actor.send({ type: 'session.signedIn', token: 't', user: ada });
    expect(presenceOf(actor)).toEqual({ account: 'u1', samePerson: true });
  });

  it('an account whose session ran out is the same person when it comes back, not when another account signs in', async () => {
    const { actor, settle } = startApp({ hasToken: true });
    await settle();
    actor.send({ type: 'session.expired' });
    expect(presenceOf(actor)).toEqual({ account: null, samePerson: true });
    actor.send({ type: 'session.signedIn', token: 't', user: ada });
    expect(presenceOf(actor)).toEqual({ account: 'u1', samePerson: true });
    actor.send({ type: 'session.expired' });
    actor.send({ type: 'session.signedIn', token: 't', user: grace });
    expect(presenceOf(actor)).toEqual({ account: 'u2', samePerson: false });
  });

  it('after a sign-out, someone else is here; the next account to sign in starts afresh as that visitor', async () => {
    const { actor, settle } = startApp({ hasToken: true });
    await settle();
    actor.send({ type: 'session.signOut' });
    await waitFor(actor, (state) => state.matches({ loaded: 'visitor' }));
    expect(presenceOf(actor)).toEqual({ account: null, samePerson: false });
    actor.send({ type: 'session.signedIn', token: 't', user: grace });
    expect(presenceOf(actor)).toEqual({ account: 'u2', samePerson: true });
  });

  it('another account signing in over a signed-in one is someone else', async () => {
    const { actor, settle } = startApp({ hasToken: true });
    await settle();
    expect(presenceOf(actor)).toEqual({ account: 'u1', samePerson: true });
    actor.send({ type: 'session.signedIn', token: 't', user: grace });
    expect(presenceOf(actor)).toEqual({ account: 'u2', samePerson: false });
    actor.send({ type: 'session.updated', user: { ...grace, nickname: 'G' } });
    expect(presenceOf(actor)).toEqual({ account: 'u2', samePerson: false });
  });

  it('keeps the role the server gave, for the header and the doors to read', async () => {
    const { actor, settle } = startApp({ hasToken: true, fetchUser: async () => ({ ...ada, role: 'operator', companyId: 'kraken' }) });
    await settle();
    expect(actor.getSnapshot().context.user).toMatchObject({ role: 'operator', companyId: 'kraken' });
  });
});
