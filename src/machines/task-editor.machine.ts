import { and, assertEvent, assign, fromCallback, fromPromise, not, or, raise, setup, stateIn, type SnapshotFrom } from 'xstate';
import type { ChatRequest } from '../contract/chat';
import type { FileRef } from '../contract/media';
import {
  ACTIONS_BY_STATUS,
  contentIssues,
  DRAFT_COUNT_DEFAULT,
  isEditable,
  fitDraft,
  splitDrafts,
  titleFromPost,
  type Brief,
  type Draft,
  type DraftingSession,
  type Platform,
  type PostLanguage,
  type Task,
  type TransitionRequest,
} from '../contract/tasks';
import type { StreamFailureKind } from '../services/chat-stream';
import type { ChatStreamReport } from './chat-stream.actor';

/** What the operator edits; saved as one. */
export type TaskForm = {
  title: string;
  brief: Brief;
  drafts: Draft[];
  chosenDraft: number | null;
  body: string;
  images: FileRef[];
};

export type TaskFailure = { kind: 'load' | 'save' | 'transition' | 'upload' | 'drafting'; message: string };

export type DraftingState = {
  session: DraftingSession | null;
  /** The writer's answer so far, split into `form.drafts` as it grows. */
  answer: string;
  userMessageId: string | null;
  accepted: boolean;
  /** The last draft is still being written, or was cut short. */
  lastDraftPartial: boolean;
  failure: { kind: StreamFailureKind | 'start'; message: string } | null;
};

export type TransitionAction = TransitionRequest extends infer R ? (R extends { id: string } ? Omit<R, 'id'> : never) : never;

export type TaskEditorContext = {
  taskId: string | null;
  platform: Platform;
  saved: Task | null;
  form: TaskForm;
  /** The form as last loaded or saved: anything different is unsaved. */
  baseline: TaskForm;
  pendingAction: TransitionAction | null;
  /** The form as it was when the last save or status change went out. */
  sentForm: TaskForm | null;
  draftCount: number;
  failure: TaskFailure | null;
  notFound: boolean;
  drafting: DraftingState;
  /** Where the operator asked to go while there was unsaved work, until they confirm or stay. */
  leaveTo: string | null;
};

export type TaskEditorEvent =
  | { type: 'form.change'; patch: Partial<Omit<TaskForm, 'brief'>> }
  | { type: 'brief.change'; patch: Partial<Brief> }
  | { type: 'images.add'; files: File[] }
  | { type: 'images.remove'; fileId: string }
  | { type: 'images.move'; fileId: string; by: -1 | 1 }
  | { type: 'save' }
  | { type: 'transition'; action: TransitionAction }
  | { type: 'reload' }
  /** Look again at the server's copy (the scheduler may have moved the task on). */
  | { type: 'refresh' }
  | { type: 'dismissFailure' }
  | { type: 'drafts.count'; count: number }
  | { type: 'drafts.generate' }
  | { type: 'drafts.stop' }
  | { type: 'drafts.retry' }
  | { type: 'drafts.pick'; index: number }
  | { type: 'uploads.done'; files: FileRef[]; error: string | null }
  /** The operator follows a link of the app elsewhere. */
  | { type: 'leave.request'; to: string }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' }
  | ChatStreamReport;

/** `language`: the interface's, which a new task's posts are written in until the operator picks another. */
export type TaskEditorInput = { taskId: string | null; platform: Platform; language?: PostLanguage };

export const blankBrief = (language: Brief['language'] = 'zh-CN'): Brief => ({ topic: '', audience: '', tone: '', keywords: [], language });

export const formOf = (task: Task): TaskForm => ({
  title: task.title,
  brief: task.brief,
  drafts: task.drafts,
  chosenDraft: task.chosenDraft,
  body: task.body,
  images: task.images,
});

const blankForm = (language?: PostLanguage): TaskForm => ({ title: '', brief: blankBrief(language), drafts: [], chosenDraft: null, body: '', images: [] });

const idleDrafting = (): DraftingState => ({ session: null, answer: '', userMessageId: null, accepted: false, lastDraftPartial: false, failure: null });

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether the form differs from what the server holds (order of keys does not matter). */
export const isDirty = (context: Pick<TaskEditorContext, 'form' | 'baseline'>): boolean =>
  JSON.stringify(context.form) !== JSON.stringify(context.baseline);

/** Content can change until the task is being published or is live; a task not yet saved always can. */
const contentEditable = (context: Pick<TaskEditorContext, 'saved'>): boolean => context.saved === null || isEditable(context.saved.status);

/** What the task's status lets the operator do next (a task not saved yet will be a draft). */
const actionsOffered = (context: Pick<TaskEditorContext, 'saved'>) => ACTIONS_BY_STATUS[context.saved?.status ?? 'draft'];

/** How often an open task looks again while the scheduler may be moving it on. */
export const REFRESH_MS = 5000;

/** Limits broken right now (over a limit always; missing parts once the task must be publishable). */
export const formIssues = (context: Pick<TaskEditorContext, 'form' | 'platform' | 'saved'>) =>
  contentIssues(
    context.platform,
    { title: context.form.title, body: context.form.body, imageCount: context.form.images.length },
    context.saved !== null && !['draft', 'failed'].includes(context.saved.status),
  );

export type SaveInput = { taskId: string | null; platform: Platform; form: TaskForm };

/**
 * One task being written: load it (or start blank), edit the brief, the text and the images,
 * ask the platform's writer agent for drafts (streamed through the chat machinery: stop, retry
 * and a cut-short answer kept), pick one, save, and move it on (ready, scheduled...). A failed
 * save keeps every change; a change of status saves pending edits first.
 */
export const taskEditorMachine = setup({
  types: {
    context: {} as TaskEditorContext,
    events: {} as TaskEditorEvent,
    input: {} as TaskEditorInput,
  },
  actors: {
    loadTask: fromPromise<Task, { taskId: string }>(async () => {
      throw new Error('loadTask is provided where the screen starts');
    }),
    saveTask: fromPromise<Task, SaveInput>(async () => {
      throw new Error('saveTask is provided where the screen starts');
    }),
    transitionTask: fromPromise<Task, { taskId: string; action: TransitionAction }>(async () => {
      throw new Error('transitionTask is provided where the screen starts');
    }),
    uploadImages: fromCallback<{ type: 'noop' }, { files: File[] }>(() => () => undefined),
    startDrafting: fromPromise<DraftingSession, { platform: Platform; brief: Brief; count: number }>(async () => {
      throw new Error('startDrafting is provided where the screen starts');
    }),
    chatStream: fromCallback<{ type: 'noop' }, ChatRequest>(() => () => undefined),
  },
  actions: {
    /** A new task got its id: the screen moves to its edit address. */
    taskCreated: (_, _params: { taskId: string }) => undefined,
    /** Saved or moved on: the screen may say so. */
    announceSaved: (_, _params: { status: Task['status'] }) => undefined,
    /** Takes the server's task; edits typed while the call was out stay on top of it. */
    adoptTask: assign(({ context }, params: { task: Task; keepEdits: boolean; form: TaskForm }) => ({
      saved: params.task,
      taskId: params.task.id,
      platform: params.task.platform,
      baseline: formOf(params.task),
      form: params.keepEdits && JSON.stringify(params.form) !== JSON.stringify(context.sentForm) ? params.form : formOf(params.task),
    })),
    fail: assign((_, params: TaskFailure) => ({ failure: params })),
    clearFailure: assign({ failure: null }),
    markNotFound: assign({ notFound: true }),
    applyFormChange: assign(({ context }, params: { patch: Partial<Omit<TaskForm, 'brief'>> }) => ({ form: { ...context.form, ...params.patch } })),
    applyBriefChange: assign(({ context }, params: { patch: Partial<Brief> }) => ({
      form: { ...context.form, brief: { ...context.form.brief, ...params.patch } },
    })),
    removeImage: assign(({ context }, params: { fileId: string }) => ({
      form: { ...context.form, images: context.form.images.filter((image) => image.fileId !== params.fileId) },
    })),
    /** One place earlier or later; the first and last image stay where they are. */
    moveImage: assign(({ context }, params: { fileId: string; by: -1 | 1 }) => {
      const images = [...context.form.images];
      const from = images.findIndex((image) => image.fileId === params.fileId);
      const to = from + params.by;
      if (from < 0 || to < 0 || to >= images.length) return { form: context.form };
      [images[from], images[to]] = [images[to]!, images[from]!];
      return { form: { ...context.form, images } };
    }),
    /** Between one and five drafts, whole. */
    setDraftCount: assign((_, params: { count: number }) => ({ draftCount: Math.min(5, Math.max(1, Math.round(params.count))) })),
    /**
     * The chosen draft becomes the text, and its title the task's: on Xiaohongshu the draft's own;
     * on LinkedIn, whose posts have none, the post's first line, when the operator has not named it.
     */
    pickDraft: assign(({ context }, params: { index: number }) => {
      const stored = context.form.drafts[params.index];
      if (!stored) return { form: context.form };
      const draft = fitDraft(context.platform, stored, context.form.brief.language);
      return {
        form: {
          ...context.form,
          chosenDraft: params.index,
          body: draft.body,
          ...(context.platform === 'xiaohongshu' && draft.title ? { title: draft.title } : {}),
          ...(context.platform === 'linkedin' && context.form.title.trim() === ''
            ? { title: titleFromPost(context.platform, draft.body, context.form.brief.language) }
            : {}),
        },
      };
    }),
    /** The status change to make once the save it waits for is done. */
    rememberPendingAction: assign((_, params: { action: TransitionAction }) => ({ pendingAction: params.action })),
    forgetPendingAction: assign({ pendingAction: null }),
    /** The form as the call goes out: edits typed while it is out are kept when it answers. */
    rememberSentForm: assign({ sentForm: ({ context }) => context.form }),
    /**
     * A status change sends no form: what the server will answer with is its last copy, so edits
     * are measured from that copy (text typed while the save before it was out is kept).
     */
    rememberServerForm: assign({ sentForm: ({ context }) => context.baseline }),
    /** A new request for drafts starts from nothing. */
    resetDrafting: assign({ drafting: idleDrafting }),
    keepDraftingSession: assign(({ context }, params: { session: DraftingSession }) => ({ drafting: { ...context.drafting, session: params.session } })),
    /** The writer's answer begins: its last draft unfinished until it ends, no failure shown. */
    beginAnswer: assign({ drafting: ({ context }) => ({ ...context.drafting, lastDraftPartial: true, failure: null }) }),
    /** The writer took the request; its message id lets a retry ask again. */
    markAnswerAccepted: assign(({ context }, params: { userMessageId: string }) => ({
      drafting: { ...context.drafting, accepted: true, userMessageId: params.userMessageId },
    })),
    appendToAnswer: assign(({ context }, params: { text: string }) => ({ drafting: { ...context.drafting, answer: context.drafting.answer + params.text } })),
    /** The answer ended whole: the last draft is finished. */
    finishAnswer: assign({ drafting: ({ context }) => ({ ...context.drafting, lastDraftPartial: false }) }),
    showDraftingFailure: assign(({ context }, params: NonNullable<DraftingState['failure']>) => ({
      drafting: { ...context.drafting, failure: { kind: params.kind, message: params.message } },
    })),
    clearAnswer: assign({ drafting: ({ context }) => ({ ...context.drafting, answer: '' }) }),
    splitAnswer: assign(({ context }) => ({
      form: { ...context.form, drafts: splitDrafts(context.platform, context.drafting.answer, context.form.brief.language), chosenDraft: null },
    })),
    addUploadedImages: assign(({ context }, params: { files: FileRef[]; error: string | null }) => ({
      form: { ...context.form, images: [...context.form.images, ...params.files] },
      failure: params.error ? { kind: 'upload' as const, message: params.error } : context.failure,
    })),
    lookAgain: raise({ type: 'refresh' }),
    rememberLeaveTo: assign((_, params: { to: string }) => ({ leaveTo: params.to })),
    forgetLeaveTo: assign({ leaveTo: null }),
    /** The operator confirmed: the screen goes where they asked, unsaved work left behind. */
    leave: (_, _params: { to: string }) => undefined,
  },
  delays: {
    refreshInterval: REFRESH_MS,
  },
  guards: {
    hasTaskId: ({ context }) => context.taskId !== null,
    isNotFound: ({ event }) => 'error' in event && typeof event.error === 'object' && event.error !== null && (event.error as { status?: number }).status === 404,
    canSave: ({ context }) => formIssues(context).length === 0 && contentEditable(context),
    isEditable: ({ context }) => contentEditable(context),
    /** The form differs from what the server holds. */
    isDirty: ({ context }) => isDirty(context),
    /** The action is one the task's status offers, and a schedule has a real time. */
    isActionOffered: ({ context, event }) => {
      assertEvent(event, 'transition');
      const { action } = event;
      return actionsOffered(context).includes(action.action) && (action.action !== 'schedule' || !Number.isNaN(Date.parse(action.scheduledAt)));
    },
    /** Unsaved changes, or drafts being written, that leaving would lose. */
    hasUnsavedWork: or(['isDirty', 'isWritingDrafts']),
    /** The writer agent is being asked, or is answering: the brief it was given stays as it is. */
    isWritingDrafts: or([stateIn({ drafting: 'starting' }), stateIn({ drafting: 'streaming' })]),
    /** The brief, the number of drafts and the choice among them can change. */
    isBriefOpen: and(['isEditable', not('isWritingDrafts')]),
    /** Scheduled, or being published: the scheduler may move it on while it is open. */
    awaitsScheduler: ({ context }) => context.saved !== null && ['scheduled', 'publishing'].includes(context.saved.status),
    /** Its time has come (or its post is going out): the server's copy may have changed. */
    isDue: ({ context }) =>
      context.saved !== null &&
      (context.saved.status === 'publishing' || (context.saved.scheduledAt !== null && Date.parse(context.saved.scheduledAt) <= Date.now())),
    hasPendingAction: ({ context }) => context.pendingAction !== null,
    isNew: ({ context }) => context.taskId === null,
    hasTopic: ({ context }) => context.form.brief.topic.trim().length > 0,
    wasAccepted: ({ context }) => context.drafting.accepted,
    canRetryDrafts: ({ context }) => context.drafting.session !== null && context.drafting.userMessageId !== null,
  },
}).createMachine({
  id: 'taskEditor',
  type: 'parallel',
  context: ({ input }) => ({
    taskId: input.taskId,
    platform: input.platform,
    saved: null,
    form: blankForm(input.language),
    baseline: blankForm(input.language),
    pendingAction: null,
    sentForm: null,
    draftCount: DRAFT_COUNT_DEFAULT,
    failure: null,
    notFound: false,
    drafting: idleDrafting(),
    leaveTo: null,
  }),
  on: {
    'form.change': { guard: 'isEditable', actions: { type: 'applyFormChange', params: ({ event }) => ({ patch: event.patch }) } },
    'brief.change': { guard: 'isBriefOpen', actions: { type: 'applyBriefChange', params: ({ event }) => ({ patch: event.patch }) } },
    'images.remove': { guard: 'isEditable', actions: { type: 'removeImage', params: ({ event }) => ({ fileId: event.fileId }) } },
    'images.move': { guard: 'isEditable', actions: { type: 'moveImage', params: ({ event }) => ({ fileId: event.fileId, by: event.by }) } },
    dismissFailure: { actions: 'clearFailure' },
    'drafts.count': { guard: 'isBriefOpen', actions: { type: 'setDraftCount', params: ({ event }) => ({ count: event.count }) } },
    'drafts.pick': { guard: 'isBriefOpen', actions: { type: 'pickDraft', params: ({ event }) => ({ index: event.index }) } },
  },
  states: {
    task: {
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'hasTaskId', target: 'loading' }, { target: 'editing' }] },
        loading: {
          invoke: {
            id: 'loadTask',
            src: 'loadTask',
            input: ({ context }) => ({ taskId: context.taskId ?? '' }),
            onDone: { target: 'editing', actions: { type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: false, form: context.form }) } },
            onError: [
              { guard: 'isNotFound', target: 'notFound', actions: 'markNotFound' },
              { target: 'loadFailed', actions: { type: 'fail', params: ({ event }) => ({ kind: 'load' as const, message: messageOf(event.error) }) } },
            ],
          },
        },
        loadFailed: { on: { reload: { target: 'loading', actions: 'clearFailure' } } },
        notFound: {},
        editing: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                refresh: { guard: and([not('isNew'), not('isDirty')]), target: 'refreshing' },
                save: { guard: 'canSave', target: 'saving' },
                transition: [
                  { guard: and(['isActionOffered', or(['isDirty', 'isNew']), 'canSave']), target: 'saving', actions: { type: 'rememberPendingAction', params: ({ event }) => ({ action: event.action }) } },
                  { guard: and(['isActionOffered', not('isDirty'), not('isNew')]), target: 'transitioning', actions: { type: 'rememberPendingAction', params: ({ event }) => ({ action: event.action }) } },
                ],
              },
            },
            refreshing: {
              entry: 'rememberSentForm',
              invoke: {
                id: 'refreshTask',
                src: 'loadTask',
                input: ({ context }) => ({ taskId: context.taskId ?? '' }),
                onDone: { target: 'idle', actions: { type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) } },
                onError: { target: 'idle' },
              },
            },
            saving: {
              entry: ['clearFailure', 'rememberSentForm'],
              invoke: {
                id: 'saveTask',
                src: 'saveTask',
                input: ({ context }) => ({ taskId: context.taskId, platform: context.platform, form: context.form }),
                onDone: [
                  { guard: and(['isNew', 'hasPendingAction']), target: 'transitioning', actions: [{ type: 'taskCreated', params: ({ event }) => ({ taskId: event.output.id }) }, { type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) }] },
                  { guard: 'hasPendingAction', target: 'transitioning', actions: [{ type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) }] },
                  { guard: 'isNew', target: 'idle', actions: [{ type: 'taskCreated', params: ({ event }) => ({ taskId: event.output.id }) }, { type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) }, { type: 'announceSaved', params: ({ event }) => ({ status: event.output.status }) }] },
                  { target: 'idle', actions: [{ type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) }, { type: 'announceSaved', params: ({ event }) => ({ status: event.output.status }) }] },
                ],
                onError: {
                  target: 'idle',
                  actions: ['forgetPendingAction', { type: 'fail', params: ({ event }) => ({ kind: 'save' as const, message: messageOf(event.error) }) }],
                },
              },
            },
            transitioning: {
              entry: ['clearFailure', 'rememberServerForm'],
              invoke: {
                id: 'transitionTask',
                src: 'transitionTask',
                input: ({ context }) => ({ taskId: context.taskId ?? '', action: context.pendingAction! }),
                onDone: {
                  target: 'idle',
                  actions: [
                    'forgetPendingAction',
                    { type: 'adoptTask', params: ({ event, context }) => ({ task: event.output, keepEdits: true, form: context.form }) },
                    { type: 'announceSaved', params: ({ event }) => ({ status: event.output.status }) },
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: ['forgetPendingAction', { type: 'fail', params: ({ event }) => ({ kind: 'transition' as const, message: messageOf(event.error) }) }],
                },
              },
            },
          },
        },
      },
    },
    uploads: {
      initial: 'idle',
      states: {
        idle: { on: { 'images.add': { guard: 'isEditable', target: 'uploading' } } },
        uploading: {
          invoke: {
            id: 'uploadImages',
            src: 'uploadImages',
            input: ({ event }) => {
              assertEvent(event, 'images.add');
              return { files: event.files };
            },
          },
          on: {
            'uploads.done': { target: 'idle', actions: { type: 'addUploadedImages', params: ({ event }) => event } },
          },
        },
      },
    },
    drafting: {
      initial: 'idle',
      states: {
        idle: { on: { 'drafts.generate': { guard: and(['isEditable', 'hasTopic']), target: 'starting' } } },
        starting: {
          entry: 'resetDrafting',
          invoke: {
            id: 'startDrafting',
            src: 'startDrafting',
            input: ({ context }) => ({ platform: context.platform, brief: context.form.brief, count: context.draftCount }),
            onDone: { target: 'streaming', actions: { type: 'keepDraftingSession', params: ({ event }) => ({ session: event.output }) } },
            onError: {
              target: 'failed',
              actions: { type: 'showDraftingFailure', params: ({ event }) => ({ kind: 'start' as const, message: messageOf(event.error) }) },
            },
          },
        },
        streaming: {
          entry: 'beginAnswer',
          invoke: {
            id: 'chatStream',
            src: 'chatStream',
            input: ({ context }) => {
              const session = context.drafting.session!;
              return context.drafting.userMessageId
                ? { conversationId: session.conversationId, agentId: session.agentId, retryMessageId: context.drafting.userMessageId }
                : { conversationId: session.conversationId, agentId: session.agentId, text: session.prompt };
            },
          },
          on: {
            'stream.accepted': {
              actions: { type: 'markAnswerAccepted', params: ({ event }) => ({ userMessageId: event.userMessageId }) },
            },
            'stream.delta': {
              actions: [{ type: 'appendToAnswer', params: ({ event }) => ({ text: event.text }) }, 'splitAnswer'],
            },
            'stream.ended': {
              target: 'done',
              actions: ['finishAnswer', 'splitAnswer'],
            },
            'stream.failed': [
              {
                guard: 'wasAccepted',
                target: 'cut',
                actions: { type: 'showDraftingFailure', params: ({ event }) => ({ kind: event.kind, message: event.message }) },
              },
              {
                target: 'failed',
                actions: { type: 'showDraftingFailure', params: ({ event }) => ({ kind: event.kind, message: event.message }) },
              },
            ],
            'drafts.stop': { target: 'cut' },
          },
        },
        done: { on: { 'drafts.generate': { guard: and(['isEditable', 'hasTopic']), target: 'starting' } } },
        /** Stopped, or the answer broke off: what arrived is kept, the last draft marked unfinished. */
        cut: {
          on: {
            'drafts.generate': { guard: and(['isEditable', 'hasTopic']), target: 'starting' },
            'drafts.retry': { guard: 'canRetryDrafts', target: 'streaming', actions: 'clearAnswer' },
          },
        },
        /**
         * Failed before the answer was accepted: the server holds no question to answer again, so
         * the way on is to ask anew (an accepted answer that breaks off goes to `cut`, with Retry).
         */
        failed: {
          on: {
            'drafts.generate': { guard: and(['isEditable', 'hasTopic']), target: 'starting' },
          },
        },
      },
    },
    /** While the scheduler may move the task on, the editor looks again every few seconds once it is due. */
    schedulerWatch: {
      initial: 'off',
      states: {
        off: { always: { guard: 'awaitsScheduler', target: 'watching' } },
        watching: {
          always: { guard: not('awaitsScheduler'), target: 'off' },
          after: {
            refreshInterval: [
              { guard: 'isDue', target: 'watching', reenter: true, actions: 'lookAgain' },
              { target: 'watching', reenter: true },
            ],
          },
        },
      },
    },
    /** Leaving with unsaved changes, or while drafts are being written, asks first. */
    leaving: {
      initial: 'staying',
      states: {
        staying: {
          on: {
            'leave.request': { guard: 'hasUnsavedWork', target: 'asking', actions: { type: 'rememberLeaveTo', params: ({ event }) => ({ to: event.to }) } },
          },
        },
        asking: {
          on: {
            'leave.request': { guard: 'hasUnsavedWork', target: 'asking', actions: { type: 'rememberLeaveTo', params: ({ event }) => ({ to: event.to }) } },
            'leave.stay': { target: 'staying', actions: 'forgetLeaveTo' },
            'leave.confirm': { target: 'staying', actions: [{ type: 'leave', params: ({ context }) => ({ to: context.leaveTo ?? '' }) }, 'forgetLeaveTo'] },
          },
        },
      },
    },
  },
});

type TaskEditorSnapshot = Pick<SnapshotFrom<typeof taskEditorMachine>, 'context' | 'can'>;

/** What the screen reads, from the same rules the machine decides by. */
export const taskEditorView = {
  /** The form differs from what the server holds: shown as "unsaved". */
  unsaved: (state: TaskEditorSnapshot) => isDirty(state.context),
  /** The content (brief, text, images, drafts) can change. */
  editable: (state: TaskEditorSnapshot) => state.can({ type: 'form.change', patch: {} }),
  /** The brief, the number of drafts and the choice of a draft can change (not while drafts are written). */
  briefOpen: (state: TaskEditorSnapshot) => state.can({ type: 'brief.change', patch: {} }),
  /** Following a link elsewhere must ask first. */
  mustAskBeforeLeaving: (state: TaskEditorSnapshot) => state.can({ type: 'leave.request', to: '' }),
  /** The next steps the task's status offers (each enabled while `state.can` the transition). */
  actionsOffered: (state: TaskEditorSnapshot) => actionsOffered(state.context),
};
