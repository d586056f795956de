import { screen, within } from '@testing-library/react';
import { http, passthrough } from 'msw';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { changeLocale } from '../../src/i18n';
import ChatScreen from '../../src/screens/chat/chat-screen';
import { getToken, setToken } from '../../src/services/cookies';
import { server as msw } from '../msw/server';
import { renderWithRuntime, type Screen } from '../spa/harness';
import {
  deltaEvent,
  endEvent,
  startEvent,
  startFaultServer,
  USER_MESSAGE_ID,
  type FaultScript,
  type FaultServer,
} from './fault-server';

/**
 * The real chat screen, chat machine, stream actor and transport (fetch-event-source over the
 * real fetch) against a misbehaving server on loopback. The page's origin is the fault server,
 * so every relative API call of the SPA reaches it over TCP; msw only lets those calls through.
 */

declare const jsdom: { reconfigure(options: { url: string }): void };

let faults: FaultServer;

beforeAll(async () => {
  faults = await startFaultServer();
  jsdom.reconfigure({ url: `${faults.origin}/` });
});

afterAll(async () => {
  await faults.close();
});

beforeEach(() => {
  faults.reset();
  msw.use(http.all(`${faults.origin}/*`, () => passthrough()));
});

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const QUESTION = 'Tell me about sourdough';
const NOT_SENT = 'Your message was not sent; it is back in the box. Try again.';
const PARTIAL = 'Sourdough starts with a ';

/** fetch-event-source's own retry would come about a second after a failure: wait past it. */
const PAST_AUTOMATIC_RETRY_MS = 1_200;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const box = () => screen.getByRole('textbox');
const answers = () => screen.queryAllByTestId('answer');
const questions = () => screen.queryAllByTestId('question');
const lastReply = () => screen.getAllByRole('listitem').filter((item) => item.dataset.role === 'assistant').at(-1);

const ask = async (view: Screen, text = QUESTION) => {
  await view.user.type(box(), `${text}{Enter}`);
};

const openChat = async (language: 'en-US' | 'zh-CN' = 'en-US') => {
  const view = await renderWithRuntime(routes, { url: '/chat' });
  if (language !== 'en-US') await changeLocale(language);
  return view;
};

const settled = async (view: Screen) => {
  await expect.poll(() => view.runtime.chat.getSnapshot().matches('streaming'), { timeout: 8_000 }).toBe(false);
  await pause(PAST_AUTOMATIC_RETRY_MS);
};

/** The question was accepted: it is in the list once, the partial answer is kept and marked, with a retry. */
const expectAcceptedAndCut = async (partial: string, marker = 'The answer is incomplete', retry = 'Retry') => {
  expect(faults.posts).toHaveLength(1);
  expect(questions().map((element) => element.textContent)).toEqual([QUESTION]);
  expect(box()).toHaveValue('');
  expect(lastReply()?.dataset.status).toBe('incomplete');
  expect(answers().map((element) => element.textContent)).toEqual([partial]);
  const status = within(lastReply()!).getByRole('status');
  expect(status).toHaveTextContent(marker);
  expect(within(status).getByRole('button', { name: retry })).toBeEnabled();
};

/** The question was not accepted: it is back in the box, once, with a translated reason and the send button. */
const expectRefusedAndKept = async (reason: string | RegExp, send = 'Send') => {
  expect(faults.posts).toHaveLength(1);
  expect(questions()).toHaveLength(0);
  expect(answers()).toHaveLength(0);
  expect(box()).toHaveValue(QUESTION);
  expect(screen.getByRole('alert')).toHaveTextContent(reason);
  expect(screen.getByRole('button', { name: send })).toBeEnabled();
};

const cutAfterPartial = (cut: FaultScript['steps']): FaultScript => ({
  steps: [startEvent(), deltaEvent('Sourdough '), deltaEvent('starts with a '), ...(cut ?? [])],
});

describe('a chat answer under faults, over real HTTP', () => {
  it('keeps and marks the partial answer when the stream closes cleanly without its end event', async () => {
    faults.script(cutAfterPartial([{ delayMs: 20 }]));
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectAcceptedAndCut(PARTIAL);
  });

  it('gives the question back when the stream closes before the question was stored', async () => {
    faults.script({ steps: [{ raw: ': ping\n\n' }] });
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectRefusedAndKept(NOT_SENT);
  });

  it('keeps and marks the partial answer when the connection is reset mid-answer, and the retry answers the stored question', async () => {
    faults.script(cutAfterPartial([{ delayMs: 20 }, { reset: true }]), { steps: [startEvent(), deltaEvent('A whole answer.'), endEvent()] });
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectAcceptedAndCut(PARTIAL);

    await view.user.click(screen.getByRole('button', { name: 'Retry' }));
    await expect.poll(() => lastReply()?.dataset.status).toBe('complete');
    expect(answers().map((element) => element.textContent)).toEqual(['A whole answer.']);
    expect(questions()).toHaveLength(1);
    expect(faults.posts).toHaveLength(2);
    expect(faults.posts[1]!.body).toMatchObject({ retryMessageId: USER_MESSAGE_ID });
    expect(faults.posts[1]!.body).not.toHaveProperty('text');
  });

  it('keeps the question in the box when the server refuses with 401 and a JSON body', async () => {
    faults.script({ status: 401, headers: { 'content-type': 'application/json' }, steps: [{ raw: JSON.stringify({ code: 1, msg: 'Please log in first.', data: null, success: false }) }] });
    const view = await openChat();
    await ask(view);
    await settled(view);
    // The server's own words are not shown: the refusal is said in the reader's language.
    await expectRefusedAndKept(`${NOT_SENT} (Your session has ended. Please log in again.)`);
  });

  it('keeps the question in the box when the server fails with 500 and a JSON body, and sends it again', async () => {
    faults.script(
      { status: 500, headers: { 'content-type': 'application/json' }, steps: [{ raw: JSON.stringify({ code: 1, msg: 'Something went wrong on the server.', data: null, success: false }) }] },
      { steps: [startEvent(), deltaEvent('Now it works.'), endEvent()] },
    );
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectRefusedAndKept(`${NOT_SENT} (Something went wrong on the server. Please try again.)`);

    await view.user.click(screen.getByRole('button', { name: 'Send' }));
    await expect.poll(() => lastReply()?.dataset.status).toBe('complete');
    expect(questions().map((element) => element.textContent)).toEqual([QUESTION]);
    expect(answers().map((element) => element.textContent)).toEqual(['Now it works.']);
    expect(faults.posts).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('does not take a 500 for an answer even when it claims to be an event stream and stays open', async () => {
    faults.script({
      status: 500,
      headers: { 'content-type': 'text/event-stream' },
      steps: [startEvent(), deltaEvent('never shown'), { hang: true }],
    });
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectRefusedAndKept(NOT_SENT);
    expect(screen.queryByText('never shown')).toBeNull();
    await expect.poll(() => faults.posts[0]?.clientWentAway).toBe(true);
  });

  it('keeps the question in the box when a proxy answers with an HTML page', async () => {
    faults.script({ status: 502, headers: { 'content-type': 'text/html' }, steps: [{ raw: '<html><body><h1>502 Bad Gateway</h1><script>window.__pwned = 1</script></body></html>' }] });
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectRefusedAndKept(NOT_SENT);
    expect(document.body.textContent).not.toContain('Bad Gateway');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('stops at a malformed event, keeping what came before it and nothing after', async () => {
    faults.script(cutAfterPartial([{ raw: 'data: {"type":"delta", oops\n\n' }, deltaEvent('after the bad event'), endEvent()]));
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectAcceptedAndCut(PARTIAL);
    expect(screen.queryByText(/after the bad event/)).toBeNull();
  });

  it('waits patiently through a trickle of one byte a second, showing no half event, and shows the text once', async () => {
    const line = `data: ${JSON.stringify({ type: 'delta', messageId: 'msg-reply-1', text: 'slow' })}\n\n`;
    const cut = line.length - 4;
    faults.script({ steps: [startEvent(), { raw: line.slice(0, cut) }, { trickle: line.slice(cut), everyMs: 1_000 }, endEvent()] });
    const view = await openChat();
    await ask(view);
    await pause(2_500);
    expect(view.runtime.chat.getSnapshot().matches('streaming')).toBe(true);
    expect(answers()).toHaveLength(0);
    await expect.poll(() => lastReply()?.dataset.status, { timeout: 10_000 }).toBe('complete');
    await pause(PAST_AUTOMATIC_RETRY_MS);
    expect(answers().map((element) => element.textContent)).toEqual(['slow']);
    expect(faults.posts).toHaveLength(1);
  }, 20_000);

  it('ignores heartbeat comment lines between events', async () => {
    faults.script({
      steps: [{ raw: ': ping\n\n' }, startEvent(), { raw: ': ping\n\n' }, deltaEvent('Flour, '), { raw: ':\n\n: ping\n\n' }, deltaEvent('water, salt.'), { raw: ': ping\n\n' }, endEvent()],
    });
    const view = await openChat();
    await ask(view);
    await expect.poll(() => lastReply()?.dataset.status).toBe('complete');
    await pause(PAST_AUTOMATIC_RETRY_MS);
    expect(answers().map((element) => element.textContent)).toEqual(['Flour, water, salt.']);
    expect(document.body.textContent).not.toContain('ping');
    expect(faults.posts).toHaveLength(1);
  });

  it('keeps streaming when the tab is hidden mid-answer, and sends nothing again when it is shown', async () => {
    faults.script({ steps: [startEvent(), deltaEvent('Before hiding. '), { gate: true }, deltaEvent('After hiding.'), endEvent()] });
    const view = await openChat();
    await ask(view);
    await expect.poll(() => answers()[0]?.textContent).toBe('Before hiding. ');

    const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState');
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    document.dispatchEvent(new Event('visibilitychange'));
    await pause(100);
    faults.release();
    await expect.poll(() => lastReply()?.dataset.status).toBe('complete');

    delete (document as { visibilityState?: unknown }).visibilityState;
    delete (document as { hidden?: unknown }).hidden;
    expect(Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState')).toEqual(visibility);
    document.dispatchEvent(new Event('visibilitychange'));
    await pause(PAST_AUTOMATIC_RETRY_MS);

    expect(answers().map((element) => element.textContent)).toEqual(['Before hiding. After hiding.']);
    expect(questions()).toHaveLength(1);
    expect(faults.posts).toHaveLength(1);
    expect(faults.posts[0]!.clientWentAway).toBe(false);
  });

  it('stops when the person presses stop: the server sees the request end, the partial answer stays with a retry', async () => {
    faults.script({ steps: [startEvent(), deltaEvent('Sourdough '), deltaEvent('starts with a '), { hang: true }] });
    const view = await openChat();
    await ask(view);
    await expect.poll(() => answers()[0]?.textContent).toBe(PARTIAL);

    await view.user.click(screen.getByRole('button', { name: 'Stop generating' }));
    await settled(view);

    await expect.poll(() => faults.posts[0]?.clientWentAway).toBe(true);
    await expectAcceptedAndCut(PARTIAL);
  });

  it('gives the question back when the network drops before the first byte', async () => {
    faults.script({ dropBeforeAnswer: true });
    const view = await openChat();
    await ask(view);
    await settled(view);
    await expectRefusedAndKept('Could not reach the server. Your message was not sent; try again.');
  });
});

describe('a session that ends mid-chat', () => {
  it('drops the token on a 401 from the chat stream, keeps the question in the box, and shows the person as logged out', async () => {
    setToken('t'.repeat(43));
    faults.script({ status: 401, headers: { 'content-type': 'application/json' }, steps: [{ raw: JSON.stringify({ code: 1, msg: 'Your session has expired or was ended. Please log in again.', data: null, success: false }) }] });
    const view = await openChat();
    expect(view.runtime.app.getSnapshot().matches({ loaded: 'signedIn' })).toBe(true);
    await ask(view);
    await settled(view);
    await expectRefusedAndKept(`${NOT_SENT} (Your session has ended. Please log in again.)`);
    expect(faults.posts[0]!.headers.authorization).toBe(`Bearer ${'t'.repeat(43)}`);
    await expect.poll(() => view.runtime.app.getSnapshot().matches({ loaded: 'visitor' })).toBe(true);
    expect(getToken()).toBeFalsy();
  });
});

describe('the same faults, read in Chinese', () => {
  it('marks a reset answer as incomplete with 重试', async () => {
    faults.script(cutAfterPartial([{ delayMs: 20 }, { reset: true }]));
    const view = await openChat('zh-CN');
    await ask(view);
    await settled(view);
    await expectAcceptedAndCut(PARTIAL, '回答未完成', '重试');
  });

  it('marks a malformed answer as incomplete with 重试', async () => {
    faults.script(cutAfterPartial([{ raw: 'data: not json\n\n' }]));
    const view = await openChat('zh-CN');
    await ask(view);
    await settled(view);
    await expectAcceptedAndCut(PARTIAL, '回答未完成', '重试');
  });

  it('marks a stopped answer as incomplete with 重试', async () => {
    faults.script({ steps: [startEvent(), deltaEvent(PARTIAL), { hang: true }] });
    const view = await openChat('zh-CN');
    await ask(view);
    await expect.poll(() => answers()[0]?.textContent).toBe(PARTIAL);
    await view.user.click(screen.getByRole('button', { name: '停止生成' }));
    await settled(view);
    await expectAcceptedAndCut(PARTIAL, '回答未完成', '重试');
  });

  it('says in Chinese that a 500 refused the message, keeping it in the box', async () => {
    faults.script({ status: 500, headers: { 'content-type': 'application/json' }, steps: [{ raw: JSON.stringify({ code: 1, msg: 'Something went wrong on the server.', data: null, success: false }) }] });
    const view = await openChat('zh-CN');
    await ask(view);
    await settled(view);
    await expectRefusedAndKept('消息没有发出，已放回输入框，请重试。 (服务器出错了，请重试。)', '发送');
  });

  it('says in Chinese that the network dropped before the first byte, keeping the message', async () => {
    faults.script({ dropBeforeAnswer: true });
    const view = await openChat('zh-CN');
    await ask(view);
    await settled(view);
    await expectRefusedAndKept('网络连接失败，消息没有发出，请重试。', '发送');
  });
});
