import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { editing, start, task } from '../../tests/spa/task-editor-kit';
import type { Task } from '../contract/tasks';
import { REFRESH_MS } from './task-editor.machine';

describe('a task the scheduler may move on', () => {
  const NOW = Date.parse('2026-03-02T09:00:00.000Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();

  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const watch = async (opened: Partial<Task>) => {
    const started = start({ load: async () => task(opened) });
    await editing(started.actor);
    const loads = () => started.calls.filter((call) => call === 'load').length;
    return { ...started, loads };
  };

  it('does not look again before the time set has come, then looks at the next tick', async () => {
    const { loads } = await watch({ status: 'scheduled', scheduledAt: at(REFRESH_MS + 2000) });
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(2);
  });

  it('looks again at the very moment the task is due', async () => {
    const { loads } = await watch({ status: 'scheduled', scheduledAt: at(REFRESH_MS) });
    await vi.advanceTimersByTimeAsync(REFRESH_MS - 1);
    expect(loads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(loads()).toBe(2);
  });

  it('keeps looking again while the task is being published', async () => {
    const { loads } = await watch({ status: 'publishing', scheduledAt: null });
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(2);
    await vi.advanceTimersByTimeAsync(REFRESH_MS);
    expect(loads()).toBe(3);
  });

  it('never looks again at a task the scheduler does not hold', async () => {
    const { loads } = await watch({ status: 'ready' });
    await vi.advanceTimersByTimeAsync(REFRESH_MS * 3);
    expect(loads()).toBe(1);
  });
});
