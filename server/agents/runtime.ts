/** What the runtime needs to know about the agent answering. */
export type RuntimeAgent = { id: string; name: string; systemPrompt: string };

export type HistoryMessage = { role: 'user' | 'assistant'; content: string };

export type StreamAnswerInput = {
  agent: RuntimeAgent;
  /** The conversation so far, oldest first, ending with the question to answer. */
  history: HistoryMessage[];
  signal: AbortSignal;
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
