import { fromCallback } from 'xstate';
import type { ChatEvent, ChatRequest, ChatResumeRequest } from '../contract/chat';
import type { TokenUsage } from '../contract/messages';
import type { StreamFailureKind } from '../services/chat-stream';

/** What the chat stream actor reports to the chat machine. */
export type ChatStreamReport =
  | {
      type: 'stream.accepted';
      conversationId: string;
      userMessageId: string;
      replyMessageId: string;
      /** When the server stored each, when it says (older servers do not). */
      userMessageCreatedAt?: string;
      replyMessageCreatedAt?: string;
    }
  | { type: 'stream.delta'; text: string }
  | { type: 'stream.ended'; messageIds: string[]; usage?: TokenUsage }
  /** A resume began: the deltas that follow continue the answer's text from `offset`. */
  | { type: 'stream.resumed'; offset: number }
  /** The answer was stopped (from any tab, or by a cap) and is stored with the text sent. */
  | { type: 'stream.stopped' }
  | { type: 'stream.failed'; kind: StreamFailureKind; message: string; retryAfterSeconds?: number };

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

/**
 * Runs one chat POST (a question, or reading an answer again) through the transport. Text deltas are gathered and handed on once per
 * frame, so a fast stream costs one render a frame however many tokens arrive. Stopping the
 * actor aborts the request.
 */
export const createChatStreamActor = <Request = ChatRequest>(transport: ChatTransport<Request>, schedule: FrameScheduler = nextFrame) =>
  fromCallback<{ type: 'noop' }, Request>(({ input, sendBack }) => {
    const controller = new AbortController();
    let pending = '';
    let cancelFrame: (() => void) | null = null;

    const flush = () => {
      cancelFrame = null;
      if (!pending) return;
      const text = pending;
      pending = '';
      sendBack({ type: 'stream.delta', text } satisfies ChatStreamReport);
    };

    const onEvent = (event: ChatEvent) => {
      if (controller.signal.aborted) return;
      switch (event.type) {
        case 'start':
          sendBack({
            type: 'stream.accepted',
            conversationId: event.conversationId,
            userMessageId: event.userMessageId,
            replyMessageId: event.replyMessageId,
            ...(event.userMessageCreatedAt ? { userMessageCreatedAt: event.userMessageCreatedAt } : {}),
            ...(event.replyMessageCreatedAt ? { replyMessageCreatedAt: event.replyMessageCreatedAt } : {}),
          } satisfies ChatStreamReport);
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
          sendBack({ type: 'stream.resumed', offset: event.offset } satisfies ChatStreamReport);
          break;
        case 'end':
          cancelFrame?.();
          flush();
          sendBack({ type: 'stream.ended', messageIds: event.messageIds, ...(event.usage ? { usage: event.usage } : {}) } satisfies ChatStreamReport);
          break;
        case 'incomplete':
          cancelFrame?.();
          flush();
          sendBack({ type: 'stream.stopped' } satisfies ChatStreamReport);
          break;
        case 'error':
          // the transport rejects after the close, with this message
          break;
      }
    };

    transport(input, { signal: controller.signal, onEvent }).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      cancelFrame?.();
      flush();
      sendBack({
        type: 'stream.failed',
        kind: failureKindOf(error),
        message: error instanceof Error ? error.message : '',
        ...(retryAfterOf(error) === undefined ? {} : { retryAfterSeconds: retryAfterOf(error) }),
      } satisfies ChatStreamReport);
    });

    return () => {
      cancelFrame?.();
      controller.abort();
    };
  });
