import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { TaskListRequest, TaskPage } from '../contract/tasks';
import { operationsOverviewMachine } from './operations-overview.machine';

const emptyPage = (request: TaskListRequest): TaskPage => ({
  list: [],
  total: 25,
  current: request.current ?? 1,
  pageSize: request.pageSize ?? 10,
  counts: { draft: 20, ready: 5, scheduled: 0, publishing: 0, due: 0, published: 0, failed: 0 },
});

describe('the task overview', () => {
  it('starts from the filters in the address, and a new filter goes back to page 1', async () => {
    const requests: TaskListRequest[] = [];
    const filtersChanged = vi.fn();
    const actor = createActor(
      operationsOverviewMachine.provide({
        actors: { fetchTasks: fromPromise(async ({ input }) => (requests.push(input), emptyPage(input))) },
        actions: { filtersChanged: (_, filters) => filtersChanged(filters) },
      }),
      { input: { filters: { status: 'draft', current: 3 } } },
    ).start();
    await waitFor(actor, (state) => state.matches({ list: 'loaded' }));
    expect(requests[0]).toEqual({ current: 3, pageSize: 10, status: 'draft' });

    actor.send({ type: 'filter.platform', platform: 'linkedin' });
    await waitFor(actor, (state) => state.matches({ list: 'loaded' }));
    expect(requests[1]).toEqual({ current: 1, pageSize: 10, status: 'draft', platform: 'linkedin' });
    expect(filtersChanged).toHaveBeenLastCalledWith({ platform: 'linkedin', status: 'draft', keyword: '', current: 1 });

    actor.send({ type: 'search', keyword: '  launch ' });
    await waitFor(actor, (state) => state.matches({ list: 'loaded' }));
    expect(requests[2]).toMatchObject({ keyword: 'launch', current: 1 });
    expect(actor.getSnapshot().context.counts.draft).toBe(20);
  });

  it('shows the failure and loads again on request', async () => {
    let fail = true;
    const actor = createActor(
      operationsOverviewMachine.provide({
        actors: {
          fetchTasks: fromPromise(async ({ input }) => {
            if (fail) throw new Error('offline');
            return emptyPage(input);
          }),
        },
      }),
      { input: {} },
    ).start();
    const failed = await waitFor(actor, (state) => state.matches({ list: 'failed' }));
    expect(failed.context.error).toBe('offline');
    fail = false;
    actor.send({ type: 'reload' });
    await waitFor(actor, (state) => state.matches({ list: 'loaded' }));
  });
});
