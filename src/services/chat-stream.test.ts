import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest } from '../contract/chat';
import { endpoints } from '../contract/endpoints';
import {
  answerSteps,
  chatHtmlHandler,
  chatNetworkErrorHandler,
  chatRefusedHandler,
  chatStreamHandler,
  EVENT_STREAM_HEADERS,
  gate,
  scriptedBody,
  type StreamStep,
} from '../../tests/msw/sse';
import { recordRequests, server, type SeenRequest } from '../../tests/msw/server';
import { setToken } from './cookies';
import { streamChat, StreamError } from './chat-stream';

const request: ChatRequest = { conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback', text: 'Hello?' };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let posts: SeenRequest[] = [];

type Run = { events: ChatEvent[]; settled: Promise<void>; controller: AbortController };

const run = (body: ChatRequest = request): Run => {
  const controller = new AbortController();
  const events: ChatEvent[] = [];
  const settled = streamChat(body, { signal: controller.signal, onEvent: (event) => events.push(event) });
  return { events, settled, controller };
};

/**
 * fetch-event-source keeps its promise pending while it retries, so a stream that has not
 * settled well within its one-second retry is re-sending (or stuck): say so instead of waiting.
 */
const SETTLE_LIMIT_MS = 2_500;
const settleSoon = (settled: Promise<void>): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the stream had not settled after ${SETTLE_LIMIT_MS} ms; POSTs seen: ${posts.length}`)),
      SETTLE_LIMIT_MS,
    );
    settled.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/** The error the stream failed with (the test fails if it resolved). */
const failureOf = async (settled: Promise<void>): Promise<StreamError> => {
  try {
    await settleSoon(settled);
  } catch (error) {
    if (!(error instanceof StreamError)) throw error;
    return error;
  }
  throw new Error('the stream resolved, but it should have failed');
};


/**
 * Once streamChat has settled, fetch-event-source has disposed of its retry timer: a short wait
 * is enough to see a stray re-send (a retry would instead keep the promise pending, above).
 */
const AFTER_SETTLE_MS = 100;

const expectExactlyOnePost = async () => {
  await pause(AFTER_SETTLE_MS);
  expect(posts.map((post) => post.method)).toEqual(['POST']);
};

describe('streamChat', () => {
  afterEach(() => {
    posts = [];
  });

  const track = () => {
    posts = recordRequests(endpoints.chat.path);
  };

  it('delivers the events in order and resolves only after the end event', async () => {
    track();
    const hold = gate();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { type: 'delta', messageId: 'r1', text: 'Hel' },
        { type: 'delta', messageId: 'r1', text: 'lo' },
        { until: hold.promise },
        { type: 'end', messageIds: ['u1', 'r1'] },
      ]),
    );
    const { events, settled } = run();
    let resolved = false;
    void settled.then(() => {
      resolved = true;
    });

    await expect.poll(() => events.length).toBe(3);
    await pause(50);
    expect(resolved).toBe(false);

    hold.open();
    await settleSoon(settled);
    expect(events.map((event) => event.type)).toEqual(['start', 'delta', 'delta', 'end']);
    expect(events.filter((event) => event.type === 'delta').map((event) => event.text).join('')).toBe('Hello');
    expect(events.at(-1)).toEqual({ type: 'end', messageIds: ['u1', 'r1'] });
    await expectExactlyOnePost();
  });

  it('posts the request as JSON with the bearer token and the visitor id', async () => {
    track();
    setToken('token-abcdefghijklmnopqrstuvwxyz');
    server.use(chatStreamHandler(answerSteps(['ok'])));

    await settleSoon(run().settled);

    expect(JSON.parse(await posts[0]!.text)).toEqual(request);
    expect(posts[0]!.headers.get('authorization')).toBe('Bearer token-abcdefghijklmnopqrstuvwxyz');
    expect(posts[0]!.headers.get('x-visitor-id')).toBeTruthy();
    expect(posts[0]!.headers.get('content-type')).toContain('application/json');
  });

  it.each([
    [401, 'Please log in first.'],
    [500, 'The agent service is down'],
  ])('rejects a %i JSON refusal with the server msg', async (status, msg) => {
    track();
    server.use(chatRefusedHandler(status, msg));
    const { settled, events } = run();

    const error = await failureOf(settled);

    expect(error.kind).toBe('rejected');
    expect(error.message).toBe(msg);
    expect(error.status).toBe(status);
    expect(events).toEqual([]);
    await expectExactlyOnePost();
  });

  it('rejects a 500 even when it claims to be an event stream', async () => {
    track();
    server.use(
      http.post(endpoints.chat.path, () => new HttpResponse(scriptedBody(answerSteps(['never shown']) as StreamStep[]), { status: 500, headers: EVENT_STREAM_HEADERS })),
    );
    const { settled, events } = run();

    const error = await failureOf(settled);

    expect(error.kind).toBe('rejected');
    expect(error.status).toBe(500);
    expect(events).toEqual([]);
    await expectExactlyOnePost();
  });

  it('rejects an HTML page with no message a person could use', async () => {
    track();
    server.use(chatHtmlHandler(502));

    const error = await failureOf(run().settled);

    expect(error.kind).toBe('rejected');
    expect(error.message).toBe('');
    await expectExactlyOnePost();
  });

  it('rejects a 200 that is not an event stream', async () => {
    track();
    server.use(http.post(endpoints.chat.path, () => HttpResponse.json({ code: 0, msg: 'ok', data: null })));

    const error = await failureOf(run().settled);

    expect(error.kind).toBe('rejected');
    await expectExactlyOnePost();
  });

  it('fails as incomplete when the stream closes without its end event, keeping what arrived', async () => {
    track();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { type: 'delta', messageId: 'r1', text: 'Half an ans' },
      ]),
    );
    const { settled, events } = run();

    const error = await failureOf(settled);

    expect(error.kind).toBe('incomplete');
    expect(events.map((event) => event.type)).toEqual(['start', 'delta']);
    await expectExactlyOnePost();
  });

  it('fails as incomplete when the connection breaks mid-answer', async () => {
    track();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { type: 'delta', messageId: 'r1', text: 'Half' },
        { delayMs: 10 },
        { breakConnection: true },
      ]),
    );

    const error = await failureOf(run().settled);

    expect(error.kind).toBe('incomplete');
    await expectExactlyOnePost();
  });

  it('fails with the agent error message when an error event comes before the close', async () => {
    track();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { type: 'delta', messageId: 'r1', text: 'Let me th' },
        { type: 'error', msg: 'The model is overloaded' },
      ]),
    );
    const { settled, events } = run();

    const error = await failureOf(settled);

    expect(error.kind).toBe('agent-error');
    expect(error.message).toBe('The model is overloaded');
    expect(events.at(-1)).toEqual({ type: 'error', msg: 'The model is overloaded' });
    await expectExactlyOnePost();
  });

  it.each([
    ['not JSON', 'data: {"type":"delta", oops\n\n'],
    ['JSON outside the contract', 'data: {"type":"teleport","to":"mars"}\n\n'],
  ])('fails as malformed on an event that is %s', async (_what, raw) => {
    track();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { raw },
        { type: 'delta', messageId: 'r1', text: 'after the bad event' },
        { type: 'end', messageIds: ['u1', 'r1'] },
      ]),
    );
    const { settled, events } = run();

    const error = await failureOf(settled);

    expect(error.kind).toBe('malformed');
    expect(events.map((event) => event.type)).toEqual(['start']);
    await expectExactlyOnePost();
  });

  it('fails as a network error when the request never reaches a server', async () => {
    track();
    server.use(chatNetworkErrorHandler());

    const error = await failureOf(run().settled);

    expect(error.kind).toBe('network');
    await expectExactlyOnePost();
  });

  it('resolves quietly when the caller aborts mid-answer, and delivers nothing after', async () => {
    track();
    server.use(
      chatStreamHandler([
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { type: 'delta', messageId: 'r1', text: 'Once upon' },
        { hang: true },
      ]),
    );
    const { settled, events, controller } = run();
    await expect.poll(() => events.length).toBe(2);

    controller.abort();

    await expect(settleSoon(settled)).resolves.toBeUndefined();
    expect(events).toHaveLength(2);
    await expectExactlyOnePost();
  });

  it('ignores SSE comments and blank data lines between events', async () => {
    track();
    server.use(
      chatStreamHandler([
        { raw: ': keep-alive\n\n' },
        { type: 'start', conversationId: 'conv-1', userMessageId: 'u1', replyMessageId: 'r1' },
        { raw: ': heartbeat\n\n' },
        { type: 'delta', messageId: 'r1', text: 'ok' },
        { type: 'end', messageIds: ['u1', 'r1'] },
      ]),
    );
    const { settled, events } = run();

    await settleSoon(settled);

    expect(events.map((event) => event.type)).toEqual(['start', 'delta', 'end']);
    await expectExactlyOnePost();
  });
});
