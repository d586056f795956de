import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type SnapshotFrom } from 'xstate';
import type { Task, TaskStatus } from '../../../src/contract/tasks';
import { REFRESH_MS, taskEditorMachine, taskEditorView, type SaveInput, type TransitionAction } from '../../../src/machines/task-editor.machine';
import { heldCalls, settle } from './held-calls';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * Saving and publishing a task, its paths generated from the editor machine that ships: the
 * operator's edits, saves, status changes, looks again and attempts to leave, the server's answers
 * to each call and the scheduler's 5-second watch are the events of the traversal. Each path is
 * played on a real actor (every call held until the path answers it, the watch on a simulated
 * clock) and checked, step by step, against what the product says must follow.
 */
type Snapshot = SnapshotFrom<typeof taskEditorMachine>;
type WorldEvent = ModelEvent & Record<string, unknown>;

const EDITED = 'Edited for the launch.';
const PAST = '2026-01-01T09:00:00.000Z';

const taskAs = (status: TaskStatus, patch: Partial<Task> = {}): Task => ({
  id: 't1',
  platform: 'linkedin',
  title: 'Launch',
  brief: { topic: 'Launch', audience: '', tone: '', keywords: [], language: 'en-US' },
  drafts: [],
  chosenDraft: null,
  body: 'We launched.',
  images: [],
  status,
  scheduledAt: status === 'scheduled' ? PAST : null,
  failureReason: null,
  publishedAt: status === 'published' ? PAST : null,
  externalId: null,
  externalUrl: null,
  createdAt: PAST,
  updatedAt: PAST,
  history: [],
  ...patch,
});

/** What each status change makes of the task, as the server does it. */
const AFTER_ACTION: Record<TransitionAction['action'], TaskStatus> = {
  markReady: 'ready',
  backToDraft: 'draft',
  unschedule: 'ready',
  schedule: 'scheduled',
  markPublished: 'published',
};

const TRANSITIONS: TransitionAction[] = [
  { action: 'markReady' },
  { action: 'backToDraft' },
  { action: 'schedule', scheduledAt: PAST },
  { action: 'schedule', scheduledAt: '' },
];
const WATCH = 'xstate.after.refreshInterval.taskEditor.schedulerWatch.watching';
const httpError = (status: number) => Object.assign(new Error(`server said ${status}`), { status });

/**
 * What the world can do in a state: the operator acts only on the editor shown; the server answers
 * what it was sent (a save stores the form, a status change moves the task on, and a look again
 * finds a scheduled task published by the scheduler).
 */
const worldEvents = (state: Snapshot): WorldEvent[] => {
  const { saved, form, pendingAction } = state.context;
  const stored = saved ?? taskAs('draft');
  const shown = state.matches({ task: 'editing' });
  return [
    ...(['draft', 'scheduled', 'published'] as const).map((status) => ({ type: 'xstate.done.actor.loadTask', output: taskAs(status) })),
    { type: 'xstate.error.actor.loadTask', error: httpError(404) },
    { type: 'xstate.error.actor.loadTask', error: httpError(500) },
    { type: 'reload' },
    ...(shown
      ? [
          { type: 'form.change', patch: { body: EDITED } },
          { type: 'save' },
          ...TRANSITIONS.map((action) => ({ type: 'transition', action })),
          { type: 'refresh' },
          { type: 'leave.request', to: '/kraken-operation' },
          { type: 'leave.stay' },
          { type: 'leave.confirm' },
        ]
      : []),
    { type: 'xstate.done.actor.saveTask', output: { ...stored, ...form } },
    { type: 'xstate.error.actor.saveTask', error: httpError(503) },
    {
      type: 'xstate.done.actor.transitionTask',
      output: pendingAction ? { ...stored, status: AFTER_ACTION[pendingAction.action], scheduledAt: pendingAction.action === 'schedule' ? pendingAction.scheduledAt : null } : stored,
    },
    { type: 'xstate.error.actor.transitionTask', error: httpError(409) },
    { type: 'xstate.done.actor.refreshTask', output: stored.status === 'scheduled' ? { ...stored, status: 'published', publishedAt: PAST } : stored },
    { type: 'xstate.error.actor.refreshTask', error: httpError(500) },
    { type: WATCH },
  ];
};

/** What the operator can tell apart: where the editor is, the task's status, the text, what is unsaved, shown or pending. */
const serializeState = (state: Snapshot) => {
  const { task, schedulerWatch, leaving } = state.value as Record<string, unknown>;
  const { saved, form, pendingAction, failure } = state.context;
  return JSON.stringify([task, schedulerWatch, leaving, saved?.status, form.body === EDITED, taskEditorView.unsaved(state), pendingAction?.action, failure?.kind]);
};

const input = { taskId: 't1', platform: 'linkedin' as const };
const { paths, transitionCount, reachedStates } = productionPaths(taskEditorMachine, { events: worldEvents, input, serializeState });
console.log(`Task editor, saving and publishing (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** Where the editor must be: written from the product's rules (docs/operations.md), not read from the machine. */
type Expected = {
  task: 'loading' | 'loadFailed' | 'notFound' | 'idle' | 'refreshing' | 'saving' | 'transitioning';
  status: TaskStatus | null;
  body: string;
  /** The text as the server holds it. */
  storedBody: string;
  /** The text as it was when the last call went out. */
  sentBody: string;
  pending: TransitionAction['action'] | null;
  failure: 'load' | 'save' | 'transition' | null;
  askingToLeave: boolean;
  calls: { loadTask: number; saveTask: number; transitionTask: number };
  announced: number;
  left: string[];
};

const START: Expected = {
  task: 'loading',
  status: null,
  body: '',
  storedBody: '',
  sentBody: '',
  pending: null,
  failure: null,
  askingToLeave: false,
  calls: { loadTask: 1, saveTask: 0, transitionTask: 0 },
  announced: 0,
  left: [],
};

// What docs/operations.md offers the operator in each status, written out again rather than
// imported from the contract's ACTIONS_BY_STATUS: the oracle must not move when the code does.
const OFFERED: Record<TaskStatus, TransitionAction['action'][]> = {
  draft: ['markReady'],
  ready: ['backToDraft', 'schedule'],
  scheduled: ['unschedule', 'schedule', 'backToDraft'],
  publishing: [],
  due: ['markPublished', 'schedule', 'backToDraft'],
  published: [],
  failed: ['schedule', 'backToDraft'],
};
const editable = (e: Expected) => e.status !== 'published' && e.status !== 'publishing';
const unsaved = (e: Expected) => e.body !== e.storedBody;
const call = (e: Expected, name: keyof Expected['calls']) => ({ ...e.calls, [name]: e.calls[name] + 1 });
/** The server's copy arrives: the text is the server's, unless the operator changed it since the call went out. */
const adopt = (e: Expected, task: Task): Expected => ({ ...e, status: task.status, storedBody: task.body, body: e.body === e.sentBody ? task.body : e.body });
const lookAgain = (e: Expected): Expected => (e.task === 'idle' && !unsaved(e) ? { ...e, task: 'refreshing', sentBody: e.body, calls: call(e, 'loadTask') } : e);

const EXPECTED_AFTER = (e: Expected, event: WorldEvent): Expected => {
  const task = event.output as Task;
  switch (event.type) {
    case 'xstate.done.actor.loadTask':
      return { ...e, task: 'idle', status: task.status, body: task.body, storedBody: task.body, sentBody: task.body };
    case 'xstate.error.actor.loadTask':
      return (event.error as { status: number }).status === 404 ? { ...e, task: 'notFound' } : { ...e, task: 'loadFailed', failure: 'load' };
    case 'reload':
      return e.task === 'loadFailed' ? { ...e, task: 'loading', failure: null, calls: call(e, 'loadTask') } : e;
    // Content changes until the task is being published or is live.
    case 'form.change':
      return editable(e) ? { ...e, body: (event.patch as { body: string }).body } : e;
    case 'save':
      return e.task === 'idle' && editable(e) ? { ...e, task: 'saving', failure: null, sentBody: e.body, calls: call(e, 'saveTask') } : e;
    // A change of status saves pending edits first; only what the status offers, at a real time.
    case 'transition': {
      const action = event.action as TransitionAction;
      const offered = e.task === 'idle' && e.status !== null && OFFERED[e.status].includes(action.action) && (action.action !== 'schedule' || action.scheduledAt !== '');
      if (!offered) return e;
      if (unsaved(e)) return editable(e) ? { ...e, task: 'saving', pending: action.action, failure: null, sentBody: e.body, calls: call(e, 'saveTask') } : e;
      return { ...e, task: 'transitioning', pending: action.action, failure: null, sentBody: e.body, calls: call(e, 'transitionTask') };
    }
    case 'xstate.done.actor.saveTask': {
      const saved = adopt(e, task);
      return e.pending
        ? { ...saved, task: 'transitioning', sentBody: saved.body, calls: call(e, 'transitionTask') }
        : { ...saved, task: 'idle', announced: e.announced + 1 };
    }
    // A failed save keeps every change and says why.
    case 'xstate.error.actor.saveTask':
      return { ...e, task: 'idle', pending: null, failure: 'save' };
    case 'xstate.done.actor.transitionTask':
      return { ...adopt(e, task), task: 'idle', pending: null, announced: e.announced + 1 };
    case 'xstate.error.actor.transitionTask':
      return { ...e, task: 'idle', pending: null, failure: 'transition' };
    // Looking again never overwrites unsaved work.
    case 'refresh':
      return lookAgain(e);
    case 'xstate.done.actor.refreshTask':
      return { ...adopt(e, task), task: 'idle' };
    case 'xstate.error.actor.refreshTask':
      return { ...e, task: 'idle' };
    // Every 5 seconds while the scheduler may move the task on, once its time has come.
    case WATCH:
      return e.status === 'scheduled' || e.status === 'publishing' ? lookAgain(e) : e;
    // Leaving with unsaved changes asks first; otherwise the link simply works.
    case 'leave.request':
      return unsaved(e) ? { ...e, askingToLeave: true } : e;
    case 'leave.stay':
      return { ...e, askingToLeave: false };
    case 'leave.confirm':
      return e.askingToLeave ? { ...e, askingToLeave: false, left: [...e.left, '/kraken-operation'] } : e;
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const INVOKED_AS: Record<string, string> = { loadTask: 'loadTask', refreshTask: 'loadTask', saveTask: 'saveTask', transitionTask: 'transitionTask' };

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const clock = new SimulatedClock();
  const announced: TaskStatus[] = [];
  const left: string[] = [];
  const actor = createActor(
    taskEditorMachine.provide({
      actors: {
        loadTask: held.stub<Task, { taskId: string }>('loadTask'),
        saveTask: held.stub<Task, SaveInput>('saveTask'),
        transitionTask: held.stub<Task, { taskId: string; action: TransitionAction }>('transitionTask'),
        uploadImages: fromCallback(() => undefined),
        startDrafting: held.stub('startDrafting'),
        chatStream: fromCallback(() => undefined),
      },
      actions: {
        announceSaved: (_, { status }) => announced.push(status),
        leave: (_, { to }) => left.push(to),
      },
    }),
    { input, clock },
  ).start();

  const check = (e: Expected, after: string) => {
    const state = actor.getSnapshot();
    const where = e.task === 'loading' || e.task === 'loadFailed' || e.task === 'notFound' ? e.task : { editing: e.task };
    expect(state.matches({ task: where }), `after ${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.context.saved?.status ?? null, `${after}: status`).toBe(e.status);
    expect(state.context.form.body, `${after}: text`).toBe(e.body);
    expect(state.context.pendingAction?.action ?? null, `${after}: pending`).toBe(e.pending);
    expect(state.context.failure?.kind ?? null, `${after}: failure shown`).toBe(e.failure);
    expect(taskEditorView.unsaved(state), `${after}: unsaved`).toBe(e.status !== null && unsaved(e));
    if (e.status !== null) expect(taskEditorView.editable(state), `${after}: editable`).toBe(editable(e));
    expect(taskEditorView.mustAskBeforeLeaving(state), `${after}: leaving asks`).toBe(e.status !== null && unsaved(e));
    expect(state.matches({ leaving: e.askingToLeave ? 'asking' : 'staying' }), `${after}: asking to leave`).toBe(true);
    expect(state.matches({ schedulerWatch: e.status === 'scheduled' ? 'watching' : 'off' }), `${after}: watching the scheduler`).toBe(true);
    const made = { loadTask: 0, saveTask: 0, transitionTask: 0 };
    for (const { src } of held.calls) if (src in made) made[src as keyof typeof made] += 1;
    expect(made, `${after}: calls`).toEqual(e.calls);
    expect(announced, `${after}: saved toasts`).toHaveLength(e.announced);
    expect(left, `${after}: left for`).toEqual(e.left);
  };

  let expected = START;
  check(expected, 'start');
  for (const event of events) {
    const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (answer) {
      const pending = held.waiting(INVOKED_AS[answer[2]!]!)!;
      if (answer[1] === 'done') pending.resolve(event.output);
      else pending.reject(event.error);
    } else if (event.type === WATCH) clock.increment(REFRESH_MS);
    else actor.send(event as never);
    await settle();
    expected = EXPECTED_AFTER(expected, event as WorldEvent);
    check(expected, describeEvents([event]));
  }
  actor.stop();
};

describe('the task editor saving and publishing, paths generated from the production machine', () => {
  it('reaches every state of loading, editing, watching and leaving', () => {
    const regions = [...reachedStates].map((value) => JSON.parse(value) as Record<string, unknown>);
    const seen = (region: string) => new Set(regions.map((value) => JSON.stringify(value[region]))).size;
    // task: loading, loadFailed, notFound, editing x 4; the scheduler watch: off, watching; leaving: staying, asking
    expect([seen('task'), seen('schedulerWatch'), seen('leaving')]).toEqual([7, 2, 2]);
    // one path per transition: a change of this count is a change of the machine's chart, to look at
    expect(transitionCount).toBe(759);
  });

  it.each(paths.map((path) => [describeEvents(path.events, (event) => (event.output as Task | undefined)?.status ?? 'ok'), path] as const))('%s', async (_description, path) => {
    await play(path.events);
  });
});
