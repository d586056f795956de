import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { TOAST_DURATION_MS, TOAST_REMOVE_DELAY_MS, toastMachine } from '../../../src/machines/toast.machine';
import { renderWithRuntime, type Screen } from '../harness';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * The toast queue on paths generated from the machine that ships: toasts added (two ids),
 * updated, dismissed (by its Close button, by its 5 s running out, or all at once) and removed
 * once the removal delay has passed. Each path is played on the real Toaster (Radix) on fake
 * time; after each step the screen shows exactly what the product's rules say: at most one toast,
 * the newest, with its latest text, and none once dismissed. The machine has no states of its
 * own: a place is what the queue holds. The person's pointer is a DOM event (fireEvent):
 * user-event waits on setTimeout, which is fake here.
 */
type Snapshot = SnapshotFrom<typeof toastMachine>;

const EVENTS: ModelEvent[] = [
  { type: 'toast.add', toast: { id: 'a', title: 'Saved A', description: 'Details of A' } },
  { type: 'toast.add', toast: { id: 'b', title: 'Saved B', description: 'Details of B' } },
  { type: 'toast.update', id: 'a', patch: { title: 'Updated A' } },
  // a shown: its Close button; b shown: its 5 s run out; no id: every toast
  { type: 'toast.dismiss', id: 'a' },
  { type: 'toast.dismiss' },
  { type: 'toast.remove', id: 'a' },
];
const serializeState = (state: Snapshot) => state.context.toasts.map((toast) => `${toast.id}:${toast.open ? 'open' : 'closed'}:${toast.title}`).join(' ') || 'none';
const { paths, transitionCount } = productionPaths(toastMachine, { events: EVENTS, serializeState });

// jsdom has no pointer capture; Radix's swipe handling calls it on every pointer-up
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => undefined;
Element.prototype.releasePointerCapture ??= () => undefined;

type Held = { id: string; title: string; description: string; open: boolean };
type World = {
  view: Screen;
  /** What the queue must hold, by the product's rules. */
  held: Held[];
  /** Dismissed toasts whose removal is due after the removal delay. */
  removalDue: Set<string>;
  last: string;
};

const region = () => screen.getByRole('region', { name: 'Notifications (F8)' });
const toastItems = () => [...region().querySelectorAll('li')];
const toastsActor = (world: World) => world.view.runtime.app.system.get('toasts') as ActorRefFrom<typeof toastMachine>;
const advance = async (ms: number) => {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
};

/** The rules: the newest toast replaces the one shown (limit 1); an update changes the text; a dismissal closes; a removal forgets. */
const RULES: Record<string, (world: World, event: ModelEvent & Record<string, unknown>) => void> = {
  'toast.add': (world, event) => {
    const toast = event.toast as Omit<Held, 'open'>;
    world.held = [{ ...toast, open: true }];
  },
  'toast.update': (world, event) => {
    world.held = world.held.map((toast) => (toast.id === event.id ? { ...toast, ...(event.patch as Partial<Held>) } : toast));
  },
  'toast.dismiss': (world, event) => {
    world.held = world.held.map((toast) => (event.id === undefined || toast.id === event.id ? { ...toast, open: false } : toast));
  },
  'toast.remove': (world, event) => {
    world.held = world.held.filter((toast) => toast.id !== event.id);
  },
};

/** The screen shows the open toast held, with its text and a Close button, and nothing else. */
const check = (world: World) => {
  const open = world.held.filter((toast) => toast.open);
  expect(open.length, `after ${world.last}`).toBeLessThanOrEqual(1);
  const items = toastItems();
  expect(items, `after ${world.last}`).toHaveLength(open.length);
  for (const [index, toast] of open.entries()) {
    expect(items[index]).toHaveAttribute('data-state', 'open');
    expect(within(items[index]!).getByText(toast.title)).toBeVisible();
    expect(within(items[index]!).getByText(toast.description)).toBeVisible();
    expect(within(items[index]!).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  }
  expect(toastsActor(world).getSnapshot().context.toasts.map(({ id, title, open }) => ({ id, title, open }))).toEqual(
    world.held.map(({ id, title, open }) => ({ id, title, open })),
  );
};

const play = async (world: World, event: ModelEvent & Record<string, unknown>) => {
  const toasts = toastsActor(world);
  const shown = world.held.find((toast) => toast.open && toast.id === event.id);
  world.last = describeEvents([event]) + (event.id ? ` ${String(event.id)}` : '');
  if (event.type === 'toast.add') {
    const toast = event.toast as Held;
    act(() => world.view.runtime.toast(toast));
    world.removalDue.delete(toast.id);
  } else if (event.type === 'toast.update') {
    act(() => toasts.send(event as never));
  } else if (event.type === 'toast.dismiss' && shown && event.id === 'a') {
    fireEvent.click(within(toastItems()[0]!).getByRole('button', { name: 'Close' }));
  } else if (event.type === 'toast.dismiss' && event.id === undefined && world.held.some((toast) => toast.open && toast.id === 'b')) {
    // Radix closes a toast nobody touches after its duration
    await advance(TOAST_DURATION_MS);
  } else if (event.type === 'toast.remove' && world.removalDue.has(String(event.id)) && !world.held.some((toast) => toast.open)) {
    // a dismissed toast is removed once the removal delay has passed
    await advance(TOAST_REMOVE_DELAY_MS);
  } else {
    act(() => toasts.send(event as never));
  }
  if (event.type === 'toast.dismiss') for (const toast of world.held) if (event.id === undefined || toast.id === event.id) world.removalDue.add(toast.id);
  if (event.type === 'toast.remove') world.removalDue.delete(String(event.id));
  RULES[event.type]!(world, event);
  check(world);
};

describe('toast queue, paths generated from the production machine', () => {
  let world: World | null = null;

  it('takes every transition from every content of the queue', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => serializeState(step.state))));
    expect([...reached].sort()).toEqual(['a:closed:Saved A', 'a:closed:Updated A', 'a:open:Saved A', 'a:open:Updated A', 'b:closed:Saved B', 'b:open:Saved B', 'none']);
    // 7 contents, 6 events each
    expect(transitionCount).toBe(42);
    for (const event of EVENTS) expect(RULES).toHaveProperty(event.type);
  });

  it.each(paths.map((path) => [path.events.map((event) => `${event.type}${event.id ? ` ${String(event.id)}` : ''}${event.toast ? ` ${(event.toast as Held).id}` : ''}`).join(', '), path] as const))(
    '%s',
    async (_name, path) => {
      const view = await renderWithRuntime(<p>a page</p>);
      // the Toaster's timers (and its clock) run on fake time from here on
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
      onTestFinished(() => {
        vi.useRealTimers();
      });
      world = { view, held: [], removalDue: new Set(), last: 'start' };
      check(world);
      for (const step of path.steps.slice(1)) await play(world, step.event as ModelEvent & Record<string, unknown>);
    },
  );

  it('holds a toast while the pointer rests on it, and closes it 5 s after the pointer leaves', async () => {
    const view = await renderWithRuntime(<p>a page</p>);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    act(() => view.runtime.toast({ id: 'held', title: 'Saved', description: 'Your details were saved' }));
    await advance(TOAST_DURATION_MS - 100);
    fireEvent.pointerEnter(toastItems()[0]!);
    fireEvent.pointerMove(toastItems()[0]!);
    await advance(TOAST_DURATION_MS * 3);
    expect(toastItems()).toHaveLength(1);
    fireEvent.pointerLeave(region());
    await advance(TOAST_DURATION_MS);
    expect(toastItems()).toHaveLength(0);
  });

  it('holds a toast while F8 has put the focus in the notifications', async () => {
    const view = await renderWithRuntime(<p>a page</p>);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    act(() => view.runtime.toast({ id: 'focused', title: 'Saved', description: 'Your details were saved' }));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'F8', code: 'F8' });
    expect(region().querySelector('ol')).toHaveFocus();
    await advance(TOAST_DURATION_MS * 3);
    expect(toastItems()).toHaveLength(1);
  });
});
