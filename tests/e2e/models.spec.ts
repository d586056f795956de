import type { BrowserContext, Page } from '@playwright/test';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../src/contract/endpoints';
import { chatMachine } from '../../src/machines/chat.machine';
import { operationsGuardMachine } from '../../src/machines/operations-guard.machine';
import { passwordLoginMachine } from '../../src/machines/password-login.machine';
import { actorAnswers } from '../spa/models/actor-answers';
import type { ModelEvent } from '../spa/models/production-paths';
import { demoAccount, expect, logIn, test, useEnglish, type HeldAnswers } from './fixtures';
import { coveringWalks } from './production-walks';

/**
 * Browser walks generated from the machines that ship (the same generator as the model tests),
 * against the real server and the built SPA: a few long walks that together take every
 * transition a person and the real server can cause, each step done in Chromium and each state
 * checked on the page against rules written from the product, not read from the machine.
 */

type Ctx = { page: Page; context: BrowserContext; baseURL: string };
const hasToken = async (context: BrowserContext) => (await context.cookies()).some((cookie) => cookie.name === 'ai-chat-ops-token');
const nameOf = (state: { value: unknown }) =>
  typeof state.value === 'string' ? state.value : Object.entries(state.value as object).map(([parent, child]) => `${parent}.${String(child)}`)[0]!;

test.beforeEach(async ({ page }) => {
  await useEnglish(page);
});

// ---------------------------------------------------------------------------------------------
// (a) password login with redirect

type LoginSnapshot = SnapshotFrom<typeof passwordLoginMachine>;
const WRONG = 'not-the-password';
const login = actorAnswers(passwordLoginMachine);
const typing = (field: 'username' | 'password', value: string) => ({ type: 'field.change', field, value }) as ModelEvent;
const loginWalks = coveringWalks(passwordLoginMachine, {
  events: [
    typing('username', demoAccount().username || 'demo'),
    typing('password', WRONG),
    typing('password', 'right'),
    { type: 'submit' },
    login.done('login', { token: 't', userInfo: {} }),
    login.error('login', 401, 'Wrong account or password'),
  ],
  serializeState: (state: LoginSnapshot) =>
    `${nameOf(state)}|${state.context.username ? 'account' : ''}|${state.context.password === WRONG ? 'wrong' : state.context.password ? 'right' : ''}|${state.context.failure?.reason ?? ''}`,
  // the real server decides: the right password gets in, a wrong one is refused
  allow: (state, event) =>
    !login.srcOf(event) || (event.type.startsWith('xstate.done') ? state.context.password === 'right' : state.context.password === WRONG),
});

/** Where the form must be after what last happened. */
const LOGIN_EXPECTED_AFTER: Record<string, string> = {
  'type account': 'editing',
  'type password': 'editing',
  'submit with both': 'submitting',
  'submit with a field empty': 'editing',
  'login ok': 'succeeded',
  'login 401': 'editing',
};
type LoginWorld = { typed: { username: string; password: string }; alert: 'none' | 'missing' | 'refused'; last: string };

const loginParams = ({ page, context }: Ctx, lands: RegExp, world: LoginWorld): TestParam<LoginSnapshot, ModelEvent> => {
  const account = () => page.getByLabel('Phone number or e-mail');
  const password = () => page.getByLabel('Password');
  const expectState = (state: LoginSnapshot) => expect(LOGIN_EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(nameOf(state));
  return {
    states: {
      editing: async (state) => {
        expectState(state);
        // nothing typed is lost
        await expect(account()).toHaveValue(world.typed.username);
        await expect(password()).toHaveValue(world.typed.password);
        if (world.alert === 'none') await expect(page.getByRole('alert')).toHaveCount(0);
        if (world.alert === 'missing') await expect(page.getByRole('alert')).toContainText('Enter your phone number or e-mail and your password');
        if (world.alert === 'refused') await expect(page.getByRole('alert')).toContainText('Login failed');
        await expect(page).toHaveURL(/\/login\?/);
        expect(await hasToken(context)).toBe(false);
      },
      // the real server answers at once: the form may already be past it
      submitting: (state) => expectState(state),
      succeeded: async (state) => {
        expectState(state);
        await expect(page).toHaveURL(lands);
        await expect.poll(() => hasToken(context)).toBe(true);
        await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
      },
    },
    events: {
      'field.change': async ({ event }) => {
        const { field, value } = event as ModelEvent & { field: 'username' | 'password'; value: string };
        const typed = field === 'password' && value === 'right' ? demoAccount().password : field === 'username' ? demoAccount().username : value;
        await (field === 'username' ? account() : password()).fill(typed);
        world.typed[field] = typed;
        world.last = field === 'username' ? 'type account' : 'type password';
      },
      submit: async () => {
        const both = world.typed.username.trim() !== '' && world.typed.password !== '';
        world.last = both ? 'submit with both' : 'submit with a field empty';
        world.alert = both ? 'none' : 'missing';
        await page.getByRole('button', { name: 'Log in' }).click();
      },
      [login.done('login').type]: () => {
        world.last = 'login ok';
      },
      [login.error('login', 401).type]: () => {
        world.last = 'login 401';
        world.alert = 'refused';
      },
    },
  };
};

const REDIRECTS = [
  { label: 'same-origin redirect_url', redirectUrl: '/chat/agents?from=login', lands: /^[^?]*\/\/[^/]+\/chat\/agents\?from=login$/ },
  { label: 'hostile redirect_url', redirectUrl: '//evil.example/phish', lands: /^http:\/\/127\.0\.0\.1:\d+\/$/ },
];

test.describe('password login with redirect (production machine)', () => {
  test('the walks take every transition the real server allows', () => {
    console.log(`password login (browser): ${loginWalks.transitionCount} transitions in ${loginWalks.walks.length} walks`);
    expect([...loginWalks.untaken]).toEqual([]);
  });
  // Every walk ends where it can go no further; those that end signed in try the redirects in turn.
  let signedIn = 0;
  for (const [index, walk] of loginWalks.walks.entries()) {
    const { label, redirectUrl, lands } = walk.state.matches('succeeded') ? REDIRECTS[signedIn++ % REDIRECTS.length]! : REDIRECTS[0]!;
    test(`${label}: walk ${index + 1} (${walk.events.length} steps)`, async ({ page, context, baseURL }) => {
      await page.goto(`/login?redirect_url=${encodeURIComponent(redirectUrl)}`);
      const world: LoginWorld = { typed: { username: '', password: '' }, alert: 'none', last: 'type account' };
      await expect(page.getByLabel('Phone number or e-mail')).toHaveValue('');
      await walk.test(loginParams({ page, context, baseURL: baseURL! }, lands, world));
    });
  }
  // the redirects no walk reached go the shortest way in
  for (const { label, redirectUrl, lands } of REDIRECTS.slice(signedIn)) {
    const shortest = loginWalks.pathThrough([typing('username', 'demo'), typing('password', 'right'), { type: 'submit' }, login.done('login', {})]);
    test(`${label}: the shortest way in`, async ({ page, context, baseURL }) => {
      await page.goto(`/login?redirect_url=${encodeURIComponent(redirectUrl)}`);
      const world: LoginWorld = { typed: { username: '', password: '' }, alert: 'none', last: 'type account' };
      await shortest.test(loginParams({ page, context, baseURL: baseURL! }, lands, world));
    });
  }
});

// ---------------------------------------------------------------------------------------------
// (b) chat: send, stream, stop, retry, send again

type ChatSnapshot = SnapshotFrom<typeof chatMachine>;
const QUESTION = 'What can you do for a small bakery?';
const chat = actorAnswers(chatMachine);
/** The answer's stream ended, finished (its actor's output). */
const answerEnded = chat.done('chatStream', { kind: 'complete', messageIds: [] });
const ANSWERING = new Set(['stream.accepted', 'stream.delta', answerEnded.type, 'stop']);
/** A chat state's own name (the settled states live under `settled`, the unfinished of those under `unfinished`). */
const chatStateOf = (state: { value: unknown }): string => {
  const leaf = (value: unknown): string => (typeof value === 'string' ? value : leaf(Object.values(value as object)[0]));
  return leaf(state.value);
};
const chatWalks = coveringWalks(chatMachine, {
  events: [
    { type: 'draft.change', text: QUESTION } as ModelEvent,
    { type: 'send' },
    chat.done('createConversation', { conversationId: 'c1' }),
    { type: 'stream.accepted', conversationId: 'c1', userMessageId: 'm1', replyMessageId: 'm2' } as ModelEvent,
    { type: 'stream.delta', text: 'Some' } as ModelEvent,
    answerEnded,
    { type: 'stop' },
    chat.done('stopAnswer', { messageId: 'm2', conversationId: 'c1', role: 'assistant', content: '', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:00.000Z' }),
    { type: 'retry' },
  ],
  input: {},
  serializeState: (state: ChatSnapshot) =>
    [
      chatStateOf(state),
      state.context.draft ? 'draft' : '',
      state.context.outgoing?.accepted ? 'accepted' : '',
      state.context.outgoing?.kind === 'retry' ? 'retry' : '',
      // an answer the server stored can be retried: the person sees its Retry button
      state.context.messages.at(-1)?.serverId ? 'stored' : '',
    ].join('|'),
  allow: (state, event) => {
    // typing happens where the box waits for a question; the real server accepts a question before its first word
    if (event.type === 'draft.change') return !state.context.draft && ['idle', 'done', 'cancelled'].includes(chatStateOf(state));
    if (event.type === 'stream.accepted') return !state.context.outgoing?.accepted;
    // a retried answer shows no sign of its acceptance on the page, so a stop cannot be timed after it
    if (event.type === 'stop' && state.context.outgoing?.kind === 'retry') return false;
    if (ANSWERING.has(event.type)) return state.context.outgoing?.accepted === true;
    return true;
  },
});

/** Where the conversation must be after what last happened. */
const CHAT_EXPECTED_AFTER: Record<string, string> = {
  'type a question': 'idle|done|cancelled',
  'send the first question': 'creatingConversation',
  'send again': 'streaming',
  'conversation created': 'streaming',
  'answer accepted': 'streaming',
  'words arrive': 'streaming',
  'answer ends': 'done',
  stop: 'stopping',
  'answer stopped': 'cancelled',
  retry: 'streaming',
};
/** `draft`: a question typed and not sent yet, which the box must keep through anything but Send. */
type ChatWorld = { questions: number; last: string; typedIn: string; draft: boolean };

/**
 * The server writes an answer whatever the page does (answers outlive connections), so a Stop
 * lands mid-answer only if the server is still writing when it arrives: every question and retry
 * is asked with the worker's answers held at the end of their first line, and the walk lets them
 * go when its next step is the answer's end.
 */
const chatParams = ({ page }: Ctx, answers: HeldAnswers, world: ChatWorld): TestParam<ChatSnapshot, ModelEvent> => {
  const box = () => page.getByRole('textbox', { name: /Ask anything/ });
  const reply = () => page.locator('li[data-role="assistant"]').last();
  const stopButton = () => page.getByRole('button', { name: 'Stop generating' });
  const expectState = (state: ChatSnapshot) => {
    const expected = CHAT_EXPECTED_AFTER[world.last]!;
    expect(expected === 'idle|done|cancelled' ? world.typedIn : expected, `after ${world.last}`).toBe(chatStateOf(state));
  };
  const questions = async () => {
    await expect(page.getByTestId('question')).toHaveCount(world.questions);
    if (world.questions > 0) await expect(page.getByTestId('question').last()).toHaveText(QUESTION);
  };
  /** Under way: the question is in, and the answer has begun (or already ended, so fast it is). */
  const underWay = async (state: ChatSnapshot) => {
    expectState(state);
    await questions();
    await expect(box()).toHaveValue(world.draft ? QUESTION : '');
  };
  return {
    states: {
      'settled.idle': async (state) => {
        expectState(state);
        await expect(box()).toHaveValue(world.draft ? QUESTION : '');
        await expect(page.getByTestId('answer')).toHaveCount(0);
      },
      creatingConversation: underWay,
      streaming: underWay,
      // the server answers the stop at once: the page may already show the stopped answer
      stopping: (state) => expectState(state),
      'settled.done': async (state) => {
        expectState(state);
        await expect(reply()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
        await expect(reply().getByTestId('answer')).toContainText('LLM_BASE_URL');
        await expect(reply().getByRole('button', { name: 'Retry' })).toHaveCount(0);
        await expect(box()).toHaveValue(world.draft ? QUESTION : '');
        await questions();
      },
      'settled.unfinished.cancelled': async (state) => {
        expectState(state);
        await expect(reply()).toHaveAttribute('data-status', 'incomplete');
        await expect(reply().getByRole('status')).toContainText('The answer is incomplete');
        await expect(reply().getByRole('button', { name: 'Retry' })).toBeEnabled();
        await expect(stopButton()).toHaveCount(0);
        await expect(box()).toHaveValue(world.draft ? QUESTION : '');
        await questions();
      },
    },
    events: {
      'draft.change': async ({ state }) => {
        world.last = 'type a question';
        world.typedIn = chatStateOf(state);
        world.draft = true;
        await box().fill(QUESTION);
      },
      send: async () => {
        world.last = world.questions === 0 ? 'send the first question' : 'send again';
        world.questions += 1;
        world.draft = false;
        answers.hold();
        await box().press('Enter');
      },
      [chat.done('createConversation').type]: async () => {
        world.last = 'conversation created';
        await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
      },
      'stream.accepted': async () => {
        world.last = 'answer accepted';
        // the server took the question (it is stored: no longer "sending"), and the answer is under
        // way (held): its Stop button shows
        await expect(page.locator('li[data-role="user"]').last()).toHaveAttribute('data-status', 'complete');
        await expect(stopButton()).toBeVisible();
      },
      'stream.delta': async () => {
        world.last = 'words arrive';
        await expect(reply().getByTestId('answer')).toContainText(/\S/);
      },
      [answerEnded.type]: async () => {
        world.last = 'answer ends';
        answers.release();
        await expect(reply()).toHaveAttribute('data-status', 'complete', { timeout: 20_000 });
      },
      stop: async () => {
        world.last = 'stop';
        // the answer is held: the server is still writing it
        await stopButton().click();
      },
      [chat.done('stopAnswer').type]: async () => {
        world.last = 'answer stopped';
      },
      retry: async () => {
        world.last = 'retry';
        answers.hold();
        await reply().getByRole('button', { name: 'Retry' }).click();
      },
    },
  };
};

test.describe('chat send, stream, stop, retry (production machine)', () => {
  test('the walks take every transition a person and the real server can cause', () => {
    console.log(`chat (browser): ${chatWalks.transitionCount} transitions in ${chatWalks.walks.length} walks`);
    for (const walk of chatWalks.walks) console.log(`  ${walk.events.map((event) => chat.describe(event) ?? event.type).join(', ')}`);
    expect([...chatWalks.untaken]).toEqual([]);
  });
  for (const [index, walk] of chatWalks.walks.entries()) {
    test(`walk ${index + 1} (${walk.events.length} steps)`, async ({ page, context, baseURL, answers }) => {
      test.setTimeout(90_000);
      await page.goto('/chat');
      await expect(page.getByRole('textbox', { name: /Ask anything/ })).toBeVisible();
      const world: ChatWorld = { questions: 0, last: 'type a question', typedIn: 'idle', draft: false };
      await walk.test(chatParams({ page, context, baseURL: baseURL! }, answers, world));
      // stored on the server: a reload shows the same exchanges
      await page.reload();
      await expect(page.getByTestId('question')).toHaveCount(world.questions);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// (c) the operations guard

type GuardSnapshot = SnapshotFrom<typeof operationsGuardMachine>;
const AREA_ADDRESS = '/kraken-operation?status=scheduled';
const XHS_TASK = '/kraken-operation/task/xiaohongshu';
const guard = actorAnswers(operationsGuardMachine);
const GUARD_EVENTS: ModelEvent[] = [
  guard.done('verifySession', { userId: 'demo' }),
  guard.error('verifySession', 401, 'Not signed in'),
  { type: 'location.changed', pathname: XHS_TASK, search: '' } as ModelEvent,
];
const guardWalk = (token: boolean) =>
  coveringWalks(operationsGuardMachine.provide({ guards: { hasToken: () => token } }), {
    events: GUARD_EVENTS,
    input: { pathname: '/kraken-operation', search: 'status=scheduled' },
    serializeState: (state: GuardSnapshot) => `${nameOf(state)}@${state.context.pathname}`,
    // the real check answers before anyone can move; a 401 mid-visit is played in the model test on the screen
    allow: (state, event) => event.type !== 'location.changed' || (state.matches('allowed') && state.context.pathname !== XHS_TASK),
  });
const GUARD_WALKS = [
  ...guardWalk(true).walks.map((walk) => ({ token: 'valid' as const, walk })),
  ...guardWalk(true).walks.filter((walk) => walk.events.some((event) => event.type.startsWith('xstate.error'))).map((walk) => ({ token: 'forged' as const, walk })),
  { token: 'none' as const, walk: guardWalk(false).pathThrough([]) },
].filter(({ token, walk }) => token !== 'valid' || !walk.events.some((event) => event.type.startsWith('xstate.error')));

/** Where the area must be after what last happened. */
const GUARD_EXPECTED_AFTER: Record<string, string> = {
  'visit with a valid token': 'verifying',
  'visit with a forged token': 'verifying',
  'visit without a token': 'redirecting',
  'check ok': 'allowed',
  'check refused': 'redirecting',
  'move inside the area': 'allowed',
};
type GuardWorld = { at: string; last: string };

const guardParams = ({ page }: Ctx, world: GuardWorld): TestParam<GuardSnapshot, ModelEvent> => {
  const expectState = (state: GuardSnapshot) => expect(GUARD_EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(nameOf(state));
  return {
    states: {
      // the real check answers at once: the page may already be past it
      verifying: (state) => expectState(state),
      allowed: async (state) => {
        expectState(state);
        await expect(page).toHaveURL(world.at);
        if (world.at === AREA_ADDRESS) {
          await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
          await expect(page.getByRole('button', { name: /^Scheduled/ })).toHaveAttribute('aria-pressed', 'true');
        } else {
          await expect(page.getByRole('heading', { name: 'Xiaohongshu task' })).toBeVisible();
        }
      },
      redirecting: async (state) => {
        expectState(state);
        await expect(page).toHaveURL(`/login?source=kraken&redirect_url=${encodeURIComponent(world.at)}`);
        await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
        await expect(page.getByRole('heading', { name: 'Operations' })).toHaveCount(0);
      },
    },
    events: {
      [guard.done('verifySession').type]: () => {
        world.last = 'check ok';
      },
      [guard.error('verifySession', 401).type]: () => {
        world.last = 'check refused';
      },
      'location.changed': async () => {
        world.last = 'move inside the area';
        await page.getByRole('link', { name: 'New Xiaohongshu task' }).click();
        world.at = XHS_TASK;
      },
    },
  };
};

test.describe('operations guard (production machine)', () => {
  test('the walks take every transition the real check allows', () => {
    expect([...guardWalk(true).untaken]).toEqual([]);
    expect(GUARD_WALKS.map(({ token }) => token).sort()).toEqual(['forged', 'none', 'valid']);
  });
  for (const { token, walk } of GUARD_WALKS) {
    test(`${token} token: ${walk.events.map((event) => guard.describe(event) ?? event.type).join(', ') || 'the visit'}`, async ({ page, context, baseURL }) => {
      if (token === 'valid') {
        const response = await page.request.post(endpoints.login.path, { data: demoAccount() });
        const { data } = (await response.json()) as { data: { token: string } };
        await context.addCookies([{ name: 'ai-chat-ops-token', value: data.token, url: baseURL }]);
      }
      if (token === 'forged') await context.addCookies([{ name: 'ai-chat-ops-token', value: 'forged-token-forged-token-0000', url: baseURL }]);
      await page.goto(AREA_ADDRESS);
      const world: GuardWorld = { at: AREA_ADDRESS, last: `visit ${token === 'none' ? 'without a' : `with a ${token}`} token` };
      await walk.test(guardParams({ page, context, baseURL: baseURL! }, world));
      if (walk.state.matches('redirecting')) {
        // logging in brings the operator back to the exact address
        await logIn(page);
        await expect(page).toHaveURL(`${baseURL}${world.at}`);
        await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
      }
    });
  }
});
