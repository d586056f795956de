import type { BrowserContext, Page } from '@playwright/test';
import { createMachine, type AnyStateMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { demoAccount, expect, logIn, test, useEnglish } from './fixtures';

/**
 * Browser tests generated from abstract models with xstate/graph: one test per generated path,
 * against the real server and the built SPA. Each state's assertion is a page assertion; each
 * event is something a person does in Chromium.
 */

type Ctx = { page: Page; context: BrowserContext; baseURL: string };
type Params<M extends AnyStateMachine> = TestParam<SnapshotFrom<M>, EventFromLogic<M>>;

/** Fails when a reachable state has no assertion or an event has no executor. */
const expectCovered = <M extends AnyStateMachine>(machine: M, params: Params<M>) => {
  const adjacency = Object.values(createTestModel(machine).getAdjacencyMap());
  const states = new Set(adjacency.map((entry) => String(entry.state.value)));
  const events = new Set(adjacency.flatMap((entry) => Object.values<{ event: { type: string } }>(entry.transitions).map((step) => step.event.type)));
  expect([...states].filter((state) => !(state in (params.states ?? {})))).toEqual([]);
  expect([...events].filter((event) => !(event in (params.events ?? {})))).toEqual([]);
};

const pathsOf = (name: string, machine: AnyStateMachine) => {
  const model = createTestModel(machine);
  const simple = model.getSimplePaths();
  const shortest = model.getShortestPaths();
  const paths = [...new Map([...simple, ...shortest].map((path) => [path.description, path])).values()];
  console.log(`${name} model (browser): ${simple.length} simple paths, ${shortest.length} shortest paths; running ${paths.length}`);
  return paths;
};

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

// ---------------------------------------------------------------------------------------------
// (a) password login with redirect

const passwordLogin = createMachine({
  id: 'passwordLogin',
  types: {} as { events: { type: 'TYPE_RIGHT' } | { type: 'TYPE_WRONG' } | { type: 'SUBMIT' } },
  initial: 'blank',
  states: {
    blank: { on: { TYPE_RIGHT: 'filledRight', TYPE_WRONG: 'filledWrong' } },
    filledWrong: { on: { SUBMIT: 'refused', TYPE_RIGHT: 'filledRight' } },
    refused: { on: { TYPE_RIGHT: 'filledRight' } },
    filledRight: { on: { SUBMIT: 'signedIn' } },
    signedIn: { type: 'final' },
  },
});

const WRONG = 'not-the-password';
const hasToken = async (context: BrowserContext) => (await context.cookies()).some((cookie) => cookie.name === 'ai-chat-ops-token');

const loginParams = ({ page, context }: Ctx, lands: RegExp): Params<typeof passwordLogin> => {
  const account = () => page.getByLabel('Phone number or e-mail');
  const password = () => page.getByLabel('Password');
  const fill = async (value: string) => {
    await account().fill(demoAccount().username);
    await password().fill(value);
  };
  const onLogin = async () => {
    await expect(page).toHaveURL(/\/login\?/);
    expect(await hasToken(context)).toBe(false);
  };
  return {
    states: {
      blank: async () => {
        await expect(account()).toHaveValue('');
        await expect(password()).toHaveValue('');
        await onLogin();
      },
      filledWrong: async () => {
        await expect(account()).toHaveValue(demoAccount().username);
        await expect(password()).toHaveValue(WRONG);
        await onLogin();
      },
      refused: async () => {
        await expect(page.getByRole('alert')).toContainText('Login Failed');
        // what was typed is kept
        await expect(account()).toHaveValue(demoAccount().username);
        await expect(password()).toHaveValue(WRONG);
        await onLogin();
      },
      filledRight: async () => {
        await expect(password()).toHaveValue(demoAccount().password);
        await onLogin();
      },
      signedIn: async () => {
        await expect(page).toHaveURL(lands);
        await expect.poll(() => hasToken(context)).toBe(true);
        await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      },
    },
    events: {
      TYPE_WRONG: () => fill(WRONG),
      TYPE_RIGHT: () => fill(demoAccount().password),
      SUBMIT: () => page.getByRole('button', { name: 'Log in' }).click(),
    },
  };
};

const REDIRECTS = [
  { label: 'same-origin redirect_url', redirectUrl: '/chat/agents?from=login', lands: /^[^?]*\/\/[^/]+\/chat\/agents\?from=login$/ },
  { label: 'hostile redirect_url', redirectUrl: '//evil.example/phish', lands: /^http:\/\/127\.0\.0\.1:\d+\/$/ },
];

const loginPaths = pathsOf('password login', passwordLogin);

test.describe('password login with redirect (model)', () => {
  test('every reachable state has an assertion and every event an executor', ({ page, context, baseURL }) => {
    expectCovered(passwordLogin, loginParams({ page, context, baseURL: baseURL! }, /./));
  });
  for (const { label, redirectUrl, lands } of REDIRECTS) {
    for (const path of loginPaths) {
      test(`${label}: ${path.description}`, async ({ page, context, baseURL }) => {
        await page.goto(`/login?redirect_url=${encodeURIComponent(redirectUrl)}`);
        await path.test(loginParams({ page, context, baseURL: baseURL! }, lands));
      });
    }
  }
});

// ---------------------------------------------------------------------------------------------
// (b) chat: send, stream, stop, retry, complete

const chatFlow = createMachine({
  id: 'chatFlow',
  types: {} as { events: { type: 'SEND' } | { type: 'STOP' } | { type: 'RETRY' } | { type: 'LET_FINISH' } },
  initial: 'empty',
  states: {
    empty: { on: { SEND: 'streaming' } },
    streaming: { on: { STOP: 'stopped', LET_FINISH: 'answered' } },
    stopped: { on: { RETRY: 'retrying' } },
    retrying: { on: { LET_FINISH: 'answered' } },
    answered: { type: 'final' },
  },
});

const QUESTION = 'What can you do for a small bakery?';

const chatParams = ({ page }: Ctx): Params<typeof chatFlow> => {
  const box = () => page.getByRole('textbox', { name: /Ask anything/ });
  const reply = () => page.locator('li[data-role="assistant"]').last();
  const stopButton = () => page.getByRole('button', { name: 'Stop generating' });
  const oneQuestion = async () => {
    await expect(page.getByTestId('question')).toHaveCount(1);
    await expect(page.getByTestId('question')).toHaveText(QUESTION);
  };
  /** The answer has begun: some text, and the stop button (or already the end, so fast it is). */
  const expectStreamingOrDone = async () => {
    await expect(page.getByTestId('answer')).toContainText(/\S/);
    await oneQuestion();
  };
  return {
    states: {
      empty: async () => {
        await expect(box()).toHaveValue('');
        await expect(page.getByTestId('answer')).toHaveCount(0);
      },
      streaming: expectStreamingOrDone,
      retrying: expectStreamingOrDone,
      stopped: async () => {
        await expect(reply()).toHaveAttribute('data-status', 'incomplete');
        await expect(reply().getByRole('status')).toContainText('The answer is incomplete');
        await expect(reply().getByRole('button', { name: 'Retry' })).toBeEnabled();
        await expect(stopButton()).toHaveCount(0);
        await oneQuestion();
      },
      answered: async () => {
        await expect(reply()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
        await expect(page.getByTestId('answer')).toContainText('LLM_BASE_URL');
        await expect(reply().getByRole('button', { name: 'Retry' })).toHaveCount(0);
        await oneQuestion();
        // stored on the server: a reload shows the same exchange
        await page.reload();
        await expect(page.getByTestId('answer')).toContainText('LLM_BASE_URL');
        await oneQuestion();
      },
    },
    events: {
      SEND: async () => {
        await box().fill(QUESTION);
        await box().press('Enter');
        // the stop button shows as soon as the answer is under way
        await expect(stopButton()).toBeVisible();
      },
      STOP: async () => {
        await expect(page.getByTestId('answer')).toContainText(/\S/);
        await stopButton().click();
      },
      RETRY: async () => {
        await reply().getByRole('button', { name: 'Retry' }).click();
      },
      LET_FINISH: async () => {
        await expect(reply()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
      },
    },
  };
};

const chatPaths = pathsOf('chat', chatFlow);

test.describe('chat send, stream, stop, retry (model)', () => {
  test('every reachable state has an assertion and every event an executor', ({ page, context, baseURL }) => {
    expectCovered(chatFlow, chatParams({ page, context, baseURL: baseURL! }));
  });
  for (const path of chatPaths) {
    test(path.description, async ({ page, context, baseURL }) => {
      // a slow line, so "stop as soon as the first text appears" always lands mid-answer
      await page.goto('/chat');
      await expect(page.getByRole('textbox', { name: /Ask anything/ })).toBeVisible();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: 20_000, uploadThroughput: -1 });
      await path.test(chatParams({ page, context, baseURL: baseURL! }));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// (c) the operations guard

const operationsGuard = createMachine({
  id: 'operationsGuard',
  types: {} as { events: { type: 'VISIT' } | { type: 'VISIT_WITH_FORGED_TOKEN' } | { type: 'LOG_IN' } },
  initial: 'outside',
  states: {
    outside: { on: { VISIT: 'sentToLogin', VISIT_WITH_FORGED_TOKEN: 'sentToLogin' } },
    sentToLogin: { on: { LOG_IN: 'backInArea' } },
    backInArea: { type: 'final' },
  },
});

const AREA_ADDRESS = '/kraken-operation?status=scheduled';

const guardParams = ({ page, context, baseURL }: Ctx): Params<typeof operationsGuard> => ({
  states: {
    outside: async () => {
      expect(page.url()).toBe('about:blank');
      expect(await hasToken(context)).toBe(false);
    },
    sentToLogin: async () => {
      await expect(page).toHaveURL(`/login?source=kraken&redirect_url=${encodeURIComponent(AREA_ADDRESS)}`);
      await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Operations' })).toHaveCount(0);
    },
    backInArea: async () => {
      await expect(page).toHaveURL(`${baseURL}${AREA_ADDRESS}`);
      await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
      await expect(page.getByRole('button', { name: /^Scheduled/ })).toHaveAttribute('aria-pressed', 'true');
    },
  },
  events: {
    VISIT: async () => {
      await page.goto(AREA_ADDRESS);
    },
    VISIT_WITH_FORGED_TOKEN: async () => {
      await context.addCookies([{ name: 'ai-chat-ops-token', value: 'forged-token-forged-token-0000', url: baseURL }]);
      await page.goto(AREA_ADDRESS);
    },
    LOG_IN: () => logIn(page),
  },
});

const guardPaths = pathsOf('operations guard', operationsGuard);

test.describe('operations guard (model)', () => {
  test('every reachable state has an assertion and every event an executor', ({ page, context, baseURL }) => {
    expectCovered(operationsGuard, guardParams({ page, context, baseURL: baseURL! }));
  });
  for (const path of guardPaths) {
    test(path.description, async ({ page, context, baseURL }) => {
      await path.test(guardParams({ page, context, baseURL: baseURL! }));
    });
  }
});
