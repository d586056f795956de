import { randomUUID } from 'node:crypto';
import type { AgentRuntime } from '../../server/agents/runtime';
import { endpoints } from '../../src/contract/endpoints';

/** A quick agent: a few pieces, optionally held open until `hold` resolves. */
export function quickRuntime(options: { pieces?: string[]; hold?: () => Promise<void> } = {}): AgentRuntime & { open: number; maxOpen: number } {
  const runtime = {
    label: 'load',
    open: 0,
    maxOpen: 0,
    async *streamAnswer({ signal }: { signal: AbortSignal }) {
      runtime.open += 1;
      runtime.maxOpen = Math.max(runtime.maxOpen, runtime.open);
      try {
        const pieces = options.pieces ?? ['Load ', 'test ', 'answer.'];
        yield pieces[0]!;
        if (options.hold) await options.hold();
        for (const piece of pieces.slice(1)) {
          if (signal.aborted) return;
          yield piece;
        }
      } finally {
        runtime.open -= 1;
      }
    },
  };
  return runtime;
}

export type StreamResult = { ok: boolean; firstEventMs: number; totalMs: number; error?: string };

/** One visitor: creates a conversation, asks, reads the stream to its end event. */
export async function oneStream(baseUrl: string): Promise<StreamResult> {
  const headers = { 'content-type': 'application/json', 'x-visitor-id': randomUUID() };
  const started = performance.now();
  try {
    const created = await fetch(`${baseUrl}${endpoints.conversationCreate.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ sourceId: 'SpecialNoAgentFallback' }),
    });
    const conversationId = ((await created.json()) as { data: { conversationId: string } }).data.conversationId;
    const asked = performance.now();
    const response = await fetch(`${baseUrl}${endpoints.chat.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'How fast is this?' }),
    });
    if (response.status !== 200 || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      return { ok: false, firstEventMs: NaN, totalMs: performance.now() - started, error: `HTTP ${response.status}` };
    }
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let firstEventMs = NaN;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (Number.isNaN(firstEventMs) && text.includes('data: ')) firstEventMs = performance.now() - asked;
    }
    const ended = text.includes('"type":"end"');
    return { ok: ended, firstEventMs, totalMs: performance.now() - started, ...(ended ? {} : { error: 'no end event' }) };
  } catch (error) {
    return { ok: false, firstEventMs: NaN, totalMs: performance.now() - started, error: String(error) };
  }
}

/** Runs `count` streams with at most `concurrency` at a time. */
export async function runStreams(baseUrl: string, count: number, concurrency: number): Promise<StreamResult[]> {
  const results: StreamResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      results.push(await oneStream(baseUrl));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export const percentile = (values: number[], p: number): number => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
