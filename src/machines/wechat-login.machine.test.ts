import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginResult } from '../contract/auth';
import type { WxConfig } from '../contract/wechat';
import type { Device } from '../services/env';
import { attemptOf, MAX_WECHAT_ATTEMPTS, stateFor, wechatLoginMachine, type Notice } from './wechat-login.machine';

const WECHAT: Device = { mobile: true, wechat: true };
const DESKTOP: Device = { mobile: false, wechat: false };
const config: WxConfig = { appId: 'wx-app', timestamp: 1, nonceStr: 'n', signature: 's' };
const session: LoginResult = { token: 't-1', userInfo: { id: 'u1', username: 'wechat-o1', nickname: 'Lin', avatar: '' } };
const apiError = (msg: string, status = 400) => Object.assign(new Error(msg), { status });

type Fakes = {
  device?: Device;
  href?: string;
  savedState?: string | null;
  fetchConfig?: () => Promise<WxConfig>;
  exchangeCode?: (code: string) => Promise<LoginResult>;
};

const start = (fakes: Fakes = {}) => {
  const calls = {
    fetchConfig: vi.fn(fakes.fetchConfig ?? (async () => config)),
    exchangeCode: vi.fn(fakes.exchangeCode ?? (async () => session)),
    signedIn: vi.fn(),
    redirect: vi.fn(),
    rememberState: vi.fn(),
    forgetState: vi.fn(),
    leaveSignInAddress: vi.fn(),
    openApproval: vi.fn(),
    notices: [] as Notice[],
  };
  const actor = createActor(
    wechatLoginMachine.provide({
      actors: {
        fetchConfig: fromPromise(() => calls.fetchConfig()),
        exchangeCode: fromPromise(({ input }) => calls.exchangeCode(input.code)),
      },
      actions: {
        signedIn: (_, result) => calls.signedIn(result),
        redirect: (_, { url }) => calls.redirect(url),
        rememberState: (_, { state }) => calls.rememberState(state),
        forgetState: () => calls.forgetState(),
        leaveSignInAddress: (_, { href }) => calls.leaveSignInAddress(href),
        openApproval: (_, { scanId }) => calls.openApproval(scanId),
        notify: (_, notice) => void calls.notices.push(notice),
      },
    }),
    {
      input: {
        device: fakes.device ?? WECHAT,
        href: fakes.href ?? 'https://chat.example.com/chat',
        savedState: fakes.savedState === undefined ? null : fakes.savedState,
        nonce: 'nonce1',
      },
    },
  ).start();
  return { actor, calls };
};

const redirectedTo = (calls: ReturnType<typeof start>['calls']) => new URL(calls.redirect.mock.calls.at(-1)![0] as string);

describe('login state: inside WeChat', () => {
  it('without a code, fetches the config for this page and redirects to WeChat’s authorisation (user info scope)', async () => {
    const { actor, calls } = start({ href: 'https://chat.example.com/chat?scanid=s9#top' });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'redirecting' }));
    expect(calls.fetchConfig).toHaveBeenCalledTimes(1);
    expect(calls.rememberState).toHaveBeenCalledWith('1.nonce1');
    const raw = calls.redirect.mock.calls[0]![0] as string;
    expect(raw).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx-app&redirect_uri=' +
        encodeURIComponent('https://chat.example.com/chat?scanid=s9') +
        '&response_type=code&scope=snsapi_userinfo&state=1.nonce1#wechat_redirect',
    );
  });

  it('authorises on the page the server names (the simulator’s consent page)', async () => {
    const { actor, calls } = start({ fetchConfig: async () => ({ ...config, authorizeUrl: '/api/wechat-simulator/authorize' }) });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'redirecting' }));
    expect(redirectedTo(calls).href.startsWith('https://chat.example.com/api/wechat-simulator/authorize?appid=wx-app&')).toBe(true);
  });

  it('with its own code back, exchanges it, signs in, leaves the code behind, then opens the approval of a pending scan id', async () => {
    const { actor, calls } = start({ href: 'https://chat.example.com/login?scanid=s9&code=C1&state=1.nonce1', savedState: '1.nonce1' });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(calls.exchangeCode).toHaveBeenCalledWith('C1');
    expect(calls.signedIn).toHaveBeenCalledWith(session);
    expect(calls.leaveSignInAddress).toHaveBeenCalledWith('https://chat.example.com/login?scanid=s9&code=C1&state=1.nonce1');
    expect(calls.openApproval).toHaveBeenCalledExactlyOnceWith('s9');
    expect(calls.notices).toEqual([]);
    expect(calls.redirect).not.toHaveBeenCalled();
  });

  it('on a refused code, says what the server said and redirects again, counting the attempt', async () => {
    const { actor, calls } = start({
      href: 'https://chat.example.com/?code=USED&state=1.nonce1',
      savedState: '1.nonce1',
      exchangeCode: async () => {
        throw apiError('The WeChat authorisation code is invalid, expired or already used.');
      },
    });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'redirecting' }));
    expect(calls.notices).toEqual([{ kind: 'wechatFailed', msg: 'The WeChat authorisation code is invalid, expired or already used.' }]);
    expect(calls.signedIn).not.toHaveBeenCalled();
    expect(redirectedTo(calls).searchParams.get('state')).toBe('2.nonce1');
    expect(redirectedTo(calls).searchParams.get('redirect_uri')).toBe('https://chat.example.com/');
  });

  it(`stops redirecting after ${MAX_WECHAT_ATTEMPTS} attempts in a row and offers a retry`, async () => {
    const { actor, calls } = start({
      href: `https://chat.example.com/?code=BAD&state=${stateFor(MAX_WECHAT_ATTEMPTS, 'nonce1')}`,
      savedState: stateFor(MAX_WECHAT_ATTEMPTS, 'nonce1'),
      exchangeCode: async () => {
        throw apiError('nope');
      },
    });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'failed' }));
    expect(calls.redirect).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.failure).toBe('nope');
    actor.send({ type: 'retry' });
    await waitFor(actor, (state) => state.matches({ wechat: 'redirecting' }));
    expect(redirectedTo(calls).searchParams.get('state')).toBe('1.nonce1');
  });

  it('never exchanges a code it did not ask for (another state): it asks WeChat for its own', async () => {
    const { actor, calls } = start({ href: 'https://chat.example.com/?code=PLANTED&state=1.attacker', savedState: '1.nonce1' });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'redirecting' }));
    expect(calls.exchangeCode).not.toHaveBeenCalled();
    expect(redirectedTo(calls).searchParams.get('state')).toBe('2.nonce1');
  });

  it('forgets the kept state once the return was checked, whether the code was ours or not', async () => {
    const ours = start({ href: 'https://chat.example.com/?code=C1&state=1.nonce1', savedState: '1.nonce1' });
    ours.actor.send({ type: 'session.visitor' });
    await waitFor(ours.actor, (state) => state.matches('idle'));
    expect(ours.calls.forgetState).toHaveBeenCalledTimes(1);
    expect(ours.calls.rememberState).not.toHaveBeenCalled();

    const planted = start({ href: 'https://chat.example.com/?code=PLANTED&state=1.attacker', savedState: '1.nonce1' });
    planted.actor.send({ type: 'session.visitor' });
    await waitFor(planted.actor, (state) => state.matches({ wechat: 'redirecting' }));
    // the one kept goes; only the state of the new redirect is kept, for its own return
    expect(planted.calls.forgetState.mock.invocationCallOrder[0]).toBeLessThan(planted.calls.rememberState.mock.invocationCallOrder[0]!);
    expect(planted.calls.rememberState).toHaveBeenCalledExactlyOnceWith('2.nonce1');
  });

  it('when the config fails, says the server’s msg and stays logged out (there is no app id to redirect with)', async () => {
    const { actor, calls } = start({
      fetchConfig: async () => {
        throw apiError('WeChat could not be reached. Please try again in a moment.', 502);
      },
    });
    actor.send({ type: 'session.visitor' });
    await waitFor(actor, (state) => state.matches({ wechat: 'failed' }));
    expect(calls.notices).toEqual([{ kind: 'wechatFailed', msg: 'WeChat could not be reached. Please try again in a moment.' }]);
    expect(calls.redirect).not.toHaveBeenCalled();
  });

  it('does nothing of the kind for someone already signed in', async () => {
    const { actor, calls } = start({ href: 'https://chat.example.com/?code=C1&state=1.nonce1', savedState: '1.nonce1' });
    actor.send({ type: 'session.signedIn' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(calls.fetchConfig).not.toHaveBeenCalled();
    expect(calls.exchangeCode).not.toHaveBeenCalled();
  });
});

describe('login state: outside WeChat', () => {
  it('stays logged out without asking WeChat anything', async () => {
    const { actor, calls } = start({ device: DESKTOP, href: 'https://chat.example.com/?code=C1&state=1.nonce1' });
    actor.send({ type: 'session.visitor' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(calls.fetchConfig).not.toHaveBeenCalled();
    expect(calls.notices).toEqual([]);
  });

  it('already signed in with a scan id: opens the approval page, approving nothing by itself', async () => {
    const { actor, calls } = start({ device: DESKTOP, href: 'https://chat.example.com/?scanid=s1' });
    actor.send({ type: 'session.signedIn' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(calls.openApproval).toHaveBeenCalledExactlyOnceWith('s1');
    expect(calls.notices).toEqual([]);
  });

  it('a visitor with a scan id is sent to the approval page (which asks to log in), once', async () => {
    const { actor, calls } = start({ device: DESKTOP, href: 'https://chat.example.com/chat?scanid=s2' });
    actor.send({ type: 'session.visitor' });
    expect(calls.openApproval).toHaveBeenCalledExactlyOnceWith('s2');
    actor.send({ type: 'session.signedIn' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(calls.openApproval).toHaveBeenCalledTimes(1);
  });

  it('on the approval page itself, leaves the scan id to that page', async () => {
    const { actor, calls } = start({ device: DESKTOP, href: 'https://chat.example.com/scan-approval?scanid=s3' });
    actor.send({ type: 'session.signedIn' });
    await waitFor(actor, (state) => state.matches('idle'));
    expect(calls.openApproval).not.toHaveBeenCalled();
  });
});

describe('the state sent to WeChat', () => {
  it('carries the attempt, read back leniently', () => {
    expect(stateFor(2, 'abc')).toBe('2.abc');
    expect(attemptOf('2.abc')).toBe(2);
    expect(attemptOf('99.abc')).toBe(MAX_WECHAT_ATTEMPTS);
    expect(attemptOf('x.abc')).toBe(0);
    expect(attemptOf(null)).toBe(0);
  });
});
