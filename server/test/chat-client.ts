import * as v from 'valibot';
import { chatEventSchema, type ChatEvent } from '../../src/contract/chat';
import { AgentError, type AgentRuntime } from '../agents/runtime';
import type { TestApp } from './harness';

/**
 * A model the test speaks for: each piece it is given is the next piece of the answer, and the
 * answer ends (or fails) when the test says. Each question gets its own answer, in order.
 */
export function puppetRuntime() {
  type Item = { text: string } | { end: true } | { fail: true };
  const queue: Item[] = [];
  let wake: (() => void) | null = null;
  const push = (item: Item) => {
    queue.push(item);
    wake?.();
  };
  let asked = 0;
  const runtime: AgentRuntime = {
    label: 'puppet',
    async *streamAnswer(input) {
      asked += 1;
      for (;;) {
        while (queue.length === 0) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            input.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          if (input.signal.aborted) return;
        }
        const item = queue.shift()!;
        if ('end' in item) return;
        if ('fail' in item) throw new AgentError('The model service answered HTTP 503: overloaded.');
        yield item.text;
      }
    },
  };
  return {
    runtime,
    say: (text: string) => push({ text }),
    end: () => push({ end: true }),
    fail: () => push({ fail: true }),
    asked: () => asked,
  };
}

/** Reads an event stream as it comes, as a browser would. */
export function eventReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: ChatEvent[] = [];
  let buffer = '';
  let closed = false;
  const readMore = async (): Promise<boolean> => {
    if (closed) return false;
    const { value, done } = await reader.read();
    if (done) {
      closed = true;
      return false;
    }
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop()!;
    for (const block of blocks) {
      for (const line of block.split('\n')) {
        if (line.startsWith('data: ')) events.push(v.parse(chatEventSchema, JSON.parse(line.slice(6))));
      }
    }
    return true;
  };
  return {
    events,
    /** The text the reader was given. */
    text: () => events.map((event) => (event.type === 'delta' ? event.text : '')).join(''),
    async until(ok: (events: ChatEvent[]) => boolean): Promise<ChatEvent[]> {
      while (!ok(events)) {
        if (!(await readMore())) throw new Error(`the stream closed first, after ${JSON.stringify(events)}`);
      }
      return events;
    },
    async untilText(text: string) {
      while (!this.text().includes(text)) {
        if (!(await readMore())) throw new Error(`the stream closed first, after ${JSON.stringify(events)}`);
      }
    },
    /** Everything up to the close. */
    async rest(): Promise<ChatEvent[]> {
      while (await readMore());
      return events;
    },
    cancel: () => reader.cancel(),
  };
}

export const postJson = (t: TestApp, path: string, headers: Record<string, string>, body: unknown) =>
  t.raw(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Polls the stored state until it is as wanted (the server stores in the background). */
export async function waitFor<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 250; i++) {
    const value = await read();
    if (ok(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('condition not reached');
}
