/** What the runtime needs to know about the agent answering. */
export type RuntimeAgent = { id: string; name: string; systemPrompt: string };

export type HistoryMessage = { role: 'user' | 'assistant'; content: string };

export type StreamAnswerInput = {
  agent: RuntimeAgent;
  /** The conversation so far, oldest first, ending with the question to answer. */
  history: HistoryMessage[];
  signal: AbortSignal;
};

/** Produces an answer piece by piece; throws an AgentError with a message for a person. */
export interface AgentRuntime {
  readonly label: string;
  streamAnswer(input: StreamAnswerInput): AsyncIterable<string>;
}

/** A failure of the agent whose message can be shown to the person asking. */
export class AgentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentError';
  }
}
