import { fetchEventSource } from '@microsoft/fetch-event-source';
import * as v from 'valibot';
import { chatEventSchema, type ChatEvent, type ChatRequest, type ChatResumeRequest } from '../contract/chat';
import { routes } from '../contract/routes';
import { apiUrl, authHeaders, reportUnauthorized } from './http';
import { retryAfterSeconds } from './retry-after';

/** Why a stream did not finish with its end event. */
export type StreamFailureKind =
  /** The server refused before streaming (non-200, or not an event stream). */
  | 'rejected'
  /** Refused before streaming because a quota is used up (429): the question may go again later. */
  | 'rate-limited'
  /** The agent sent an error event. */
  | 'agent-error'
  /** The connection closed or broke before the end event: the answer is incomplete. */
  | 'incomplete'
  /** An event that is not valid JSON of the contract. */
  | 'malformed'
  /** The request never reached a server (offline, refused, DNS). */
  | 'network';

export class StreamError extends Error {
  readonly kind: StreamFailureKind;
  readonly status: number | undefined;
  /** For 'rate-limited': when the server says to try again, if it said. */
  readonly retryAfterSeconds: number | undefined;
  /** For 'rejected': what went wrong as the envelope's fixed word (`MODEL_UNKNOWN`, ...), when it says. */
  readonly reason: string | undefined;
  constructor(kind: StreamFailureKind, message: string, status?: number, retryAfterSeconds?: number, reason?: string) {
    super(message);
    this.name = 'StreamError';
    this.kind = kind;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
    this.reason = reason;
  }
}

const EVENT_STREAM = 'text/event-stream';

const readServerRefusal = async (response: Response): Promise<{ message: string; reason?: string }> => {
  // Only a JSON refusal carries a message; any other body (an event stream that stays open, a
  // proxy's page) is left unread, since waiting for its end could hang the chat. The request is
  // aborted right after.
  if (!(response.headers.get('content-type') ?? '').includes('json')) return { message: '' };
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { msg?: unknown; reason?: unknown };
    return {
      message: typeof body.msg === 'string' ? body.msg : '',
      ...(typeof body.reason === 'string' && body.reason ? { reason: body.reason } : {}),
    };
  } catch {
    // not JSON: a proxy's HTML page, say; no message a person could use
  }
  return { message: '' };
};

export type StreamChatOptions = {
  signal: AbortSignal;
  onEvent: (event: ChatEvent) => void;
};

/**
 * Sends one chat POST and delivers its events. Resolves only after the explicit `end` event;
 * rejects with a StreamError otherwise, and never sends the POST a second time by itself
 * (the library's automatic retry is disabled by throwing from `onerror`).
 * An abort through `signal` resolves quietly: the caller knows it stopped the stream.
 */
export const streamChat = (request: ChatRequest, options: StreamChatOptions): Promise<void> => streamEvents(routes.chat.path, request, options);

/**
 * Reads an answer again from `offset` (after a reload, a lost connection, in another tab), live
 * while it is written. Resolves after `end`, or after `incomplete` (the answer was stopped);
 * rejects like `streamChat` otherwise. Reading again sends no question.
 */
export const resumeChat = (request: ChatResumeRequest, options: StreamChatOptions): Promise<void> =>
  streamEvents(routes.chatResume.path, request, options);

const streamEvents = async (path: string, request: ChatRequest | ChatResumeRequest, { signal, onEvent }: StreamChatOptions): Promise<void> => {
  let opened = false;
  let ended = false;
  let agentError: string | null = null;

  await fetchEventSource(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: EVENT_STREAM, ...authHeaders() },
    body: JSON.stringify(request),
    signal,
    // The library would abort when the tab is hidden and re-send on return: a duplicate question.
    openWhenHidden: true,
    async onopen(response) {
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.startsWith(EVENT_STREAM)) {
        const { message, reason } = await readServerRefusal(response);
        if (response.status === 401) reportUnauthorized(message);
        if (response.status === 429) {
          throw new StreamError('rate-limited', message, 429, retryAfterSeconds(response.headers.get('retry-after')));
        }
        throw new StreamError('rejected', message, response.status, undefined, reason);
      }
      opened = true;
    },
    onmessage(message) {
      if (!message.data) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        throw new StreamError('malformed', '');
      }
      const result = v.safeParse(chatEventSchema, parsed);
      if (!result.success) throw new StreamError('malformed', '');
      const event = result.output;
      if (event.type === 'error') agentError = event.msg;
      if (event.type === 'end' || event.type === 'incomplete') ended = true;
      onEvent(event);
    },
    onclose() {
      if (agentError !== null) throw new StreamError('agent-error', agentError);
      if (!ended) throw new StreamError('incomplete', '');
    },
    onerror(error) {
      if (error instanceof StreamError) throw error;
      throw new StreamError(opened ? 'incomplete' : 'network', '');
    },
  }).catch((error: unknown) => {
    if (signal.aborted) return;
    throw error instanceof StreamError ? error : new StreamError(opened ? 'incomplete' : 'network', '');
  });
};
