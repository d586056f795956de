/** What the runtime needs to know about the agent answering. */
export type RuntimeAgent = { id: string; name: string; systemPrompt: string };

export type HistoryMessage = { role: 'user' | 'assistant'; content: string };

/** The languages the product speaks; the person's, when known, for answers written by the server. */
export type ResponderLanguage = 'zh-CN' | 'en-US' | 'fr-FR' | 'de-DE' | 'ja';

export type StreamAnswerInput = {
  agent: RuntimeAgent;
  /** The conversation so far, oldest first, ending with the question to answer. */
  history: HistoryMessage[];
  signal: AbortSignal;
  /** The language the person reads the product in (Accept-Language), when it is one of the product's. */
  language?: ResponderLanguage;
};

/** Produces an answer piece by piece; throws an AgentError saying what went wrong, for the server log. */
export interface AgentRuntime {
  readonly label: string;
  streamAnswer(input: StreamAnswerInput): AsyncIterable<string>;
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
