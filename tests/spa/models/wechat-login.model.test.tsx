import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import { wechatLoginMachine, type WechatLoginInput } from '../../../src/machines/wechat-login.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { db, seedUser, seedWechatCode } from '../../msw/db';
import { recordRequests, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { actorAnswers, failResponse, holdCalls } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * The login state beyond the session check, with paths generated from the machine that ships,
 * once per way the page can open (inside WeChat or not; with or without a code, this browser's
 * state or another's, on the third attempt; with a scan link). The session check's verdict, the
 * config and code-exchange answers (held by the fake API until the path gives them), Try again and
 * a password login are the events. Where the page must be is written from the spec and decision
 * 005: inside WeChat a visitor is sent to WeChat's authorisation, and a code is exchanged only
 * with the state this browser sent; a failure shows a destructive toast with the server's msg and
 * sends again, but after three attempts in a row it stops and offers Try again; once signed in
 * the page goes where redirect_url says, and a scan link opens the page that asks (never approves).
 */
type Snapshot = SnapshotFrom<typeof wechatLoginMachine>;

const AUTHORIZE = '/api/wechat-simulator/authorize';
const RETURN_TO = '/account';
const LOGIN_PAGE = `/login?redirect_url=${encodeURIComponent(RETURN_TO)}`;
const OURS = '1.feedc0de';
const CODE = 'code-from-wechat';
const SCAN_ID = 'scan-model-0002';
const USED_CODE_MSG = 'The WeChat authorisation code is invalid, expired or already used. Please sign in with WeChat again.';
const DOWN_MSG = 'WeChat could not be reached. Please try again in a moment.';
const STATE_KEY = 'ai-chat-ops:wechat-oauth-state';
const answers = actorAnswers(wechatLoginMachine);

const EVENTS: ModelEvent[] = [
  { type: 'session.visitor' },
  { type: 'session.signedIn' },
  answers.done('fetchConfig', { appId: 'wx-test-app', timestamp: 1, nonceStr: 'n', signature: 's', authorizeUrl: AUTHORIZE }),
  answers.error('fetchConfig', 502, DOWN_MSG),
  answers.done('exchangeCode', { token: 't', userInfo: { id: 'u', username: 'lin', nickname: 'Lin', avatar: '' } }),
  answers.error('exchangeCode', 400, USED_CODE_MSG),
  { type: 'retry' },
];

type Opening = { name: string; wechat: boolean; query: string; saved: string | null; code: 'none' | 'ours' | 'foreign'; scan: boolean };
const OPENINGS: Opening[] = [
  { name: 'in WeChat', wechat: true, query: '', saved: null, code: 'none', scan: false },
  { name: 'in WeChat, back with a code', wechat: true, query: `&code=${CODE}&state=${OURS}`, saved: OURS, code: 'ours', scan: false },
  { name: 'in WeChat, back with a code and someone else’s state', wechat: true, query: `&code=${CODE}&state=1.not-ours`, saved: OURS, code: 'foreign', scan: false },
  { name: 'in WeChat, back from the third attempt', wechat: true, query: `&code=${CODE}&state=3.feedc0de`, saved: '3.feedc0de', code: 'ours', scan: false },
  // WeChat came back from the last attempt without a code: no fourth redirect, no loop
  { name: 'in WeChat, back from the third attempt without a code', wechat: true, query: '&state=3.feedc0de', saved: '3.feedc0de', code: 'none', scan: false },
  { name: 'in WeChat, back with a code from a scan link', wechat: true, query: `&scanid=${SCAN_ID}&code=${CODE}&state=${OURS}`, saved: OURS, code: 'ours', scan: true },
  { name: 'outside WeChat, from a scan link', wechat: false, query: `&scanid=${SCAN_ID}`, saved: null, code: 'none', scan: true },
  { name: 'outside WeChat', wechat: false, query: '', saved: null, code: 'none', scan: false },
];

const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)}|${state.context.attempt}|${state.context.code ? 'code' : ''}|${state.context.scanId ? 'scan' : ''}`;
const inputOf = (opening: Opening): WechatLoginInput => ({
  device: { mobile: opening.wechat, wechat: opening.wechat },
  href: `${location.origin}${LOGIN_PAGE}${opening.query}`,
  savedState: opening.saved,
  nonce: '0'.repeat(32),
});
const walks = OPENINGS.map((opening) => ({ opening, ...productionPaths(wechatLoginMachine, { events: EVENTS, input: inputOf(opening), serializeState }) }));
const PLAYS = walks.flatMap(({ opening, paths }) => paths.map((path) => ({ opening, path })));
console.log(`WeChat login (production machine): ${walks.reduce((sum, walk) => sum + walk.transitionCount, 0)} transitions over ${OPENINGS.length} openings; running ${PLAYS.length} paths`);

type World = {
  view: Screen | null;
  opening: Opening;
  userId: string;
  username: string;
  password: string;
  calls: ReturnType<typeof holdCalls<'fetchConfig' | 'exchangeCode'>>;
  redirects: string[];
  approvals: SeenRequest[];
  /** Redirects to WeChat in this run of attempts, read from the state that came back (the product's own count). */
  attempt: number;
  /** The page the login leaves for once signed in. */
  lands: string | null;
  /** Try again starts over: the code in the address belongs to the attempts given up on. */
  startedOver: boolean;
  last: string;
};

/** Where the page must be after what last happened, by the product's rules. */
const expectedAfter = (world: World): string => {
  const { opening, last, attempt, startedOver } = world;
  switch (last) {
    case 'open as a visitor':
      return opening.wechat ? 'wechat.configuring' : 'loggedOut';
    case 'open signed in':
    case 'exchangeCode ok':
    case 'log in with the password':
      return 'idle';
    case 'fetchConfig ok':
      // a code is exchanged only with the state this browser sent; otherwise get our own, three times at most
      if (opening.code === 'ours' && !startedOver) return 'wechat.exchanging';
      return attempt < 3 ? 'wechat.redirecting' : 'wechat.failed';
    case 'exchangeCode 400':
      return attempt < 3 ? 'wechat.redirecting' : 'wechat.failed';
    case 'fetchConfig 502':
      return 'wechat.failed';
    case 'click retry':
      return 'wechat.configuring';
    default:
      throw new Error(`no rule for ${last}`);
  }
};
const nameOf = (state: Snapshot) =>
  typeof state.value === 'string' ? state.value : Object.entries(state.value).map(([parent, child]) => `${parent}.${String(child)}`)[0]!;
const expectState = (world: World, state: Snapshot) => expect(expectedAfter(world), `after ${world.last} (${world.opening.name})`).toBe(nameOf(state));

const tokenCookie = () =>
  document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${TOKEN_COOKIE}=`));
const view = (world: World) => world.view!;
const progress = () => screen.getByText('Logging in with WeChat…');

const expectNotSignedIn = (world: World) => {
  expect(isSignedIn(view(world).runtime.app.getSnapshot())).toBe(false);
  expect(tokenCookie()).toBeUndefined();
  expect(world.approvals).toHaveLength(0);
};

const destructiveToast = async (text: string) => {
  const description = await screen.findByText(text, { selector: '[data-variant] *' });
  expect(description.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
  expect(description.closest('[data-variant]')).toHaveTextContent('WeChat login failed');
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    awaitingSession: () => {
      expect(world().view).toBeNull();
      expect(world().redirects).toEqual([]);
    },
    loggedOut: async (state) => {
      const w = world();
      expectState(w, state);
      expect(await screen.findByLabelText('Phone number or e-mail')).toBeVisible();
      expect(screen.queryByText('Logging in with WeChat…')).toBeNull();
      // a scan link outside WeChat opens the page that asks, which asks to log in first
      await waitFor(() => expect(view(w).url()).toBe(w.opening.scan ? `/scan-approval?scanid=${SCAN_ID}` : `${LOGIN_PAGE}${w.opening.query}`));
      expect(w.redirects).toEqual([]);
      expect(w.calls.count('fetchConfig')).toBe(0);
      expectNotSignedIn(w);
    },
    wechat: async (state) => {
      const w = world();
      expectState(w, state);
      if (state.matches({ wechat: 'configuring' })) {
        const request = await w.calls.waiting('fetchConfig');
        expect(new URL(request.url).searchParams.get('url')!.startsWith(`${location.origin}/login?`)).toBe(true);
        expect(progress()).toBeInTheDocument();
      }
      if (state.matches({ wechat: 'exchanging' })) {
        const request = await w.calls.waiting('exchangeCode');
        expect(new URL(request.url).searchParams.get('code')).toBe(CODE);
        // the kept state did its one job once the return was checked: nothing of it stays behind
        expect(localStorage.getItem(STATE_KEY)).toBeNull();
        expect(progress()).toBeInTheDocument();
        expect(w.redirects).toEqual([]);
      }
      if (state.matches({ wechat: 'redirecting' })) {
        if (w.last === 'exchangeCode 400') await destructiveToast(USED_CODE_MSG);
        // sent to WeChat's authorisation, counting the attempt, with the state kept to recognise the return
        await waitFor(() => expect(w.redirects).toHaveLength(1));
        const url = new URL(w.redirects[0]!);
        expect(url.origin + url.pathname).toBe(`${location.origin}${AUTHORIZE}`);
        expect(w.redirects[0]).toMatch(/\?appid=wx-test-app&redirect_uri=[^&]+&response_type=code&scope=snsapi_userinfo&state=[^&#]+#wechat_redirect$/);
        const back = new URL(url.searchParams.get('redirect_uri')!);
        expect(back.pathname).toBe('/login');
        expect(back.searchParams.get('redirect_url')).toBe(RETURN_TO);
        expect(back.searchParams.has('code')).toBe(false);
        const sent = url.searchParams.get('state')!;
        expect(sent).toMatch(new RegExp(`^${w.attempt + 1}\\.[0-9a-f]{32}$`));
        expect(localStorage.getItem(STATE_KEY)).toBe(sent);
        expect(progress()).toBeInTheDocument();
        expect(w.calls.count('exchangeCode')).toBe(w.opening.code === 'ours' && !w.startedOver ? 1 : 0);
      }
      if (state.matches({ wechat: 'failed' })) {
        const msg = w.last === 'fetchConfig 502' ? DOWN_MSG : USED_CODE_MSG;
        if (w.last !== 'fetchConfig ok') await destructiveToast(msg);
        const alert = await screen.findByRole('alert');
        expect(alert).toHaveTextContent('WeChat login failed');
        expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
        // no more redirects: a code that keeps failing must not loop
        expect(w.redirects).toEqual([]);
        // a return that was checked leaves no state behind (one whose config failed was never checked)
        if (w.last !== 'fetchConfig 502') expect(localStorage.getItem(STATE_KEY)).toBeNull();
      }
      expectNotSignedIn(w);
    },
    idle: async (state) => {
      const w = world();
      expectState(w, state);
      await waitFor(() => expect(isSignedIn(view(w).runtime.app.getSnapshot())).toBe(true));
      expect(view(w).runtime.app.getSnapshot().context.user?.id).toBe(w.userId);
      expect(db.sessions.get(decodeURIComponent(tokenCookie()!.slice(TOKEN_COOKIE.length + 1)))).toBe(w.userId);
      if (w.lands) await waitFor(() => expect(view(w).url()).toBe(w.lands));
      // the scan link's page asks; coming back signed in approves nothing
      expect(w.approvals).toHaveLength(0);
      expect(w.redirects).toEqual([]);
      if (w.last === 'exchangeCode ok') expect(localStorage.getItem(STATE_KEY)).toBeNull();
    },
  },
  events: {
    'session.visitor': async () => {
      const w = world();
      w.last = 'open as a visitor';
      w.view = await open(w, false);
    },
    'session.signedIn': async () => {
      const w = world();
      if (!w.view) {
        w.last = 'open signed in';
        w.lands = w.opening.scan ? `/scan-approval?scanid=${SCAN_ID}` : null;
        w.view = await open(w, true);
        return;
      }
      // outside WeChat: the person logs in with the password instead
      w.last = 'log in with the password';
      w.lands = w.opening.scan ? '/' : RETURN_TO;
      await view(w).user.type(screen.getByLabelText('Phone number or e-mail'), w.username);
      await view(w).user.type(screen.getByLabelText('Password'), w.password);
      await view(w).user.click(screen.getByRole('button', { name: 'Log in' }));
    },
    retry: async () => {
      const w = world();
      w.last = 'click retry';
      w.attempt = 0;
      w.startedOver = true;
      w.redirects.length = 0;
      await view(w).user.click(screen.getByRole('button', { name: 'Try again' }));
    },
    ...Object.fromEntries(
      EVENTS.filter((event) => answers.srcOf(event)).map((event) => [
        event.type,
        async ({ event: step }: { event: ModelEvent }) => {
          const w = world();
          const src = answers.srcOf(step) as 'fetchConfig' | 'exchangeCode';
          w.last = answers.describe(step)!;
          if (step.type.startsWith('xstate.error')) {
            const { status, msg } = step.error as { status: number; msg: string };
            await w.calls.answer(src, failResponse(status, msg));
            return;
          }
          if (src === 'exchangeCode') {
            seedWechatCode(CODE, w.userId);
            w.lands = w.opening.scan ? `/scan-approval?scanid=${SCAN_ID}` : RETURN_TO;
          }
          // the fake server's own answer: the config (naming the simulator's page), or the exchange of the code
          await w.calls.answer(src, undefined);
        },
      ]),
    ),
  },
});

/** Opens the login page at the opening's address (a page load: a fresh runtime). */
const open = (world: World, signedIn: boolean) => {
  const { opening } = world;
  if (opening.saved) localStorage.setItem(STATE_KEY, opening.saved);
  const user = signedIn ? db.users.get(world.userId)! : undefined;
  return renderWithRuntime(<LoginScreen />, {
    url: `${LOGIN_PAGE}${opening.query}`,
    ...(user ? { signedInAs: { id: user.id, username: user.username, nickname: user.nickname, avatar: user.avatar } } : {}),
    wechat: { device: { mobile: opening.wechat, wechat: opening.wechat }, environment: 'local', redirect: (url) => world.redirects.push(url) },
  });
};

describe('WeChat login state, paths generated from the production machine', () => {
  const holder: { world: World | null } = { world: null };

  it('reaches every state a page can rest in, asserts each, and takes every transition', () => {
    const reached = new Set(walks.flatMap((walk) => [...walk.reachedStates].map((json) => nameOf({ value: JSON.parse(json) } as Snapshot))));
    // visitor, checkingCode, retrying and signedIn only choose the way on
    expect([...reached].sort()).toEqual(['awaitingSession', 'idle', 'loggedOut', 'wechat.configuring', 'wechat.exchanging', 'wechat.failed', 'wechat.redirecting']);
    for (const state of ['awaitingSession', 'loggedOut', 'wechat', 'idle']) expect(params(() => holder.world!).states).toHaveProperty(state);
        // each opening: the session's two verdicts, then the config's answers, the exchange's, and Try again
    expect(walks.map((walk) => walk.transitionCount)).toEqual([5, 10, 8, 11, 8, 10, 3, 3]);
  });

  it.each(PLAYS.map((play) => [`${play.opening.name}: ${play.path.events.map((event) => answers.describe(event) ?? event.type).join(', ')}`, play] as const))(
    '%s',
    async (_name, { opening, path }) => {
      const { user, password } = seedUser({ nickname: 'Lin' });
      db.wechat.authorizeUrl = AUTHORIZE;
      db.scanTickets.set(SCAN_ID, {
        id: SCAN_ID,
        fingerPrint: 'desktop-browser-secret',
        status: 'waiting',
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        createdAt: new Date().toISOString(),
        device: { browser: 'Chrome 131', os: 'Windows' },
        address: '198.51.100.4',
      });
      const returned = new URLSearchParams(opening.query).get('state');
      holder.world = {
        view: null,
        opening,
        userId: user.id,
        username: user.username,
        password,
        calls: holdCalls({ fetchConfig: endpoints.wxConfig, exchangeCode: endpoints.wxLogin }),
        redirects: [],
        approvals: recordRequests(endpoints.userUpdateScanId.path),
        attempt: Number(returned?.split('.')[0]) || 0,
        lands: null,
        startedOver: false,
        last: 'start',
      };
      await path.test(params(() => holder.world!));
    },
  );
});
