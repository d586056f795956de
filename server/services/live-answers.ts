import type { TokenUsage } from '../agents/runtime';
/**
 * Answers being written right now, which any number of readers follow. An answer belongs to no
 * request: the request that asked for it, a resume after a reload, a second tab, all read the same
 * answer from wherever they start. This registry is the one place that knows which answers run
 * and tells their readers what happens. With the embedded database it holds the answers of this
 * process; with PostgreSQL (`pgLiveAnswers`) it also reaches answers written by other instances.
 */

/** How an answer ended. `incomplete`: stopped by a person, a cap or a retry, with the text sent. */
export type AnswerOutcome =
  | { status: 'complete'; usage?: TokenUsage }
  | { status: 'incomplete' }
  | { status: 'failed'; msg: string; ref: string };

/** What a reader is told, in order: pieces of text, then once how the answer ended. */
export type AnswerUpdate = { type: 'delta'; text: string } | { type: 'settled'; outcome: AnswerOutcome };

export type AnswerReader = (update: AnswerUpdate) => void;

export type Following = { offset: number; unfollow: () => void };

export type LiveAnswer = {
  readonly messageId: string;
  readonly questionId: string;
  readonly conversationId: string;
  /** Whose answer this is (`user:<id>` or `visitor:<id>`); readers and Stop must be the same owner. */
  readonly owner: string;
  /**
   * Hands the text from `offset` and every later update to `reader`, in order, with nothing lost
   * or doubled between the two. Resolves with the offset actually used (never past the text) and
   * a way to stop reading; the reader may be called before it resolves.
   */
  follow(offset: number, reader: AnswerReader): Promise<Following>;
  /** Stops the answer where it is, wherever it is written; resolves once it is stored. */
  stop(): Promise<void>;
};

/** An answer written by this process. */
export type LocalAnswer = LiveAnswer & {
  /** The text readers were given so far, and how the answer ended once it has. */
  read(): { text: string; outcome: AnswerOutcome | null };
  /** The same as `follow`, in one step, for readers in this process. */
  followNow(offset: number, reader: AnswerReader): Following;
  /** Resolves once the answer is stored, however it ended. */
  readonly stored: Promise<void>;
  /**
   * Another instance holds this answer now (its lease lapsed while this one was paused or cut
   * off, and it was taken over): nothing more of it is shown or written from here.
   */
  fenced(): void;
};

export interface LiveAnswers {
  /** The running answer with this message id, wherever it is written. */
  find(messageId: string): Promise<LiveAnswer | undefined>;
  /** The running answer to this question, wherever it is written. */
  findByQuestion(questionId: string): Promise<LiveAnswer | undefined>;
  add(answer: LocalAnswer): void;
  remove(answer: LocalAnswer): void;
  /** What happened to an answer written here (a delta starting at `offset`), for readers elsewhere. */
  tell(answer: LocalAnswer, update: AnswerUpdate, offset: number): void;
  /**
   * Stores incomplete, with their saved text, the answers whose writer is gone: those whose lease
   * expired, or with `everyOther`, every answer not written by this instance (an instance that
   * owns the database alone). Answers how many.
   */
  sweep(options?: { everyOther?: boolean }): Promise<number>;
  /**
   * Hands each answer this instance takes over from a writer that was gone (not one stopped by a
   * person) to `continuer`, which may write it on (CONTINUE_TAKEN_OVER): from now on, and those
   * taken over before this was called (at start). Readers elsewhere are then told of the
   * continuation instead of the takeover.
   */
  continueWith(continuer: Continuer): void;
  close(): Promise<void>;
}

/** Writes on an answer just taken over, when it should be; answers the answer being written. */
export type Continuer = (messageId: string) => Promise<LocalAnswer | undefined>;

/**
 * The answers taken over before a continuer was given wait for it; after, each goes to it at
 * once. Answers those being written again.
 */
export function takenOverAnswers() {
  let continuer: Continuer | null = null;
  const waiting: string[] = [];
  return {
    set(next: Continuer) {
      continuer = next;
      for (const messageId of waiting.splice(0)) void next(messageId).catch(() => undefined);
    },
    async hand(ids: string[]): Promise<Map<string, LocalAnswer>> {
      const continued = new Map<string, LocalAnswer>();
      for (const messageId of ids) {
        if (!continuer) {
          waiting.push(messageId);
          continue;
        }
        const answer = await continuer(messageId).catch(() => undefined);
        if (answer) continued.set(messageId, answer);
      }
      return continued;
    },
  };
}

/**
 * The answers this process writes: the registry of the embedded database, one process alone.
 * `takeOver` stores incomplete the answers whose writer is gone (see `sweep`), answering their ids.
 */
export function localLiveAnswers(takeOver: (options: { everyOther?: boolean }) => Promise<string[]> = async () => []): LiveAnswers {
  const byMessage = new Map<string, LocalAnswer>();
  const taken = takenOverAnswers();
  return {
    find: async (messageId) => byMessage.get(messageId),
    findByQuestion: async (questionId) => [...byMessage.values()].find((answer) => answer.questionId === questionId),
    add: (answer) => void byMessage.set(answer.messageId, answer),
    remove: (answer) => {
      if (byMessage.get(answer.messageId) === answer) byMessage.delete(answer.messageId);
    },
    tell: () => {},
    async sweep(options = {}) {
      const ids = await takeOver(options);
      await taken.hand(ids);
      return ids.length;
    },
    continueWith: (continuer) => taken.set(continuer),
    close: async () => {},
  };
}
