import { fromCallback, fromPromise } from 'xstate';
import type { ChatEvent, ChatRequest, ChatResumeRequest } from '../contract/chat';
import type { TokenUsage } from '../contract/messages';
import type { AnswerModel } from '../contract/models';
import type { StreamFailureKind } from '../services/chat-stream';
import { statusOf } from './error-status';

/** What the stream reports while the answer is being written. */
export type StreamProgress =
  | {
      type: 'stream.accepted';
      conversationId: string;
      userMessageId: string;
      replyMessageId: string;
      /** When the server stored each, when it says (older servers do not). */
      userMessageCreatedAt?: string;
      replyMessageCreatedAt?: string;
      /** The model writing the answer, when the server says. */
      model?: AnswerModel;
    }
  | { type: 'stream.delta'; text: string }
  /** A resume began: the deltas that follow continue the answer's text from `offset`. */
  | { type: 'stream.resumed'; offset: number };

/** How the stream ended, as the transport said it. */
export type StreamClose =
  | { type: 'stream.ended'; messageIds: string[]; usage?: TokenUsage }
  /** The answer was stopped (from any tab, or by a cap) and is stored with the text sent. */
  | { type: 'stream.stopped' }
  | { type: 'stream.failed'; kind: StreamFailureKind; message: string; retryAfterSeconds?: number; status?: number };

/** What the callback stream actor (the task editor's drafting) reports to its machine. */
export type ChatStreamReport = StreamProgress | StreamClose;

/** `message` is the server's own (English) words, for the logs; `status` says in any language why it refused. */
export type StreamFailure = { kind: StreamFailureKind; message: string; retryAfterSeconds?: number; status?: number };

/**
 * How a chat stream ended, told once by the actor that read it (its output): the answer
 * finished; it was stopped on the server; the agent failed; the connection broke or never
 * opened (`lost`: the server may have heard the request all the same, and may still be writing);
 * or any other failure (refused, unreadable).
 */
export type StreamEnding =
  | { kind: 'complete'; messageIds: string[]; usage?: TokenUsage }
  | { kind: 'stopped' }
  | { kind: 'agent-error' | 'lost' | 'failed'; failure: StreamFailure };

export const endingOf = (close: StreamClose): StreamEnding => {
  switch (close.type) {
    case 'stream.ended':
      return { kind: 'complete', messageIds: close.messageIds, ...(close.usage ? { usage: close.usage } : {}) };
    case 'stream.stopped':
      return { kind: 'stopped' };
    case 'stream.failed': {
      const failure: StreamFailure = {
        kind: close.kind,
        message: close.message,
        ...(close.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: close.retryAfterSeconds }),
        ...(close.status === undefined ? {} : { status: close.status }),
      };
      if (close.kind === 'agent-error') return { kind: 'agent-error', failure };
      return { kind: close.kind === 'incomplete' || close.kind === 'network' ? 'lost' : 'failed', failure };
    }
  }
};

export type ChatTransport<Request = ChatRequest> = (
  request: Request,
  options: { signal: AbortSignal; onEvent: (event: ChatEvent) => void },
) => Promise<void>;

export type ResumeTransport = ChatTransport<ChatResumeRequest>;

type FrameScheduler = (flush: () => void) => () => void;

/** One flush per animation frame where there is one (a browser), else about 60 a second. */
const nextFrame: FrameScheduler = (flush) => {
  if (typeof requestAnimationFrame === 'function') {
    const handle = requestAnimationFrame(flush);
    return () => cancelAnimationFrame(handle);
  }
  const handle = setTimeout(flush, 16);
  return () => clearTimeout(handle);
};

const retryAfterOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number'
    ? error.retryAfterSeconds
    : undefined;

const failureKindOf = (error: unknown): StreamFailureKind =>
  typeof error === 'object' && error !== null && 'kind' in error
    ? ((error as { kind: StreamFailureKind }).kind)
    : 'network';

type StreamHandlers = { signal: AbortSignal; schedule: FrameScheduler; onProgress: (progress: StreamProgress) => void; onClose: (close: StreamClose) => void };

/**
 * Runs one chat POST (a question, or reading an answer again) through the transport. Text deltas
 * are gathered and handed on once per frame, so a fast stream costs one render a frame however
 * many tokens arrive; what is gathered goes before the close. Aborting `signal` aborts the
 * request; nothing is reported after it. Returns what cancels a frame still to come.
 */
const runStream = <Request>(transport: ChatTransport<Request>, request: Request, { signal, schedule, onProgress, onClose }: StreamHandlers) => {
  let pending = '';
  let cancelFrame: (() => void) | null = null;

  const flush = () => {
    cancelFrame = null;
    if (!pending) return;
    const text = pending;
    pending = '';
    onProgress({ type: 'stream.delta', text });
  };
  const close = (report: StreamClose) => {
    cancelFrame?.();
    flush();
    onClose(report);
  };

  const onEvent = (event: ChatEvent) => {
    if (signal.aborted) return;
    switch (event.type) {
      case 'start':
        onProgress({
          type: 'stream.accepted',
          conversationId: event.conversationId,
          userMessageId: event.userMessageId,
          replyMessageId: event.replyMessageId,
          ...(event.userMessageCreatedAt ? { userMessageCreatedAt: event.userMessageCreatedAt } : {}),
          ...(event.replyMessageCreatedAt ? { replyMessageCreatedAt: event.replyMessageCreatedAt } : {}),
          ...(event.model ? { model: event.model } : {}),
        });
        break;
      case 'delta':
        pending += event.text;
        if (!cancelFrame) {
          const cancel = schedule(flush);
          // A scheduler may flush at once; only a frame still to come is kept for cancelling.
          if (pending) cancelFrame = cancel;
        }
        break;
      case 'resume':
        onProgress({ type: 'stream.resumed', offset: event.offset });
        break;
      case 'end':
        close({ type: 'stream.ended', messageIds: event.messageIds, ...(event.usage ? { usage: event.usage } : {}) });
        break;
      case 'incomplete':
        close({ type: 'stream.stopped' });
        break;
      case 'error':
        // the transport rejects after the close, with this message
        break;
    }
  };

  transport(request, { signal, onEvent }).catch((error: unknown) => {
    if (signal.aborted) return;
    const retryAfterSeconds = retryAfterOf(error);
    const status = statusOf(error);
    close({
      type: 'stream.failed',
      kind: failureKindOf(error),
      message: error instanceof Error ? error.message : '',
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      ...(status === undefined ? {} : { status }),
    });
  });

  return () => cancelFrame?.();
};

/**
 * The stream as a callback actor: progress and the close are reported to the machine as events
 * (`ChatStreamReport`). Stopping the actor aborts the request.
 */
export const createChatStreamActor = <Request = ChatRequest>(transport: ChatTransport<Request>, schedule: FrameScheduler = nextFrame) =>
  fromCallback<{ type: 'noop' }, Request>(({ input, sendBack }) => {
    const controller = new AbortController();
    const cancelFrame = runStream(transport, input, { signal: controller.signal, schedule, onProgress: sendBack, onClose: sendBack });
    return () => {
      cancelFrame();
      controller.abort();
    };
  });

/** Who hears a chat stream's progress while it runs: the chat that invoked it. */
export type ProgressListener = { send: (progress: StreamProgress) => void };

export type ChatStreamInput<Request> = { request: Request; reportTo: ProgressListener };

/**
 * The chat's stream: progress goes to `reportTo` as it arrives; the actor's output is how the
 * stream ended (`StreamEnding`), once. Stopping the actor aborts the request.
 */
export const createChatStreamCall = <Request = ChatRequest>(transport: ChatTransport<Request>, schedule: FrameScheduler = nextFrame) =>
  fromPromise<StreamEnding, ChatStreamInput<Request>>(
    ({ input, signal }) =>
      new Promise<StreamEnding>((resolve) => {
        // Aborted when the chat stops the actor, or once the ending is known (nothing more is read).
        const controller = new AbortController();
        const abort = () => {
          cancelFrame();
          controller.abort();
        };
        const cancelFrame = runStream(transport, input.request, {
          signal: controller.signal,
          schedule,
          onProgress: (progress) => input.reportTo.send(progress),
          onClose: (close) => {
            resolve(endingOf(close));
            abort();
          },
        });
        signal.addEventListener('abort', abort, { once: true });
      }),
  );
