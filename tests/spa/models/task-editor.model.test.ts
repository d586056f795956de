import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, SimulatedClock, type SnapshotFrom } from 'xstate';
import type { FileRef } from '../../../src/contract/media';
import type { Task, TaskStatus } from '../../../src/contract/tasks';
import { REFRESH_MS, taskEditorMachine, taskEditorView, type SaveInput, type TransitionAction } from '../../../src/machines/task-editor.machine';
import { heldCalls, settle } from './held-calls';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * Saving and publishing a task, its paths generated from the editor machine that ships: the
 * operator's edits (text and images), saves, status changes, looks again and attempts to leave,
 * the server's answers to each call and the scheduler's 5-second watch are the events of the
 * traversal. Each path is played on a real actor (every call held until the path answers it, the
 * watch on a simulated clock) and checked, step by step, against what the product says must follow.
 */
type Snapshot = SnapshotFrom<typeof taskEditorMachine>;
type WorldEvent = ModelEvent & Record<string, unknown>;

const EDITED = 'Edited for the launch.';
const PAST = '2026-01-01T09:00:00.000Z';
/** A time the scheduler has not reached. */
const LATER = '2999-01-01T09:00:00.000Z';
const imageRef = (fileId: string): FileRef => ({ fileId, name: `${fileId}.png`, url: `/api/media/file/${fileId}`, kind: 'image', mimeType: 'image/png', size: 10 });
/**
 * The published task carries two images, so that removing or moving one would show. The tasks
 * still being written carry none: what image edits do to them is the unit tests' (and the
 * drafts-and-images model's); with images, every unsaved state here would come twice.
 */
const IMAGES = [imageRef('img-a'), imageRef('img-b')];
const picked = new File([new Uint8Array(10)], 'cover.png', { type: 'image/png' });

const taskAs = (status: TaskStatus, patch: Partial<Task> = {}): Task => ({
  id: 't1',
  platform: 'linkedin',
  title: 'Launch',
  brief: { topic: 'Launch', audience: '', tone: '', keywords: [], language: 'en-US' },
  drafts: [],
  chosenDraft: null,
  body: 'We launched.',
  images: status === 'published' ? IMAGES : [],
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

/** Whether the scheduler has taken the task by now: its time has come. */
const isPast = (scheduledAt: string | null) => scheduledAt !== null && Date.parse(scheduledAt) <= Date.now();

/**
 * What the world can do in a state: the operator acts only on the editor shown; the server answers
 * what it was sent (a save stores the form, a status change moves the task on, and a look again
 * finds a scheduled task published by the scheduler once its time has come). A task opens as a
 * draft, scheduled (for a time past, or later) or published.
 *
 * An upload in progress is not told apart here (`serializeState`): the drafts-and-images model
 * follows uploads to their end; here a path only checks whether picking images starts one.
 */
const worldEvents = (state: Snapshot): WorldEvent[] => {
  const { saved, form, pendingAction } = state.context;
  const stored = saved ?? taskAs('draft');
  const shown = state.matches({ task: 'editing' });
  return [
    ...(['draft', 'scheduled', 'published'] as const).map((status) => ({ type: 'xstate.done.actor.loadTask', output: taskAs(status) })),
    { type: 'xstate.done.actor.loadTask', output: taskAs('scheduled', { scheduledAt: LATER }) },
    { type: 'xstate.error.actor.loadTask', error: httpError(404) },
    { type: 'xstate.error.actor.loadTask', error: httpError(500) },
    { type: 'reload' },
    ...(shown
      ? [
          { type: 'form.change', patch: { body: EDITED } },
          // Only an image the editor shows can be removed or moved.
          ...(form.images.some((image) => image.fileId === 'img-a')
            ? [
                { type: 'images.remove', fileId: 'img-a' },
                { type: 'images.move', fileId: 'img-a', by: 1 },
              ]
            : []),
          { type: 'images.add', files: [picked] },
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
    {
      type: 'xstate.done.actor.refreshTask',
      output: stored.status === 'scheduled' && isPast(stored.scheduledAt) ? { ...stored, status: 'published', publishedAt: PAST } : stored,
    },
    { type: 'xstate.error.actor.refreshTask', error: httpError(500) },
    { type: WATCH },
  ];
};

/**
 * What the operator can tell apart: where the editor is, the task's status and whether its time has
 * come, the text, what is unsaved, shown or pending.
 */
const serializeState = (state: Snapshot) => {
  const { task, schedulerWatch, leaving } = state.value as Record<string, unknown>;
  const { saved, form, pendingAction, failure } = state.context;
  return JSON.stringify([
    task,
    schedulerWatch,
    leaving,
    saved?.status,
    saved && isPast(saved.scheduledAt),
    form.body === EDITED,
    taskEditorView.unsaved(state),
    pendingAction?.action,
    failure?.kind,
  ]);
};

const input = { taskId: 't1', platform: 'linkedin' as const };
const { paths, transitionCount, reachedStates } = productionPaths(taskEditorMachine, { events: worldEvents, input, serializeState });
console.log(`Task editor, saving and publishing (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** What the operator edits here: the text and the images, in order. */
type Content = { body: string; images: string[] };
const NOTHING: Content = { body: '', images: [] };
const contentOf = (task: Task): Content => ({ body: task.body, images: task.images.map((image) => image.fileId) });
const same = (a: Content, b: Content) => a.body === b.body && a.images.join() === b.images.join();

/** Where the editor must be: written from the product's rules (docs/operations.md), not read from the machine. */
type Expected = {
  task: 'loading' | 'loadFailed' | 'notFound' | 'idle' | 'refreshing' | 'saving' | 'transitioning';
  status: TaskStatus | null;
  /** When the scheduler is to take the task. */
  scheduledAt: string | null;
  content: Content;
  /** The content as the server holds it. */
  stored: Content;
  /** The content the answer to the last call is measured from: edits since then are kept. */
  sent: Content;
  uploading: boolean;
  pending: TransitionAction['action'] | null;
  failure: 'load' | 'save' | 'transition' | null;
  askingToLeave: boolean;
  calls: { loadTask: number; saveTask: number; transitionTask: number; uploadImages: number };
  announced: number;
  left: string[];
};

const START: Expected = {
  task: 'loading',
  status: null,
  scheduledAt: null,
  content: NOTHING,
  stored: NOTHING,
  sent: NOTHING,
  uploading: false,
  pending: null,
  failure: null,
  askingToLeave: false,
  calls: { loadTask: 1, saveTask: 0, transitionTask: 0, uploadImages: 0 },
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
/** Content (text and images) changes until the task is being published or is live. */
const editable = (e: Expected) => e.status !== 'published' && e.status !== 'publishing';
const unsaved = (e: Expected) => !same(e.content, e.stored);
/** The scheduler's time has come for the task (or its post is going out): the server's copy may have moved on. */
const due = (e: Expected) => e.status === 'publishing' || (e.status === 'scheduled' && isPast(e.scheduledAt));
const call = (e: Expected, name: keyof Expected['calls']) => ({ ...e.calls, [name]: e.calls[name] + 1 });
const edit = (e: Expected, content: Content): Expected => (editable(e) ? { ...e, content } : e);
/** The server's copy arrives: the content is the server's, unless the operator changed it since the call went out. */
const adopt = (e: Expected, task: Task): Expected => ({
  ...e,
  status: task.status,
  scheduledAt: task.scheduledAt,
  stored: contentOf(task),
  content: same(e.content, e.sent) ? contentOf(task) : e.content,
});
const lookAgain = (e: Expected): Expected => (e.task === 'idle' && !unsaved(e) ? { ...e, task: 'refreshing', sent: e.content, calls: call(e, 'loadTask') } : e);

const EXPECTED_AFTER = (e: Expected, event: WorldEvent): Expected => {
  const task = event.output as Task;
  switch (event.type) {
    case 'xstate.done.actor.loadTask':
      return { ...e, task: 'idle', status: task.status, scheduledAt: task.scheduledAt, content: contentOf(task), stored: contentOf(task), sent: contentOf(task) };
    case 'xstate.error.actor.loadTask':
      return (event.error as { status: number }).status === 404 ? { ...e, task: 'notFound' } : { ...e, task: 'loadFailed', failure: 'load' };
    case 'reload':
      return e.task === 'loadFailed' ? { ...e, task: 'loading', failure: null, calls: call(e, 'loadTask') } : e;
    // Content changes until the task is being published or is live: its text, and its images
    // removed, moved (the last stays last) or added.
    case 'form.change':
      return edit(e, { ...e.content, body: (event.patch as { body: string }).body });
    case 'images.remove':
      return edit(e, { ...e.content, images: e.content.images.filter((id) => id !== event.fileId) });
    case 'images.move': {
      const images = [...e.content.images];
      const from = images.indexOf(event.fileId as string);
      const to = from + (event.by as number);
      if (from >= 0 && to >= 0 && to < images.length) [images[from], images[to]] = [images[to]!, images[from]!];
      return edit(e, { ...e.content, images });
    }
    // One upload at a time; the images join the task when it is done.
    case 'images.add':
      return editable(e) && !e.uploading ? { ...e, uploading: true, calls: call(e, 'uploadImages') } : e;
    case 'save':
      return e.task === 'idle' && editable(e) ? { ...e, task: 'saving', failure: null, sent: e.content, calls: call(e, 'saveTask') } : e;
    // A change of status saves pending edits first; only what the status offers, at a real time.
    case 'transition': {
      const action = event.action as TransitionAction;
      const offered = e.task === 'idle' && e.status !== null && OFFERED[e.status].includes(action.action) && (action.action !== 'schedule' || action.scheduledAt !== '');
      if (!offered) return e;
      if (unsaved(e)) return editable(e) ? { ...e, task: 'saving', pending: action.action, failure: null, sent: e.content, calls: call(e, 'saveTask') } : e;
      return { ...e, task: 'transitioning', pending: action.action, failure: null, sent: e.stored, calls: call(e, 'transitionTask') };
    }
    // A save answered: the task keeps its address (only a new task gets one), then the status
    // change waiting for it goes out. A status change sends no content: the server answers with
    // its copy, so edits are measured from that copy.
    case 'xstate.done.actor.saveTask': {
      const saved = adopt(e, task);
      return e.pending
        ? { ...saved, task: 'transitioning', sent: saved.stored, calls: call(e, 'transitionTask') }
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
    // Every 5 seconds while the scheduler may move the task on, once its time has come: a task
    // scheduled for later is not asked for again and again before then.
    case WATCH:
      return due(e) ? lookAgain(e) : e;
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
  const created: string[] = [];
  const uploads: File[][] = [];
  const actor = createActor(
    taskEditorMachine.provide({
      actors: {
        loadTask: held.stub<Task, { taskId: string }>('loadTask'),
        saveTask: held.stub<Task, SaveInput>('saveTask'),
        transitionTask: held.stub<Task, { taskId: string; action: TransitionAction }>('transitionTask'),
        uploadImages: fromCallback<{ type: 'noop' }, { files: File[] }>(({ input: upload }) => {
          uploads.push(upload.files);
        }),
        startDrafting: held.stub('startDrafting'),
        chatStream: fromCallback(() => undefined),
      },
      actions: {
        taskCreated: (_, { taskId }) => created.push(taskId),
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
    expect(state.context.form.body, `${after}: text`).toBe(e.content.body);
    expect(state.context.form.images.map((image) => image.fileId), `${after}: images`).toEqual(e.content.images);
    expect(state.matches({ uploads: e.uploading ? 'uploading' : 'idle' }), `${after}: uploading`).toBe(true);
    expect(state.context.pendingAction?.action ?? null, `${after}: pending`).toBe(e.pending);
    expect(state.context.failure?.kind ?? null, `${after}: failure shown`).toBe(e.failure);
    expect(taskEditorView.unsaved(state), `${after}: unsaved`).toBe(e.status !== null && unsaved(e));
    if (e.status !== null) expect(taskEditorView.editable(state), `${after}: editable`).toBe(editable(e));
    expect(taskEditorView.mustAskBeforeLeaving(state), `${after}: leaving asks`).toBe(e.status !== null && unsaved(e));
    expect(state.matches({ leaving: e.askingToLeave ? 'asking' : 'staying' }), `${after}: asking to leave`).toBe(true);
    expect(state.matches({ schedulerWatch: e.status === 'scheduled' ? 'watching' : 'off' }), `${after}: watching the scheduler`).toBe(true);
    const made = { loadTask: 0, saveTask: 0, transitionTask: 0, uploadImages: uploads.length };
    for (const { src } of held.calls) if (src in made) made[src as keyof typeof made] += 1;
    expect(made, `${after}: calls`).toEqual(e.calls);
    expect(announced, `${after}: saved toasts`).toHaveLength(e.announced);
    // The task opened has its id: no save makes it a new task moving to another address.
    expect(created, `${after}: created as new`).toEqual([]);
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
    // (759 before a task opened scheduled for later, with 332 of its own, and before images were
    // picked on every task and removed or moved on the published one: 143; refused there, so no path)
    expect(transitionCount).toBe(1234);
  });

  const outcome = (event: ModelEvent) => {
    const task = event.output as Task | undefined;
    if (!task) return 'ok';
    return task.status === 'scheduled' && !isPast(task.scheduledAt) ? 'scheduled for later' : task.status;
  };
  it.each(paths.map((path) => [describeEvents(path.events, outcome), path] as const))('%s', async (_description, path) => {
    await play(path.events);
  });
});
