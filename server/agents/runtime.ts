import type { StoredFileRef } from '../db/schema';

/**
 * The model an answer is asked of, as the registry resolved it for the question
 * (server/services/model-registry.ts): which provider serves it and what its API calls it.
 */
export type ModelChoice = {
  /** The registry's id: a console model's, `env` or `offline`; recorded on the answer. */
  id: string;
  /** Its display name, recorded on the answer. */
  name: string;
  /** The provider serving it: a console provider's id, `env` or `offline`. */
  providerId: string;
  /** As the provider's API names it: the request's `model`. */
  model: string;
  vision: boolean;
  /** The longest answer it writes, in tokens, when known. */
  maxOutput: number | null;
};

/** Sampling the agent asks for; absent ones are left to the model service's defaults. */
export type ModelParameters = { temperature?: number; topP?: number; maxOutput?: number };

/**
 * What the runtime needs to know about the agent answering: its system prompt, the model its
 * question goes to (absent: the runtime's own), with its parameters; `vision`: that model reads images.
 */
export type RuntimeAgent = {
  id: string;
  name: string;
  systemPrompt: string;
  vision?: boolean;
  model?: ModelChoice;
  parameters?: ModelParameters;
};

/** What became of one attachment on its way to the model, for runtimes that tell the person. */
export type AttachmentNote =
  | { name: string; outcome: 'read'; chars: number; total: number }
  | {
      name: string;
      outcome: 'image-sent' | 'image-shown-earlier' | 'image-unseen' | 'image-too-large' | 'unreadable' | 'over-budget' | 'missing' | 'not-text';
    };

export type HistoryMessage = {
  role: 'user' | 'assistant';
  /** The message as the model reads it: its text, then what is said about each attachment. */
  content: string;
  /** A question's own text and files, before the files are read (see attachment-reading.ts). */
  asked?: { text: string; files: StoredFileRef[] };
  /** Images the model sees with this message, as data URLs. */
  images?: string[];
  notes?: AttachmentNote[];
};

/** What the model service reported an answer cost. */
export type TokenUsage = { promptTokens: number; completionTokens: number };

/** The languages the product speaks; the person's, when known, for answers written by the server. */
export type ResponderLanguage = 'zh-CN' | 'en-US' | 'fr-FR' | 'de-DE' | 'ja';

export type StreamAnswerInput = {
  agent: RuntimeAgent;
  /** The conversation so far, oldest first, ending with the question to answer. */
  history: HistoryMessage[];
  signal: AbortSignal;
  /** The language the person reads the product in (Accept-Language), when it is one of the product's. */
  language?: ResponderLanguage;
  /** Told what the answer cost when the model service reports it (once, near the end). */
  onUsage?: (usage: TokenUsage) => void;
  /**
   * The answer so far, when it is continued (it was cut short): the model goes on from its last
   * character, and only what it adds is produced.
   */
  continuing?: string;
};

/** What the model is told after the answer so far, to go on with it instead of starting again. */
export const CONTINUE_INSTRUCTION =
  'Your previous answer was cut off. Continue it exactly from where it stopped, without repeating anything already written and without any preamble.';

/** The conversation as the model reads it when an answer is continued: the answer so far, then the instruction. */
export const continuedHistory = (history: HistoryMessage[], continuing: string | undefined): HistoryMessage[] =>
  continuing ? [...history, { role: 'assistant', content: continuing }, { role: 'user', content: CONTINUE_INSTRUCTION }] : history;

/** Produces an answer piece by piece; throws an AgentError saying what went wrong, for the server log. */
export interface AgentRuntime {
  readonly label: string;
  streamAnswer(input: StreamAnswerInput): AsyncIterable<string>;
  /**
   * A short title for a conversation from its first question and answer, in the question's
   * language, or null. Optional: a runtime without it (the offline responder) leaves the title
   * the question's first words.
   */
  nameConversation?(input: { question: string; answer: string; signal: AbortSignal; model?: ModelChoice }): Promise<string | null>;
}

/**
 * A failure of the agent. Its message may quote the model service (a key fragment, an internal
 * address): it goes to the log only; the person asking reads a generic sentence and a reference.
 */
export class AgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentError';
  }
}
