import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup } from 'xstate';
import type { ChatEvent, ChatRequest } from '../contract/chat';
import { createChatStreamActor, type ChatStreamReport, type ChatTransport } from './chat-stream.actor';

const request: ChatRequest = { agentId: 'a1', conversationId: 'c1', message: 'Hello' } as ChatRequest;
const start: ChatEvent = { type: 'start', conversationId: 'c1', userMessageId: 'u1', replyMessageId: 'r1' };
const delta = (text: string): ChatEvent => ({ type: 'delta', messageId: 'r1', text });

/** A frame scheduler the test runs by hand: `frame()` flushes what waits for the next frame. */
const manualFrames = () => {
  const waiting: (() => void)[] = [];
  let cancelled = 0;
  const schedule = (flush: () => void) => {
    waiting.push(flush);
    return () => {
      cancelled += 1;
      waiting.splice(waiting.indexOf(flush), 1);
    };
  };
  return { schedule, frame: () => waiting.splice(0).forEach((flush) => flush()), cancelled: () => cancelled, waiting };
};

/** The stream invoked by a parent that keeps every report, in any state (after a stop too). */
const runStream = (transport: ChatTransport, schedule?: Parameters<typeof createChatStreamActor>[1]) => {
  const reports: ChatStreamReport[] = [];
  const parent = createActor(
    setup({ actors: { stream: createChatStreamActor(transport, schedule) } }).createMachine({
      initial: 'streaming',
      on: { '*': { actions: ({ event }) => void reports.push(event as ChatStreamReport) } },
      states: { streaming: { invoke: { src: 'stream', input: request }, on: { stop: 'stopped' } }, stopped: {} },
    }),
  ).start();
  return { reports, stop: () => parent.send({ type: 'stop' }) };
};

/** A transport the test drives: `emit` sends an event, `fail`/`finish` end the request. */
const drivenTransport = () => {
  const driven = {} as { emit: (event: ChatEvent) => void; fail: (error: unknown) => void; finish: () => void; signal: AbortSignal; request: ChatRequest };
  const transport: ChatTransport = (sent, { signal, onEvent }) =>
    new Promise<void>((resolve, reject) => Object.assign(driven, { emit: onEvent, fail: reject, finish: resolve, signal, request: sent }));
  return { transport, driven };
};
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the chat stream actor', () => {
  it('reports the accepted question, then the text once per frame, then the end with the text before it', () => {
    const frames = manualFrames();
    const { transport, driven } = drivenTransport();
    const { reports } = runStream(transport, frames.schedule);
    expect(driven.request).toEqual(request);
    driven.emit(start);
    driven.emit(delta('Hel'));
    driven.emit(delta('lo'));
    expect(reports).toEqual([{ type: 'stream.accepted', conversationId: 'c1', userMessageId: 'u1', replyMessageId: 'r1' }]);
    expect(frames.waiting).toHaveLength(1);
    frames.frame();
    driven.emit(delta(', '));
    driven.emit(delta('world'));
    driven.emit({ type: 'end', messageIds: ['u1', 'r1'] });
    expect(frames.cancelled()).toBe(1);
    expect(reports.slice(1)).toEqual([
      { type: 'stream.delta', text: 'Hello' },
      { type: 'stream.delta', text: ', world' },
      { type: 'stream.ended', messageIds: ['u1', 'r1'] },
    ]);
    frames.frame();
    expect(reports).toHaveLength(4);
  });

  it('turns thousands of deltas arriving within one frame into one update of the answer', () => {
    const frames = manualFrames();
    const { transport, driven } = drivenTransport();
    const { reports } = runStream(transport, frames.schedule);
    driven.emit(start);
    const tokens = Array.from({ length: 5000 }, (_, index) => `t${index} `);
    for (const token of tokens) driven.emit(delta(token));
    expect(frames.waiting).toHaveLength(1);
    frames.frame();
    expect(reports.slice(1)).toEqual([{ type: 'stream.delta', text: tokens.join('') }]);
  });

  it('hands each piece on at once with a scheduler that flushes at once, and keeps no frame to cancel', () => {
    const { transport, driven } = drivenTransport();
    let cancels = 0;
    const { reports } = runStream(transport, (flush) => {
      flush();
      return () => void (cancels += 1);
    });
    driven.emit(delta('a'));
    driven.emit(delta('b'));
    driven.emit({ type: 'end', messageIds: [] });
    expect(reports).toEqual([
      { type: 'stream.delta', text: 'a' },
      { type: 'stream.delta', text: 'b' },
      { type: 'stream.ended', messageIds: [] },
    ]);
    expect(cancels).toBe(0);
  });

  it('ignores the agent error event itself: the failure comes with the rejection that follows', async () => {
    const frames = manualFrames();
    const { transport, driven } = drivenTransport();
    const { reports } = runStream(transport, frames.schedule);
    driven.emit(delta('Part'));
    driven.emit({ type: 'error', msg: 'The agent failed', ref: 'x1' });
    expect(reports).toEqual([]);
    driven.fail(Object.assign(new Error('The agent failed'), { kind: 'agent-error' }));
    await settled();
    expect(frames.cancelled()).toBe(1);
    expect(reports).toEqual([
      { type: 'stream.delta', text: 'Part' },
      { type: 'stream.failed', kind: 'agent-error', message: 'The agent failed' },
    ]);
  });

  it.each<[string, unknown, ChatStreamReport]>([
    ['a quota with its wait', Object.assign(new Error('Too many questions'), { kind: 'rate-limited', retryAfterSeconds: 60 }), { type: 'stream.failed', kind: 'rate-limited', message: 'Too many questions', retryAfterSeconds: 60 }],
    ['a wait that is not a number, without it', Object.assign(new Error('Busy'), { kind: 'rejected', retryAfterSeconds: '60' }), { type: 'stream.failed', kind: 'rejected', message: 'Busy' }],
    ['an error of no known kind, as the network', new Error('Failed to fetch'), { type: 'stream.failed', kind: 'network', message: 'Failed to fetch' }],
    ['something thrown that is not an error, without a message', 'boom', { type: 'stream.failed', kind: 'network', message: '' }],
    ['nothing thrown at all', null, { type: 'stream.failed', kind: 'network', message: '' }],
  ])('reports %s', async (_what, error, expected) => {
    const { transport, driven } = drivenTransport();
    const { reports } = runStream(transport, manualFrames().schedule);
    driven.fail(error);
    await settled();
    expect(reports).toEqual([expected]);
  });

  it('aborts the request when stopped, cancels the frame, and reports nothing after', async () => {
    const frames = manualFrames();
    const { transport, driven } = drivenTransport();
    const { reports, stop } = runStream(transport, frames.schedule);
    driven.emit(delta('Half'));
    stop();
    expect(driven.signal.aborted).toBe(true);
    expect(frames.waiting).toHaveLength(0);
    driven.emit(delta(' more'));
    driven.fail(Object.assign(new Error('aborted'), { kind: 'network' }));
    await settled();
    expect(reports).toEqual([]);
  });

  it('flushes on the next animation frame in a browser, and about 60 times a second without one', async () => {
    vi.useFakeTimers();
    const { transport, driven } = drivenTransport();
    const { reports } = runStream(transport);
    driven.emit(delta('tick'));
    vi.advanceTimersByTime(15);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual([{ type: 'stream.delta', text: 'tick' }]);

    const frames: FrameRequestCallback[] = [];
    const cancelled: number[] = [];
    let handles = 0;
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => (frames.push(callback), (handles += 1)));
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => cancelled.push(handle));
    const browser = drivenTransport();
    const inBrowser = runStream(browser.transport);
    browser.driven.emit(delta('frame'));
    vi.advanceTimersByTime(100);
    expect(inBrowser.reports).toEqual([]);
    frames.shift()!(0);
    expect(inBrowser.reports).toEqual([{ type: 'stream.delta', text: 'frame' }]);
    browser.driven.emit(delta('next'));
    browser.driven.emit({ type: 'end', messageIds: [] });
    expect(cancelled).toEqual([2]);
  });
});
