import type { TokenUsage } from '../agents/runtime';
/**
 * Answers being written right now, which any number of readers follow. An answer belongs to no
 * request: the request that asked for it, a resume after a reload, a second tab, all read the same
 * answer from wherever they start. This registry is the one place that knows which answers run
 * and tells their readers what happens; it is kept behind this small interface so that another
 * kind (answers of every instance, over PostgreSQL LISTEN/NOTIFY) can take its place.
 */

/** How an answer ended. `incomplete`: stopped by a person, a cap or a retry, with the text sent. */
export type AnswerOutcome =
  | { status: 'complete'; usage?: TokenUsage }
  | { status: 'incomplete' }
  | { status: 'failed'; msg: string; ref: string };

/** What a reader is told, in order: pieces of text, then once how the answer ended. */
export type AnswerUpdate = { type: 'delta'; text: string } | { type: 'settled'; outcome: AnswerOutcome };

export type AnswerReader = (update: AnswerUpdate) => void;

export type LiveAnswer = {
  readonly messageId: string;
  readonly questionId: string;
  readonly conversationId: string;
  /** Whose answer this is (`user:<id>` or `visitor:<id>`); readers and Stop must be the same owner. */
  readonly owner: string;
  /** The text readers were given so far, and how the answer ended once it has. */
  read(): { text: string; outcome: AnswerOutcome | null };
  /**
   * Hands the text from `offset` and every later update to `reader`, in order, with nothing lost
   * between the two: the text so far is read and the reader added in one step. Returns the offset
   * actually used (never past the text) and a way to stop reading.
   */
  follow(offset: number, reader: AnswerReader): { offset: number; unfollow: () => void };
  /** Stops the answer where it is; resolves once it is stored, with the stored text. */
  stop(): Promise<string>;
  /** Resolves once the answer is stored, however it ended. */
  readonly stored: Promise<void>;
};

export interface LiveAnswers {
  /** The running answer with this message id, if it runs here. */
  find(messageId: string): LiveAnswer | undefined;
  /** The running answer to this question, if it runs here. */
  findByQuestion(questionId: string): LiveAnswer | undefined;
  add(answer: LiveAnswer): void;
  remove(answer: LiveAnswer): void;
}

/** The answers this process writes. */
export function localLiveAnswers(): LiveAnswers {
  const byMessage = new Map<string, LiveAnswer>();
  return {
    find: (messageId) => byMessage.get(messageId),
    findByQuestion: (questionId) => [...byMessage.values()].find((answer) => answer.questionId === questionId),
    add: (answer) => void byMessage.set(answer.messageId, answer),
    remove: (answer) => {
      if (byMessage.get(answer.messageId) === answer) byMessage.delete(answer.messageId);
    },
  };
}
