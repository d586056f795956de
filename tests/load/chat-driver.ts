import type { AgentRuntime } from '../../server/agents/runtime';
import { oneVisitor, type VisitorResult } from './visitor.mjs';

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

/** Runs `count` streams with at most `concurrency` at a time. */
export async function runStreams(baseUrl: string, count: number, concurrency: number): Promise<VisitorResult[]> {
  const results: VisitorResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      results.push(await oneVisitor(baseUrl));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
