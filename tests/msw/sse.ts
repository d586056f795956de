import { http, HttpResponse } from 'msw';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';

/**
 * Scripted chat streams. msw's own `sse()` needs EventSource, which Node 20 lacks, so a plain
 * POST handler answers a ReadableStream with the event-stream content type.
 */
export type StreamStep =
  /** One contract event as a `data:` line. */
  | ChatEvent
  /** Bytes written as they are (a malformed event, a comment, a partial line). */
  | { raw: string }
  /** Wait before the next step. */
  | { delayMs: number }
  /** Wait until the promise settles (a gate the test opens). */
  | { until: Promise<unknown> }
  /** Wait for the rest of the script, decided later by the test (finish, cut, fail...). */
  | { then: Promise<readonly StreamStep[]> }
  /** Never go on: the stream stays open until the client aborts. */
  | { hang: true }
  /** Break the connection with a network error instead of closing it cleanly. */
  | { breakConnection: true };

const encoder = new TextEncoder();

export const sseData = (event: unknown): string => `data: ${JSON.stringify(event)}\n\n`;

const isEvent = (step: StreamStep): step is ChatEvent => 'type' in step;

/**
 * A body that plays the steps in order, then closes (without an end event unless the script has
 * one). It stops as soon as the client goes away.
 */
export const scriptedBody = (steps: readonly StreamStep[], signal?: AbortSignal): ReadableStream<Uint8Array> => {
  let cancelled = false;
  let wake: (() => void) | null = null;
  const stop = () => {
    cancelled = true;
    wake?.();
  };
  signal?.addEventListener('abort', stop, { once: true });
  const wait = (promise: Promise<unknown>) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      promise.then(
        () => resolve(),
        () => resolve(),
      );
    });
  const play = async (controller: ReadableStreamDefaultController<Uint8Array>, script: readonly StreamStep[]): Promise<boolean> => {
    for (const step of script) {
      if (cancelled) return false;
      if ('then' in step) {
        let rest: readonly StreamStep[] = [];
        await wait(step.then.then((value) => (rest = value)));
        if (!(await play(controller, rest))) return false;
        continue;
      }
      if (isEvent(step)) controller.enqueue(encoder.encode(sseData(step)));
      else if ('raw' in step) controller.enqueue(encoder.encode(step.raw));
      else if ('delayMs' in step) await wait(new Promise((resolve) => setTimeout(resolve, step.delayMs)));
      else if ('until' in step) await wait(step.until);
      else if ('hang' in step) await wait(new Promise(() => undefined));
      else if ('breakConnection' in step) {
        controller.error(new TypeError('network connection lost'));
        return false;
      }
    }
    return true;
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      if ((await play(controller, steps)) && !cancelled) controller.close();
    },
    cancel: stop,
  });
};

export const EVENT_STREAM_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** An event-stream response that plays the steps. */
export const eventStream = (steps: readonly StreamStep[], init: { status?: number; signal?: AbortSignal } = {}) =>
  new HttpResponse(scriptedBody(steps, init.signal), { status: init.status ?? 200, headers: EVENT_STREAM_HEADERS });

/** The chat endpoint answering with a script, whatever was asked. */
export const chatStreamHandler = (steps: readonly StreamStep[] | (() => readonly StreamStep[])) =>
  http.post(endpoints.chat.path, ({ request }) =>
    eventStream(typeof steps === 'function' ? steps() : steps, { signal: request.signal }),
  );

/** The chat endpoint refusing with an envelope, the way the API refuses before streaming. */
export const chatRefusedHandler = (status: number, msg: string, headers: Record<string, string> = {}) =>
  http.post(endpoints.chat.path, () => HttpResponse.json({ code: 1, msg, data: null, success: false }, { status, headers }));

/** The chat endpoint answered by something else: a proxy's HTML error page. */
export const chatHtmlHandler = (status = 502) =>
  http.post(endpoints.chat.path, () => HttpResponse.html('<!doctype html><h1>Bad Gateway</h1>', { status }));

/** The chat endpoint unreachable: the request fails before any answer. */
export const chatNetworkErrorHandler = () => http.post(endpoints.chat.path, () => HttpResponse.error());

/** A full, well-formed exchange: start, the pieces as deltas, end. */
export const answerSteps = (
  pieces: readonly string[],
  ids: { conversationId: string; userMessageId?: string; replyMessageId?: string } = { conversationId: 'conv-1' },
): StreamStep[] => {
  const userMessageId = ids.userMessageId ?? 'msg-user';
  const replyMessageId = ids.replyMessageId ?? 'msg-reply';
  return [
    { type: 'start', conversationId: ids.conversationId, userMessageId, replyMessageId },
    ...pieces.map((text): StreamStep => ({ type: 'delta', messageId: replyMessageId, text })),
    { type: 'end', messageIds: [userMessageId, replyMessageId] },
  ];
};

/** A promise a test resolves by hand: holds a stream at a chosen step. */
export const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
};
