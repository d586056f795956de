import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { TOKEN_COOKIE } from '../../../src/contract/auth';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import LoginScreen from '../../../src/screens/login/login-screen';
import { db, nextId, seedUser, seedWechatCode } from '../../msw/db';
import { recordRequests, type SeenRequest } from '../../msw/server';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, transitionsOf, uniquePaths } from './model-coverage';

/**
 * WeChat's in-app browser as a person meets it on the login page: sent to authorise, coming back
 * with a code that works (maybe with a scan id, whose approval page opens), with one that WeChat refuses (told
 * why, sent again), or finding WeChat unreachable (told why, trying again when it is back).
 */
const wechatLogin = createMachine({
  id: 'wechatLogin',
  types: {} as {
    events:
      | { type: 'OPEN_WITHOUT_CODE' }
      | { type: 'OPEN_WITH_CODE' }
      | { type: 'OPEN_WITH_CODE_AND_SCANID' }
      | { type: 'OPEN_WITH_USED_CODE' }
      | { type: 'OPEN_WHILE_WECHAT_DOWN' }
      | { type: 'CONSENT' }
      | { type: 'RETRY_WHEN_BACK' };
  },
  initial: 'notOpened',
  states: {
    notOpened: {
      on: {
        OPEN_WITHOUT_CODE: 'sentToAuthorize',
        OPEN_WITH_CODE: 'signedIn',
        OPEN_WITH_CODE_AND_SCANID: 'signedInAndAskedToApprove',
        OPEN_WITH_USED_CODE: 'refusedAndSentAgain',
        OPEN_WHILE_WECHAT_DOWN: 'configFailed',
      },
    },
    sentToAuthorize: { on: { CONSENT: 'signedIn' } },
    refusedAndSentAgain: { on: { CONSENT: 'signedIn' } },
    configFailed: { on: { RETRY_WHEN_BACK: 'sentToAuthorize' } },
    signedIn: { type: 'final' },
    signedInAndAskedToApprove: { type: 'final' },
  },
});

const model = createTestModel(wechatLogin);
const shortestPaths = model.getShortestPaths();
const simplePaths = model.getSimplePaths();
const paths = uniquePaths([...simplePaths, ...shortestPaths]);
const transitionCount = new Set(simplePaths.flatMap(transitionsOf)).size;
console.log(
  `WeChat in-app login model: ${simplePaths.length} simple paths, ${shortestPaths.length} shortest paths; running ${paths.length} that take all ${transitionCount} transitions`,
);

const AUTHORIZE = '/api/wechat-simulator/authorize';
const RETURN_TO = '/account';
const LOGIN_PAGE = `/login?redirect_url=${encodeURIComponent(RETURN_TO)}`;
const USED_CODE_MSG = 'The WeChat authorisation code is invalid, expired or already used. Please sign in with WeChat again.';
const DOWN_MSG = 'WeChat could not be reached. Please try again in a moment.';
const STATE_KEY = 'ai-chat-ops:wechat-oauth-state';

type World = {
  view: Screen | null;
  userId: string;
  redirects: string[];
  exchanges: SeenRequest[];
  approvals: SeenRequest[];
  scanId: string | null;
};

const tokenCookie = () =>
  document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${TOKEN_COOKIE}=`));

/** Opens the app's login page at this address inside WeChat (a page load: a fresh runtime). */
const open = async (world: World, address: string) => {
  if (world.view) {
    world.view.unmount();
    world.view.runtime.stop();
  }
  world.view = await renderWithRuntime(<LoginScreen />, {
    url: address,
    wechat: { device: { mobile: true, wechat: true }, environment: 'local', redirect: (url) => world.redirects.push(url) },
  });
};

/** The last authorisation redirect, read as WeChat would read it. */
const lastRedirect = (world: World) => {
  const raw = world.redirects.at(-1)!;
  const url = new URL(raw);
  return { raw, url, redirectUri: new URL(url.searchParams.get('redirect_uri')!), state: url.searchParams.get('state')! };
};

/** What WeChat does on consent: back to redirect_uri with a fresh code for this person and the state. */
const comeBackWithCode = async (world: World, code: string, state: string, from?: string) => {
  const back = new URL(from ?? lastRedirect(world).redirectUri.href);
  back.searchParams.set('code', code);
  back.searchParams.set('state', state);
  await open(world, `${back.pathname}${back.search}`);
};

const expectSentToAuthorize = async (world: World, attempt: number) => {
  await waitFor(() => expect(world.redirects.length).toBeGreaterThan(0));
  const { raw, url, redirectUri, state } = lastRedirect(world);
  expect(url.origin + url.pathname).toBe(`${location.origin}${AUTHORIZE}`);
  expect(raw).toMatch(/\?appid=wx-test-app&redirect_uri=[^&]+&response_type=code&scope=snsapi_userinfo&state=[^&#]+#wechat_redirect$/);
  expect(`${redirectUri.pathname}${redirectUri.search}`).toBe(LOGIN_PAGE);
  expect(state).toMatch(new RegExp(`^${attempt}\\.[0-9a-f]{32}$`));
  expect(localStorage.getItem(STATE_KEY)).toBe(state);
  expect(screen.getByText('Logging in with WeChat…').closest('[role="status"]')).not.toBeNull();
  expect(screen.queryByLabelText('Phone number or e-mail')).toBeNull();
  expect(isSignedIn(world.view!.runtime.app.getSnapshot())).toBe(false);
  expect(tokenCookie()).toBeUndefined();
};

const expectSignedIn = async (world: World, at = RETURN_TO) => {
  await waitFor(() => expect(isSignedIn(world.view!.runtime.app.getSnapshot())).toBe(true));
  expect(world.view!.runtime.app.getSnapshot().context.user?.id).toBe(world.userId);
  const token = decodeURIComponent(tokenCookie()!.slice(TOKEN_COOKIE.length + 1));
  expect(db.sessions.get(token)).toBe(world.userId);
  await waitFor(() => expect(world.view!.url()).toBe(at));
};

const destructiveToast = async (text: string) => {
  const description = await screen.findByText(text, { selector: '[data-variant] *' });
  expect(description.closest('[data-variant]')).toHaveAttribute('data-variant', 'destructive');
  expect(description.closest('[data-variant]')).toHaveTextContent('WeChat login failed');
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof wechatLogin>, EventFromLogic<typeof wechatLogin>> => ({
  states: {
    notOpened: () => {
      expect(world().view).toBeNull();
      expect(world().redirects).toEqual([]);
    },
    sentToAuthorize: async () => {
      await expectSentToAuthorize(world(), 1);
      expect(world().exchanges).toHaveLength(0);
    },
    refusedAndSentAgain: async () => {
      await destructiveToast(USED_CODE_MSG);
      // the failed attempt counts: a code that keeps failing cannot loop forever
      await expectSentToAuthorize(world(), 2);
      expect(world().exchanges).toHaveLength(1);
    },
    configFailed: async () => {
      await destructiveToast(DOWN_MSG);
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('WeChat login failed');
      expect(alert).toHaveTextContent(DOWN_MSG);
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
      expect(world().redirects).toEqual([]);
      expect(isSignedIn(world().view!.runtime.app.getSnapshot())).toBe(false);
    },
    signedIn: async () => {
      await expectSignedIn(world());
      expect(world().exchanges.length).toBeGreaterThanOrEqual(1);
      expect(world().approvals).toHaveLength(0);
    },
    signedInAndAskedToApprove: async () => {
      // Signed in, on the page that asks: the scan code itself is not approved by coming back.
      await expectSignedIn(world(), `/scan-approval?scanid=${world().scanId}`);
      expect(db.scanTickets.get(world().scanId!)).toMatchObject({ status: 'waiting' });
      expect(world().approvals).toHaveLength(0);
    },
  },
  events: {
    OPEN_WITHOUT_CODE: () => open(world(), LOGIN_PAGE),
    OPEN_WITH_CODE: async () => {
      localStorage.setItem(STATE_KEY, '1.feedc0de');
      seedWechatCode('code-fresh', world().userId);
      await comeBackWithCode(world(), 'code-fresh', '1.feedc0de', `${location.origin}${LOGIN_PAGE}`);
    },
    OPEN_WITH_CODE_AND_SCANID: async () => {
      const scanId = nextId('scan');
      db.scanTickets.set(scanId, {
        id: scanId,
        fingerPrint: 'desktop-browser-secret',
        status: 'waiting',
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
        createdAt: new Date().toISOString(),
        device: { browser: 'Chrome 131', os: 'Windows' },
        address: '198.51.100.4',
      });
      world().scanId = scanId;
      localStorage.setItem(STATE_KEY, '1.feedc0de');
      seedWechatCode('code-scan', world().userId);
      await comeBackWithCode(world(), 'code-scan', '1.feedc0de', `${location.origin}${LOGIN_PAGE}&scanid=${scanId}`);
    },
    OPEN_WITH_USED_CODE: async () => {
      localStorage.setItem(STATE_KEY, '1.feedc0de');
      await comeBackWithCode(world(), 'code-used', '1.feedc0de', `${location.origin}${LOGIN_PAGE}`);
    },
    OPEN_WHILE_WECHAT_DOWN: async () => {
      db.wechat.configFailure = DOWN_MSG;
      await open(world(), LOGIN_PAGE);
    },
    CONSENT: async () => {
      const code = `code-${world().redirects.length}`;
      seedWechatCode(code, world().userId);
      await comeBackWithCode(world(), code, lastRedirect(world()).state);
    },
    RETRY_WHEN_BACK: async () => {
      delete db.wechat.configFailure;
      await world().view!.user.click(screen.getByRole('button', { name: 'Try again' }));
    },
  },
});

describe('WeChat in-app login, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(wechatLogin, model, params)).toEqual(NO_GAPS);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    const { user } = seedUser({ nickname: 'Lin' });
    db.wechat.authorizeUrl = AUTHORIZE;
    world = {
      view: null,
      userId: user.id,
      redirects: [],
      exchanges: recordRequests(endpoints.wxLogin.path),
      approvals: recordRequests(endpoints.userUpdateScanId.path),
      scanId: null,
    };
    await path.test(params);
  });
});
