import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deltaBatcher } from './delta-batcher';

/** A socket whose writes finish only when the test says so. */
const slowSocket = () => {
  const sent: string[] = [];
  const finish: (() => void)[] = [];
  const send = (text: string) => {
    sent.push(text);
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  return { sent, send, finishWrite: async () => {
    finish.shift()?.();
    await Promise.resolve();
    await Promise.resolve();
  } };
};

describe('delta batcher', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('sends the pieces of a few milliseconds as one event', () => {
    const socket = slowSocket();
    const batcher = deltaBatcher(socket.send, 8);
    for (const piece of ['a', 'b', 'c']) batcher.add(piece);
    expect(socket.sent).toEqual([]);
    vi.advanceTimersByTime(8);
    expect(socket.sent).toEqual(['abc']);
  });

  it('holds text while the socket is busy, then sends all of it at once, in order', async () => {
    const socket = slowSocket();
    const batcher = deltaBatcher(socket.send, 8);
    batcher.add('one ');
    vi.advanceTimersByTime(8);
    for (let index = 0; index < 1000; index += 1) batcher.add(`${index} `);
    vi.advanceTimersByTime(1000);
    expect(socket.sent).toEqual(['one ']);
    await socket.finishWrite();
    expect(socket.sent).toEqual(['one ', Array.from({ length: 1000 }, (_, index) => `${index} `).join('')]);
  });

  it('flushes what waits at once when asked, before the caller sends anything else', () => {
    const socket = slowSocket();
    const batcher = deltaBatcher(socket.send, 8);
    batcher.add('last words');
    batcher.flush();
    expect(socket.sent).toEqual(['last words']);
    vi.advanceTimersByTime(100);
    expect(socket.sent).toEqual(['last words']);
  });
});
