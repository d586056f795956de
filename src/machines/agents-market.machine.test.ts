import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Agent } from '../contract/agents';
import { agentsMarketMachine, MARKET_SEARCH_DEBOUNCE_MS, type MarketFetchInput } from './agents-market.machine';

const agent = (index: number): Agent => ({
  id: `a${index}`,
  agentId: `a${index}`,
  name: `Agent ${index}`,
  avatar: '',
  intro: '',
  createBy: 'c',
  createByName: 'Creator',
  updateBy: 'c',
  updateByName: 'Creator',
  versionId: 'v1',
  companyId: 'co',
  public: true,
  published: true,
  isDraft: false,
});

const ALL = Array.from({ length: 25 }, (_, index) => agent(index));

const setupMarket = (fetch: (input: MarketFetchInput) => Promise<{ list: Agent[]; total: number; current: number; pageSize: number }>) => {
  const fetchPage = vi.fn(fetch);
  const startChat = vi.fn();
  const actor = createActor(agentsMarketMachine.provide({ actors: { fetchPage: fromPromise(({ input }) => fetchPage(input)) }, actions: { startChat } }));
  actor.start();
  return { actor, fetchPage, startChat };
};

const serve = async ({ current, pageSize, keyword }: MarketFetchInput) => {
  const matching = ALL.filter((item) => item.name.includes(keyword));
  return { list: matching.slice((current - 1) * pageSize, current * pageSize), total: matching.length, current, pageSize };
};

afterEach(() => {
  vi.useRealTimers();
});

describe('the agents market machine', () => {
  it('pages through the list ten at a time and stops at the end', async () => {
    const { actor, fetchPage } = setupMarket(serve);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    for (const expected of [20, 25]) {
      actor.send({ type: 'loadMore' });
      await vi.waitFor(() => expect(actor.getSnapshot().context.items).toHaveLength(expected));
    }
    actor.send({ type: 'loadMore' });
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    expect(fetchPage.mock.calls.map(([input]) => input.current)).toEqual([1, 2, 3]);
  });

  it('asks once for a keyword typed quickly, from the first page', async () => {
    vi.useFakeTimers();
    const { actor, fetchPage } = setupMarket(serve);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    for (const keyword of ['A', 'Ag', 'Agent 2']) actor.send({ type: 'search', keyword });
    vi.advanceTimersByTime(MARKET_SEARCH_DEBOUNCE_MS - 1);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage).toHaveBeenLastCalledWith({ current: 1, pageSize: 10, keyword: 'Agent 2', category: null });
    expect(actor.getSnapshot().context.items.map((item) => item.name)).toEqual(['Agent 2', 'Agent 20', 'Agent 21', 'Agent 22', 'Agent 23', 'Agent 24']);
  });

  it('keeps the list when the next page fails, and tries that page again on retry', async () => {
    let failNext = false;
    const { actor } = setupMarket(async (input) => {
      if (failNext) {
        failNext = false;
        throw new Error('offline');
      }
      return serve(input);
    });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    failNext = true;
    actor.send({ type: 'loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('moreFailed')).toBe(true));
    expect(actor.getSnapshot().context.items).toHaveLength(10);
    expect(actor.getSnapshot().context.error).toBe('offline');
    actor.send({ type: 'loadMore' });
    expect(actor.getSnapshot().matches('moreFailed')).toBe(true);
    actor.send({ type: 'retry' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.items).toHaveLength(20));
  });

  it('lists an agent once when the list moved between two pages and the next page repeats it', async () => {
    // A newly published agent pushed the list down by one: page 2 starts with page 1's last agent.
    const { actor } = setupMarket(async ({ current, pageSize }) => {
      const start = current === 1 ? 0 : (current - 1) * pageSize - 1;
      return { list: ALL.slice(start, start + pageSize), total: ALL.length, current, pageSize };
    });
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'loadMore' });
    await vi.waitFor(() => expect(actor.getSnapshot().context.page).toBe(2));
    const ids = actor.getSnapshot().context.items.map((item) => item.agentId);
    expect(ids).toEqual(ALL.slice(0, 19).map((item) => item.agentId));
  });

  it('opens an agent’s detail and starts a chat with it', async () => {
    const { actor, startChat } = setupMarket(serve);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('ready')).toBe(true));
    actor.send({ type: 'agent.open', agentId: 'a3' });
    expect(actor.getSnapshot().context.selected?.name).toBe('Agent 3');
    actor.send({ type: 'agent.start', agentId: 'a3' });
    expect(startChat).toHaveBeenCalledWith(expect.anything(), { agentId: 'a3' });
    expect(actor.getSnapshot().context.selected).toBeNull();
  });
});
