import type { TokenUsage } from '../contract/messages';
import type { LoadedConversation } from './chat-events';
import type { FoundEnding } from './chat-messages';
import type { ChatContext, ChatFailure } from './chat-sending';
import type { StreamEnding } from './chat-stream.actor';

/*
 * How an exchange ends, as transitions of the chat machine (chat.machine.ts): a stream's ending
 * is its actor's output (`StreamEnding`), told once; these read it. Shared by the states that
 * read an answer (a question's stream, an answer read again) and by the look for what was sent.
 */

export type EndingKind = StreamEnding['kind'];

/** The failure an ending carries (every ending but `complete` and `stopped` has one). */
const failureOf = (ending: StreamEnding): ChatFailure => ('failure' in ending ? ending.failure : { kind: 'incomplete', message: '' });

/** What a finished answer's ending says: the ids of the exchange, and what it cost. */
const completionOf = (ending: StreamEnding): { messageIds: string[]; usage?: TokenUsage } => (ending.kind === 'complete' ? ending : { messageIds: [] });

/** The exchange ended, however: the history shows the new update time. */
export const exchangeSettled = { type: 'exchangeSettled', params: ({ context }: { context: ChatContext }) => ({ conversationId: context.conversationId }) } as const;

/** A stream's done event: its output is how the stream ended. */
type Ended = { event: { output: StreamEnding } };
export const endedAs = (...kinds: EndingKind[]) => ({ type: 'endedAs', params: ({ event }: Ended) => ({ ending: event.output.kind, kinds }) }) as const;
/** The server had taken what was sent, and its answer ended so. */
export const answerEndedAs = (...kinds: EndingKind[]) => ({ type: 'answerEndedAs', params: ({ event }: Ended) => ({ ending: event.output.kind, kinds }) }) as const;
export const marked = (status: 'incomplete' | 'failed') => ({ type: 'markReply', params: ({ event }: Ended) => ({ status, failure: failureOf(event.output) }) }) as const;
export const withFailure = <Type extends string>(type: Type) => ({ type, params: ({ event }: Ended) => ({ failure: failureOf(event.output) }) }) as const;

/** How an answer being read ended, alike for a question's stream and an answer read again. */
export const answerFinished = {
  guard: endedAs('complete'),
  target: 'settled.done',
  actions: [{ type: 'completeReply', params: ({ event }: Ended) => completionOf(event.output) }, exchangeSettled],
} as const;
export const answerStopped = {
  guard: endedAs('stopped'),
  target: 'settled.unfinished.incomplete',
  actions: [{ type: 'markReply', params: { status: 'incomplete', failure: null } }, exchangeSettled],
} as const;
export const agentFailed = { target: 'settled.unfinished.failed', actions: [marked('failed'), exchangeSettled] } as const;

/** The conversation as stored, read while looking for what was sent. */
type Looked = { event: { output: LoadedConversation } };

/** What was sent is in the stored conversation, its exchange standing so: it is shown as it stands. */
export const foundAs = (endings: FoundEnding[], target: string, { unsettled = false, stopWanted }: { unsettled?: boolean; stopWanted?: true } = {}) =>
  ({
    guard: { type: 'foundEnding', params: ({ event }: Looked) => ({ stored: event.output.messages, endings, ...(stopWanted ? { stopWanted } : {}) }) },
    target,
    actions: [{ type: 'takeFound', params: ({ event }: Looked) => ({ stored: event.output.messages }) }, ...(unsettled ? [] : [exchangeSettled])],
  }) as const;

/**
 * What was sent and not found in the stored conversation (or that could not be read) goes back
 * as the connection's loss left it: a new version restores the thread it replaced, anything
 * else the question into the box.
 */
const lostFailure = ({ context }: { context: ChatContext }) => ({ failure: context.outgoing!.lost! });
export const giveBackLost = [
  { guard: 'isRefusedVersion', target: 'settled.idle', actions: { type: 'restoreThread', params: lostFailure } },
  { target: 'settled.idle', actions: { type: 'restoreOutgoing', params: lostFailure } },
] as const;
