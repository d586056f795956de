import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { createMachine, type ActorRefFrom, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { TOAST_DURATION_MS, type toastMachine } from '../../../src/machines/toast.machine';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * The toast queue as a person sees it: a toast appears (only the newest, one at a time), can be
 * updated, closed with its button, or closes by itself after 5 s, unless the pointer rests on it
 * or F8 has put the focus in the notifications. No after: the real Toaster (Radix) keeps time on
 * fake timers and the model only says what must be on screen after each step. The person's
 * pointer and keys are DOM events (fireEvent): user-event and Testing Library's async helpers
 * wait on setTimeout, which is fake here.
 */
const toastQueue = createMachine({
  id: 'toastQueue',
  types: {} as {
    events:
      | { type: 'ADD' }
      | { type: 'ADD_NEWER' }
      | { type: 'UPDATE' }
      | { type: 'CLOSE' }
      | { type: 'WAIT_ALMOST' }
      | { type: 'WAIT_REST' }
      | { type: 'WAIT_LONG' }
      | { type: 'HOVER' }
      | { type: 'UNHOVER' }
      | { type: 'PRESS_F8' }
      | { type: 'LEAVE_NOTIFICATIONS' };
  },
  initial: 'none',
  states: {
    none: { on: { ADD: 'shown' } },
    shown: {
      on: {
        ADD_NEWER: 'replaced',
        UPDATE: 'updated',
        CLOSE: 'closed',
        WAIT_ALMOST: 'nearlyDue',
        HOVER: 'hovered',
        PRESS_F8: 'viewportFocused',
      },
    },
    replaced: { on: { CLOSE: 'closed', WAIT_ALMOST: 'nearlyDue' } },
    updated: { on: { CLOSE: 'closed', WAIT_ALMOST: 'nearlyDue' } },
    nearlyDue: { on: { WAIT_REST: 'autoClosed', HOVER: 'hovered' } },
    hovered: { on: { WAIT_LONG: 'heldByHover' } },
    heldByHover: { on: { UNHOVER: 'resumed' } },
    resumed: { on: { WAIT_LONG: 'autoClosed' } },
    viewportFocused: { on: { WAIT_LONG: 'heldByFocus' } },
    heldByFocus: { on: { CLOSE: 'closedWithFocusInside' } },
    /** The focus stays in the notifications, which holds any next toast until it leaves. */
    closedWithFocusInside: { on: { LEAVE_NOTIFICATIONS: 'closed' } },
    closed: { on: { ADD: 'shown' } },
    autoClosed: { type: 'final' },
  },
});

const model = createTestModel(toastQueue);
const { paths, transitionCount } = planPaths('toast queue', model);

// jsdom has no pointer capture; Radix's swipe handling calls it on every pointer-up
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.setPointerCapture ??= () => undefined;
Element.prototype.releasePointerCapture ??= () => undefined;

const ALMOST_MS = TOAST_DURATION_MS - 100;

type Shown = { id: string; title: string; description: string };

type World = {
  view: Screen;
  added: number;
  /** The toast that must be on screen, and the ones that must not be any more. */
  expected: Shown | null;
  gone: Shown[];
};

const region = () => screen.getByRole('region', { name: 'Notifications (F8)' });
const viewport = () => region().querySelector('ol')!;
const toastItems = () => [...region().querySelectorAll('li')];
const toastsActor = (world: World) => world.view.runtime.app.system.get('toasts') as ActorRefFrom<typeof toastMachine>;

const advance = async (ms: number) => {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
};

/** Exactly the expected toast is on screen, nothing of the ones before it. */
const expectShowing = (world: World) => {
  const expected = world.expected!;
  const items = toastItems();
  expect(items).toHaveLength(1);
  expect(items[0]).toHaveAttribute('data-state', 'open');
  expect(within(items[0]!).getByText(expected.title)).toBeVisible();
  expect(within(items[0]!).getByText(expected.description)).toBeVisible();
  expect(within(items[0]!).getByRole('button', { name: 'Close' })).toBeInTheDocument();
  for (const old of world.gone) {
    expect(within(region()).queryByText(old.title)).toBeNull();
  }
  const open = toastsActor(world).getSnapshot().context.toasts.filter((toast) => toast.open);
  expect(open.map((toast) => toast.id)).toEqual([expected.id]);
};

const expectNoneShowing = (world: World) => {
  expect(toastItems()).toHaveLength(0);
  for (const old of world.gone) {
    expect(within(region()).queryByText(old.title)).toBeNull();
  }
  // the queue was told: every toast it holds is closed
  expect(toastsActor(world).getSnapshot().context.toasts.every((toast) => !toast.open)).toBe(true);
};

const addToast = (world: World, label: string) => {
  world.added += 1;
  const toast = { id: `model-toast-${world.added}`, title: `${label} ${world.added}`, description: `Details of ${label.toLowerCase()} ${world.added}` };
  if (world.expected) world.gone.push(world.expected);
  world.expected = toast;
  act(() => world.view.runtime.toast({ id: toast.id, title: toast.title, description: toast.description }));
};

const closeExpected = (world: World) => {
  world.gone.push(world.expected!);
  world.expected = null;
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof toastQueue>, EventFromLogic<typeof toastQueue>> => ({
  states: {
    none: () => {
      expect(region()).toBeInTheDocument();
      expectNoneShowing(world());
      expect(toastsActor(world()).getSnapshot().context.toasts).toHaveLength(0);
    },
    shown: () => expectShowing(world()),
    replaced: () => {
      // limit 1: the newer toast took the place of the older one
      expectShowing(world());
      expect(toastsActor(world()).getSnapshot().context.toasts).toHaveLength(1);
    },
    updated: () => {
      expectShowing(world());
      expect(world().expected!.title).toMatch(/^Updated/);
    },
    nearlyDue: () => expectShowing(world()),
    hovered: () => expectShowing(world()),
    heldByHover: () => expectShowing(world()),
    resumed: () => expectShowing(world()),
    viewportFocused: () => {
      expectShowing(world());
      expect(viewport()).toHaveFocus();
    },
    heldByFocus: () => {
      expectShowing(world());
      expect(viewport()).toHaveFocus();
    },
    closedWithFocusInside: () => {
      expectNoneShowing(world());
      expect(viewport()).toHaveFocus();
    },
    closed: () => {
      expectNoneShowing(world());
      expect(region()).not.toContainElement(document.activeElement as HTMLElement | null);
    },
    autoClosed: () => expectNoneShowing(world()),
  },
  events: {
    ADD: () => addToast(world(), 'Saved'),
    ADD_NEWER: () => addToast(world(), 'Newer'),
    UPDATE: () => {
      const current = world().expected!;
      const updated = { ...current, title: `Updated ${current.title}`, description: `Updated details ${world().added}` };
      world().expected = updated;
      act(() => toastsActor(world()).send({ type: 'toast.update', id: current.id, patch: { title: updated.title, description: updated.description } }));
    },
    CLOSE: async () => {
      fireEvent.click(within(toastItems()[0]!).getByRole('button', { name: 'Close' }));
      closeExpected(world());
    },
    WAIT_ALMOST: () => advance(ALMOST_MS),
    WAIT_REST: async () => {
      await advance(TOAST_DURATION_MS - ALMOST_MS);
      closeExpected(world());
    },
    WAIT_LONG: async () => {
      await advance(TOAST_DURATION_MS * 3);
      // only a timer that was running closes the toast; a paused one holds it
      if (!toastsActor(world()).getSnapshot().context.toasts.some((toast) => toast.open)) closeExpected(world());
    },
    HOVER: () => {
      fireEvent.pointerEnter(toastItems()[0]!);
      fireEvent.pointerMove(toastItems()[0]!);
    },
    UNHOVER: () => {
      fireEvent.pointerLeave(region());
    },
    LEAVE_NOTIFICATIONS: () => {
      act(() => viewport().blur());
    },
    PRESS_F8: () => {
      fireEvent.keyDown(document.activeElement ?? document.body, { key: 'F8', code: 'F8' });
    },
  },
});

describe('toast queue, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(toastQueue, model, params)).toEqual(NO_GAPS);
    expect(transitionCount).toBe(20);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    const view = await renderWithRuntime(<p>a page</p>);
    // the Toaster's timers (and its clock) run on fake time from here on
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    world = { view, added: 0, expected: null, gone: [] };
    await path.test(params);
  });
});
