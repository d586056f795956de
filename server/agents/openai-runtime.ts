import type { LookupFunction } from 'node:net';
import type { LlmConfig } from '../config';
import { metrics, providerOf } from '../observability/metrics';
import { postToModel, type ModelResponse } from './model-request';
import { AgentError, continuedHistory, type AgentRuntime, type HistoryMessage, type ModelParameters, type StreamAnswerInput, type TokenUsage } from './runtime';

type ChunkChoice = { delta?: { content?: string | null }; finish_reason?: string | null };
type Chunk = { choices?: ChunkChoice[]; error?: { message?: string }; usage?: { prompt_tokens?: number; completion_tokens?: number } | null };

/** A message with images goes as content parts: its text first, then each image as a data URL. */
const toRequestMessage = ({ role, content, images }: HistoryMessage) =>
  images && images.length > 0
    ? { role, content: [{ type: 'text', text: content }, ...images.map((url) => ({ type: 'image_url', image_url: { url } }))] }
    : { role, content };

const usageOf = (usage: Chunk['usage']): TokenUsage | null =>
  usage && Number.isInteger(usage.prompt_tokens) && Number.isInteger(usage.completion_tokens)
    ? { promptTokens: usage.prompt_tokens!, completionTokens: usage.completion_tokens! }
    : null;

/** How the model is asked to name a conversation (its reply is cleaned before it is kept). */
const TITLE_INSTRUCTION =
  'Write a title of 3 to 8 words for this conversation, in the language of the question. Reply with the title alone: no quotes, no final period, no markdown.';
/** Of the question and the answer, this much is sent to name the conversation. */
const TITLE_SOURCE_CHARS = 2000;

/** The agent's sampling as the request's fields; what it does not set is the model service's to choose. */
export const samplingOf = (parameters: ModelParameters | undefined): Record<string, number> => ({
  ...(parameters?.temperature !== undefined ? { temperature: parameters.temperature } : {}),
  ...(parameters?.topP !== undefined ? { top_p: parameters.topP } : {}),
  ...(parameters?.maxOutput !== undefined ? { max_tokens: parameters.maxOutput } : {}),
});

/** An OpenAI-compatible service: `model` is asked when the agent names none; `lookup` resolves its name (server/net/outbound.ts). */
export type ModelEndpoint = LlmConfig & { lookup?: LookupFunction };

/**
 * Streams answers from any OpenAI-compatible `/chat/completions` endpoint: the agent's model
 * (`agent.model.model`, else the endpoint's own), with the agent's system prompt and sampling.
 */
export function createOpenAiRuntime(llm: ModelEndpoint): AgentRuntime {
  const url = `${llm.baseUrl}/chat/completions`;
  const provider = providerOf(llm.baseUrl);
  return {
    label: `OpenAI-compatible model ${llm.model} at ${llm.baseUrl}`,
    async *streamAnswer(input: StreamAnswerInput) {
      try {
        yield* streamFromModel(input);
      } catch (error) {
        // Only the model service's own failures: a reader's Stop or a shutdown is an abort.
        if (error instanceof AgentError) metrics.modelFailed(provider);
        throw error;
      }
    },
    async nameConversation({ question, answer, signal, model }) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
      const body = JSON.stringify({
        model: model?.model ?? llm.model,
        stream: false,
        max_tokens: 30,
        temperature: 0.2,
        messages: [
          { role: 'system', content: TITLE_INSTRUCTION },
          { role: 'user', content: `Question:\n${question.slice(0, TITLE_SOURCE_CHARS)}\n\nAnswer:\n${answer.slice(0, TITLE_SOURCE_CHARS)}` },
        ],
      });
      const response = await postToModel(url, headers, body, signal, llm.timeouts, llm.lookup);
      const text = await response.text();
      if (response.status < 200 || response.status > 299) return null;
      const parsed = JSON.parse(text) as { choices?: Array<{ message?: { content?: string | null } }> };
      return parsed.choices?.[0]?.message?.content ?? null;
    },
  };

  async function* streamFromModel({ agent, history, signal, onUsage, continuing }: StreamAnswerInput) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
    const messages = [
      ...(agent.systemPrompt ? [{ role: 'system', content: agent.systemPrompt }] : []),
      ...continuedHistory(history, continuing).map(toRequestMessage),
    ];
    let response: ModelResponse;
    try {
      // include_usage: the last chunk reports the tokens spent, shown under the answer.
      const body = JSON.stringify({
        model: agent.model?.model ?? llm.model,
        stream: true,
        stream_options: { include_usage: true },
        ...samplingOf(agent.parameters),
        messages,
      });
      const sent = performance.now();
      response = await postToModel(url, headers, body, signal, llm.timeouts, llm.lookup);
      metrics.modelAnswered(provider, sent);
    } catch (error) {
      if (signal.aborted) throw error;
      throw new AgentError(`The model service at ${llm.baseUrl} could not be reached (${(error as Error).message}).`);
    }
    if (response.status < 200 || response.status > 299) {
      const detail = await describeFailure(response);
      throw new AgentError(`The model service answered HTTP ${response.status}${detail ? `: ${detail}` : ''}.`);
    }
    yield* readDeltas(response, signal, onUsage);
  }
}

async function describeFailure(response: ModelResponse): Promise<string> {
  const text = (await response.text().catch(() => '')).trim();
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const message = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (message) return message.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300);
}

/**
 * Parses the SSE body: `data: {json}` lines until `data: [DONE]`. The text of all the complete
 * lines of one network read is handed on as one piece: a model (or a buffering proxy) that sends
 * thousands of tokens at once costs one step downstream, not one per token.
 */
async function* readDeltas(response: ModelResponse, signal: AbortSignal, onUsage?: (usage: TokenUsage) => void): AsyncIterable<string> {
  const pieces = response.body;
  let buffer = '';
  let finished = false;
  /** The stream was read to its end or its `[DONE]`: its connection can serve another call. */
  let whole = false;
  try {
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await pieces.next();
      } catch (error) {
        if (signal.aborted) return;
        throw new AgentError(`The connection to the model service broke (${(error as Error).message}).`);
      }
      const { done, value } = next;
      if (signal.aborted) return;
      if (done) {
        whole = true;
        break;
      }
      buffer += value;
      const read = readLines(buffer);
      buffer = read.rest;
      if (read.usage) onUsage?.(read.usage);
      // The text before a failure or the end in the same read is still part of the answer.
      if (read.text) yield read.text;
      if (read.failure) throw read.failure;
      if (read.finished) finished = true;
      if (read.done) {
        whole = true;
        return;
      }
    }
  } finally {
    await pieces.return?.();
    // A stream left in the middle (a failure, an abort, a reader gone) closes its connection.
    if (whole) response.release();
    else response.close();
  }
  if (!signal.aborted && !finished) throw new AgentError('The model service closed the stream before the answer was complete.');
}

type ReadLines = { text: string; rest: string; finished: boolean; done: boolean; failure: AgentError | null; usage: TokenUsage | null };

/** The text of the complete lines in `buffer`, up to `[DONE]` or a failure; `rest` is the unfinished line. */
function readLines(buffer: string): ReadLines {
  const result: ReadLines = { text: '', rest: '', finished: false, done: false, failure: null, usage: null };
  let start = 0;
  let newline: number;
  while ((newline = buffer.indexOf('\n', start)) >= 0) {
    const line = buffer.slice(start, newline).replace(/\r$/, '');
    start = newline + 1;
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '[DONE]') {
      result.done = true;
      return result;
    }
    if (!data) continue;
    let chunk: Chunk;
    try {
      chunk = JSON.parse(data) as Chunk;
    } catch {
      result.failure = new AgentError('The model service sent a malformed stream.');
      return result;
    }
    if (chunk.error) {
      result.failure = new AgentError(`The model service failed: ${chunk.error.message ?? 'unknown error'}.`);
      return result;
    }
    const usage = usageOf(chunk.usage);
    if (usage) result.usage = usage;
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) result.text += choice.delta.content;
    if (choice?.finish_reason) result.finished = true;
  }
  result.rest = buffer.slice(start);
  return result;
}
