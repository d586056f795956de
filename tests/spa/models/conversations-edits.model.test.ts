import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { Conversation } from '../../../src/contract/conversations';
import type { Page } from '../../../src/contract/paging';
import { conversationsMachine, HISTORY_PAGE_SIZE, reportingActor, UNDO_DELETE_MS, type ConversationPatch } from '../../../src/machines/conversations.machine';
import { productionPaths, type ModelEvent } from './production-paths';

/**
 * The history's own edits (open, rename, pin, delete, undo, the undo window closing) as paths
 * generated from the machine that ships, played on it as an actor whose server calls are stubs:
 * the server accepts every change to chat "a" and refuses every change to chat "b". After each
 * step the list, the calls sent and what was announced are checked against rules written from
 * the product: a change shows at once and goes back if refused, with a message; pinned chats come
 * first, then the newest; a deleted chat hides at once, comes back in its place on undo, and is
 * deleted on the server only when its undo window closes; deleting the open chat leaves it.
 */
type Snapshot = SnapshotFrom<typeof conversationsMachine>;
type AnyEvent = ModelEvent & { [key: string]: unknown };

const chat = (id: string, at: string): Conversation => ({
  conversationId: id,
  source: 'agent',
  sourceId: 'agent',
  title: `Chat ${id}`,
  pinned: false,
  createdAt: at,
  updatedAt: at,
});
const A = { ...chat('a', '2025-01-01T00:00:00Z'), updatedAt: '2025-01-03T00:00:00Z' };
/** Updated at the same time as "a" but created after it: the newer chat comes first. */
const B = { ...chat('b', '2025-01-02T00:00:00Z'), updatedAt: A.updatedAt };
const PAGE: Page<Conversation> = { list: [B, A], total: 2, current: 1, pageSize: HISTORY_PAGE_SIZE };
/** The time the server gives a chat it saved. */
const SAVED_AT = '2025-01-05T00:00:00Z';
const NEW_TITLE = 'Sourdough starter';
const REFUSED = 'b';

const E = {
  firstPage: { type: 'xstate.done.actor.0.conversations.loading', output: PAGE },
  openA: { type: 'route.changed', market: false, conversationId: 'a' },
  commitTitle: { type: 'rename.commit', title: `  ${NEW_TITLE} ` },
  commitBlank: { type: 'rename.commit', title: '   ' },
  cancelRename: { type: 'rename.cancel' },
} satisfies Record<string, AnyEvent>;

const ids = (items: Conversation[]) => items.map((item) => item.conversationId);
const pendingIds = (state: Snapshot) => state.context.pendingDeletes.map((entry) => entry.conversation.conversationId);

/** What people can do with the list shown; the undo window that closes first is the oldest's. */
const eventsFor = (state: Snapshot): AnyEvent[] => {
  if (state.matches('loading')) return [E.firstPage];
  if (!state.matches('ready')) return [];
  const { activeId, editingId, items } = state.context;
  const shown = ids(items);
  const pending = pendingIds(state);
  const events: AnyEvent[] = [];
  if (!activeId && shown.includes('a')) events.push(E.openA);
  const editing = items.find((item) => item.conversationId === editingId);
  if (editing) events.push(E.commitTitle, E.commitBlank, { type: 'rename.commit', title: editing.title }, E.cancelRename);
  else for (const id of shown) events.push({ type: 'rename.start', conversationId: id });
  for (const id of shown) events.push({ type: 'pin.toggle', conversationId: id }, { type: 'delete', conversationId: id });
  for (const id of pending) events.push({ type: 'delete.undo', conversationId: id });
  if (pending[0]) events.push({ type: 'delete.commit', conversationId: pending[0] });
  return events;
};

const serializeState = (state: Snapshot) =>
  [String(state.value), [...ids(state.context.items)].sort().join(','), pendingIds(state).join(','), state.context.editingId ?? '-', state.context.activeId ?? '-'].join(' ');

/** "delete a, undo a": a path's events with the chat each one is about. */
const nameOf = (events: AnyEvent[]) =>
  events
    .map((event) => {
      if (event.type.startsWith('xstate.done.actor.')) return 'first page';
      const about = event.conversationId ?? (typeof event.title === 'string' ? JSON.stringify(event.title.trim()) : '');
      return `${event.type.replace('.', ' ')} ${about}`.trim();
    })
    .join(', ');

const { paths, transitionCount } = productionPaths(conversationsMachine, { events: eventsFor, input: {}, serializeState });
console.log(`Chat history edits (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

type World = {
  actor: ReturnType<typeof start>['actor'];
  spies: ReturnType<typeof start>['spies'];
  answerFirstPage: ReturnType<typeof start>['answerFirstPage'];
  last: string;
  expected: string;
  /** The list as the rules say it shows, in its order. */
  rows: Conversation[];
  total: number;
  pending: string[];
  deletedAt: Map<string, number>;
  editing: string | null;
  active: string | null;
  saves: ConversationPatch[];
  deletes: string[];
  announced: { deleted: number; failures: number; withdrawn: number; left: number };
};

const EXPECTED_AFTER: Record<string, string> = {
  'opened the history': 'loading',
  'server sent the first page': 'ready',
  'opened a chat': 'ready',
  'started renaming a chat': 'ready',
  'renamed a chat': 'ready',
  'left the title blank or unchanged': 'ready',
  'cancelled a rename': 'ready',
  'pinned or unpinned a chat': 'ready',
  'deleted a chat': 'ready',
  'undid a delete': 'ready',
  'the undo window closed': 'ready',
};

const happened = (world: World, what: string) => {
  expect(EXPECTED_AFTER[what], `no rule for "${what}"`).toBeDefined();
  world.last = what;
  world.expected = EXPECTED_AFTER[what]!;
};

const start = () => {
  let answerFirstPage: (page: Page<Conversation>) => void = () => undefined;
  const save = vi.fn(async ({ patch, previous }: { patch: ConversationPatch; previous: Conversation }) => {
    if (patch.conversationId === REFUSED) throw new Error('read-only');
    return { ...previous, ...patch, updatedAt: SAVED_AT };
  });
  const remove = vi.fn(async ({ conversation }: { conversation: Conversation }) => {
    if (conversation.conversationId === REFUSED) throw new Error('read-only');
    return null;
  });
  const spies = {
    save,
    remove,
    announceDeleted: vi.fn(),
    announceFailure: vi.fn(),
    withdrawUndo: vi.fn(),
    leaveConversation: vi.fn(),
  };
  const actor = createActor(
    conversationsMachine.provide({
      actors: {
        fetchPage: fromPromise(() => new Promise<Page<Conversation>>((resolve) => (answerFirstPage = resolve))),
        saveConversation: reportingActor(save, (input) => input.previous, (input) => input.patch.conversationId),
        deleteConversation: reportingActor(remove, (input) => input.conversation, (input) => input.conversation.conversationId),
      },
      actions: {
        storeCache: () => undefined,
        announceDeleted: spies.announceDeleted,
        announceFailure: spies.announceFailure,
        withdrawUndo: spies.withdrawUndo,
        leaveConversation: spies.leaveConversation,
      },
    }),
    { input: {} },
  );
  actor.start();
  return { actor, spies, answerFirstPage: (page: Page<Conversation>) => answerFirstPage(page) };
};

/** Pinned first, then the newest update, then the newest chat. */
const inListOrder = (rows: Conversation[]) =>
  [...rows].sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt.localeCompare(a.updatedAt) || b.createdAt.localeCompare(a.createdAt));

const row = (world: World, id: string) => {
  const found = world.rows.find((item) => item.conversationId === id);
  expect(found, `chat ${id} is shown`).toBeDefined();
  return found!;
};

/** A change shows at once; the server saves it (a newer update time) or refuses it (it goes back, said). */
const change = (world: World, id: string, patch: Omit<ConversationPatch, 'conversationId'>) => {
  world.saves.push({ conversationId: id, ...patch });
  if (id === REFUSED) {
    world.announced.failures += 1;
    return;
  }
  world.rows = inListOrder(world.rows.map((item) => (item.conversationId === id ? { ...item, ...patch, updatedAt: SAVED_AT } : item)));
};

const settle = () => vi.advanceTimersByTimeAsync(0);
const send = async (world: World, event: AnyEvent) => {
  world.actor.send(event as never);
  await settle();
};

const play: Record<string, (world: World, event: AnyEvent) => Promise<void>> = {
  'xstate.done.actor.0.conversations.loading': async (world) => {
    happened(world, 'server sent the first page');
    world.rows = [B, A];
    world.total = 2;
    world.answerFirstPage(PAGE);
    await settle();
  },
  'route.changed': async (world, event) => {
    happened(world, 'opened a chat');
    world.active = event.conversationId as string;
    await send(world, event);
  },
  'rename.start': async (world, event) => {
    happened(world, 'started renaming a chat');
    world.editing = event.conversationId as string;
    await send(world, event);
  },
  'rename.cancel': async (world, event) => {
    happened(world, 'cancelled a rename');
    world.editing = null;
    await send(world, event);
  },
  'rename.commit': async (world, event) => {
    const id = world.editing!;
    const title = (event.title as string).trim();
    world.editing = null;
    if (title && title !== row(world, id).title) {
      happened(world, 'renamed a chat');
      change(world, id, { title });
    } else {
      happened(world, 'left the title blank or unchanged');
    }
    await send(world, event);
  },
  'pin.toggle': async (world, event) => {
    happened(world, 'pinned or unpinned a chat');
    const id = event.conversationId as string;
    change(world, id, { pinned: !row(world, id).pinned });
    await send(world, event);
  },
  delete: async (world, event) => {
    happened(world, 'deleted a chat');
    const id = event.conversationId as string;
    row(world, id);
    world.rows = world.rows.filter((item) => item.conversationId !== id);
    world.total -= 1;
    world.pending.push(id);
    world.deletedAt.set(id, Date.now());
    world.announced.deleted += 1;
    if (world.editing === id) world.editing = null;
    if (world.active === id) world.announced.left += 1;
    world.actor.send(event as never);
    // the next deletion's undo window ends later than this one's
    await vi.advanceTimersByTimeAsync(1);
  },
  'delete.undo': async (world, event) => {
    happened(world, 'undid a delete');
    const id = event.conversationId as string;
    world.pending = world.pending.filter((pending) => pending !== id);
    world.rows = inListOrder([...world.rows, world.actor.getSnapshot().context.pendingDeletes.find((entry) => entry.conversation.conversationId === id)!.conversation]);
    world.total += 1;
    await send(world, event);
  },
  // Nobody sends this: the undo window of the oldest deletion closes.
  'delete.commit': async (world, event) => {
    happened(world, 'the undo window closed');
    const id = event.conversationId as string;
    const hidden = world.actor.getSnapshot().context.pendingDeletes.find((entry) => entry.conversation.conversationId === id)!.conversation;
    expect(world.pending[0]).toBe(id);
    world.pending.shift();
    world.announced.withdrawn += 1;
    world.deletes.push(id);
    if (id === REFUSED) {
      world.rows = inListOrder([...world.rows, hidden]);
      world.total += 1;
      world.announced.failures += 1;
    }
    const closesIn = world.deletedAt.get(id)! + UNDO_DELETE_MS - Date.now();
    // nothing is deleted a moment before the window closes
    await vi.advanceTimersByTimeAsync(closesIn - 1);
    expect(world.spies.remove).toHaveBeenCalledTimes(world.deletes.length - 1);
    await vi.advanceTimersByTimeAsync(1);
  },
};

const checkHistory = (world: World, state: Snapshot) => {
  expect(world.expected, `after ${world.last}`).toBe(String(state.value));
  const { context, value } = world.actor.getSnapshot();
  expect(value, `after ${world.last}`).toEqual(state.value);
  expect(context.items, `the list after ${world.last}`).toEqual(world.rows);
  expect(context.total).toBe(world.total);
  expect(context.pendingDeletes.map((entry) => entry.conversation.conversationId)).toEqual(world.pending);
  expect(context.editingId).toBe(world.editing);
  expect(context.activeId).toBe(world.active);
  const { spies } = world;
  expect(spies.save.mock.calls.map(([input]) => input.patch)).toEqual(world.saves);
  expect(spies.remove.mock.calls.map(([input]) => input.conversation.conversationId)).toEqual(world.deletes);
  expect(spies.announceDeleted).toHaveBeenCalledTimes(world.announced.deleted);
  expect(spies.announceFailure).toHaveBeenCalledTimes(world.announced.failures);
  expect(spies.withdrawUndo).toHaveBeenCalledTimes(world.announced.withdrawn);
  expect(spies.leaveConversation).toHaveBeenCalledTimes(world.announced.left);
};

const params = (world: () => World): TestParam<Snapshot, AnyEvent> => ({
  states: {
    loading: (state) => checkHistory(world(), state),
    ready: (state) => checkHistory(world(), state),
  },
  events: Object.fromEntries(Object.entries(play).map(([type, run]) => [type, ({ event }: { event: AnyEvent }) => run(world(), event)])),
});

afterEach(() => {
  vi.useRealTimers();
});

describe('chat history edits, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('takes every edit in every combination of open, renaming and waiting deletions', () => {
    const taken = new Set(paths.map((path) => path.events.at(-1)!.type));
    expect([...taken].sort()).toEqual(Object.keys(play).sort());
    expect(transitionCount).toBe(paths.length);
    expect(transitionCount).toBe(160);
  });

  it.each(paths.map((path) => [nameOf(path.events), path] as const))('%s', async (_description, path) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { actor, spies, answerFirstPage } = start();
    world = {
      actor,
      spies,
      answerFirstPage,
      last: 'opened the history',
      expected: 'loading',
      rows: [],
      total: 0,
      pending: [],
      deletedAt: new Map(),
      editing: null,
      active: null,
      saves: [],
      deletes: [],
      announced: { deleted: 0, failures: 0, withdrawn: 0, left: 0 },
    };
    await path.test(testParams);
    actor.stop();
  });
});
