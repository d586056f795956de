import { and, assertEvent, assign, fromPromise, not, or, raise, setup, stateIn, type SnapshotFrom } from 'xstate';
import type { FileRef } from '../contract/media';
import type { UsableModel } from '../contract/models';
import type { AgentDocument, AgentSaveRequest, AgentVersion, StudioAgent } from '../contract/studio';
import { AVATAR_TYPES } from './account-form.machine';
import {
  blankForm,
  contentOf,
  FIELD_OF_REASON,
  fieldsOf,
  formOf,
  isDirty,
  maxOutputCeiling,
  problemsAfterChange,
  problemsOf,
  studioFailureOf,
  type AgentForm,
  type FormProblems,
  type StudioFailure,
} from './agent-studio-form';

/** The agent's standing on the server, without its content (which the form holds). */
export type AgentStanding = Omit<StudioAgent, 'content'>;
/** What the studio was doing when a call failed, so the screen says it beside that. */
export type StudioAction = 'save' | 'publish' | 'preview' | 'export' | 'restore' | 'retire';
export type EditorFailure = StudioFailure & { action: StudioAction };
export type AvatarProblem = 'notImage' | 'tooLarge' | 'failed';
export type StudioNotice = 'saved' | 'published' | 'sentForApproval' | 'restored' | 'retired';

export const VERSIONS_PAGE_SIZE = 10;

export type AgentStudioContext = {
  agentId: string | null;
  agent: AgentStanding | null;
  models: UsableModel[];
  /** The organisation the agent belongs to (a new one: its author's); null: none. */
  companyId: string | null;
  /** An admin publishes to the public market without waiting for approval. */
  isAdmin: boolean;
  form: AgentForm;
  /** The form as last loaded or saved: anything different is unsaved. */
  baseline: AgentForm;
  /** The form as the last save went out: edits typed while it was out are kept. */
  sentForm: AgentForm | null;
  problems: FormProblems;
  /** What a save leads on to once it is done. */
  pending: 'publish' | 'preview' | null;
  failure: EditorFailure | null;
  loadFailure: StudioFailure | null;
  avatarProblem: AvatarProblem | null;
  uploadLimitBytes: number;
  versions: { list: AgentVersion[]; total: number; current: number };
  versionsFailure: StudioFailure | null;
  /** The version whose restoring waits for the author's yes. */
  restoreId: string | null;
  leaveTo: string | null;
};

export type AgentStudioEvent =
  | { type: 'field.change'; patch: Partial<AgentForm> }
  | { type: 'avatar.select'; file: File }
  | { type: 'save' }
  | { type: 'publish' }
  | { type: 'preview' }
  | { type: 'export' }
  | { type: 'retire' }
  | { type: 'restore'; versionId: string }
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'retry' }
  | { type: 'dismiss' }
  | { type: 'versions.open' }
  | { type: 'versions.close' }
  | { type: 'versions.page'; current: number }
  | { type: 'versions.refresh' }
  /** The author follows a link of the app elsewhere. */
  | { type: 'leave.request'; to: string }
  | { type: 'leave.confirm' }
  | { type: 'leave.stay' };

export type AgentStudioInput = { agentId: string | null; companyId: string | null; isAdmin: boolean; uploadLimitBytes: number };
export type OpenedAgent = { agent: StudioAgent | null; models: UsableModel[] };

const standingOf = ({ content: _content, ...standing }: StudioAgent): AgentStanding => standing;

/** Whether the agent needs an admin's approval once published: public, from anyone but an admin. */
export const awaitsApproval = (context: Pick<AgentStudioContext, 'form' | 'isAdmin'>): boolean => context.form.visibility === 'public' && !context.isAdmin;

/**
 * One agent in the studio: open it (or start a new one), edit its content, save it as a draft,
 * try it in a preview conversation, publish it as a version (waiting for an admin's approval when
 * it is for the public market), read its versions and restore one into the draft, export it, and
 * retire it. A failed call keeps everything typed and says why beside what it was about; leaving
 * with unsaved changes asks first.
 */
export const agentStudioMachine = setup({
  types: {
    context: {} as AgentStudioContext,
    events: {} as AgentStudioEvent,
    input: {} as AgentStudioInput,
  },
  actors: {
    openAgent: fromPromise<OpenedAgent, { agentId: string | null }>(async () => {
      throw new Error('openAgent is provided where the screen starts');
    }),
    saveAgent: fromPromise<StudioAgent, AgentSaveRequest>(async () => {
      throw new Error('saveAgent is provided where the screen starts');
    }),
    publishAgent: fromPromise<StudioAgent, { agentId: string }>(async () => {
      throw new Error('publishAgent is provided where the screen starts');
    }),
    startPreview: fromPromise<{ conversationId: string }, { agentId: string }>(async () => {
      throw new Error('startPreview is provided where the screen starts');
    }),
    exportAgent: fromPromise<AgentDocument, { agentId: string }>(async () => {
      throw new Error('exportAgent is provided where the screen starts');
    }),
    retireAgent: fromPromise<void, { agentId: string }>(async () => {
      throw new Error('retireAgent is provided where the screen starts');
    }),
    restoreVersion: fromPromise<StudioAgent, { agentId: string; versionId: string }>(async () => {
      throw new Error('restoreVersion is provided where the screen starts');
    }),
    listVersions: fromPromise<{ list: AgentVersion[]; total: number }, { agentId: string; current: number; pageSize: number }>(async () => {
      throw new Error('listVersions is provided where the screen starts');
    }),
    uploadAvatar: fromPromise<FileRef, { file: File }>(async () => {
      throw new Error('uploadAvatar is provided where the screen starts');
    }),
  },
  actions: {
    /** A new agent got its id: the screen moves to its address, keeping this editor. */
    agentCreated: (_, _params: { agentId: string }) => undefined,
    /** The preview conversation is ready: the chat opens it. */
    openPreview: (_, _params: { conversationId: string }) => undefined,
    /** The exported document, to be saved as a file. */
    deliverExport: (_, _params: { document: AgentDocument }) => undefined,
    notify: (_, _params: { notice: StudioNotice }) => undefined,
    /** The author confirmed leaving: the screen goes where they asked, unsaved work left behind. */
    leave: (_, _params: { to: string }) => undefined,
    adoptOpened: assign((_, params: { opened: OpenedAgent }) => {
      const { agent, models } = params.opened;
      const form = agent ? formOf(agent.content) : blankForm();
      return {
        models,
        agent: agent ? standingOf(agent) : null,
        ...(agent ? { agentId: agent.agentId, companyId: agent.companyId } : {}),
        form,
        baseline: form,
        loadFailure: null,
      };
    }),
    /** Takes the server's agent; edits typed while the call was out stay on top of it. */
    adoptAgent: assign(({ context }, params: { agent: StudioAgent }) => {
      const baseline = formOf(params.agent.content);
      const typedSince = context.sentForm !== null && JSON.stringify(context.form) !== JSON.stringify(context.sentForm);
      return {
        agent: standingOf(params.agent),
        agentId: params.agent.agentId,
        companyId: params.agent.companyId,
        baseline,
        form: typedSince ? context.form : baseline,
        sentForm: null,
      };
    }),
    /** A restored version replaces the draft, and what was typed with it. */
    replaceWithAgent: assign((_, params: { agent: StudioAgent }) => {
      const form = formOf(params.agent.content);
      return { agent: standingOf(params.agent), baseline: form, form, problems: {} };
    }),
    markRetired: assign(({ context }) => ({ agent: context.agent && { ...context.agent, retired: true, published: false, hasDraft: false, isDraft: false } })),
    changeFields: assign(({ context }, params: { patch: Partial<AgentForm> }) => {
      const changed = fieldsOf(params.patch);
      const about = context.failure?.reason ? FIELD_OF_REASON[context.failure.reason] : undefined;
      return {
        form: { ...context.form, ...params.patch },
        problems: problemsAfterChange(context.problems, changed),
        failure: about && changed.includes(about) ? null : context.failure,
      };
    }),
    checkForm: assign(({ context }) => ({
      problems: problemsOf(context.form, { ceiling: maxOutputCeiling(context.models, context.form.modelId), companyId: context.companyId }),
    })),
    rememberPending: assign((_, params: { pending: 'publish' | 'preview' | null }) => ({ pending: params.pending })),
    forgetPending: assign({ pending: null }),
    rememberSentForm: assign({ sentForm: ({ context }) => context.form }),
    /** A publish sends no form: the server answers with its own copy, so edits are measured from that. */
    rememberServerForm: assign({ sentForm: ({ context }) => context.baseline }),
    fail: assign((_, params: { action: StudioAction; error: unknown }) => ({ failure: { action: params.action, ...studioFailureOf(params.error) } })),
    failLoading: assign((_, params: { error: unknown }) => ({ loadFailure: studioFailureOf(params.error) })),
    clearFailure: assign({ failure: null }),
    refuseAvatar: assign((_, params: { problem: AvatarProblem }) => ({ avatarProblem: params.problem })),
    useAvatar: assign(({ context }, params: { url: string }) => ({
      form: { ...context.form, avatar: params.url },
      avatarProblem: null,
      failure: context.failure?.reason && FIELD_OF_REASON[context.failure.reason] === 'avatar' ? null : context.failure,
    })),
    clearAvatarProblem: assign({ avatarProblem: null }),
    setVersions: assign((_, params: { page: { list: AgentVersion[]; total: number } }) => ({
      versions: { ...params.page, current: 1 },
      versionsFailure: null,
    })),
    keepVersionsPage: assign(({ context }, params: { page: { list: AgentVersion[]; total: number } }) => ({
      versions: { ...context.versions, list: params.page.list, total: params.page.total },
      versionsFailure: null,
    })),
    turnVersionsPage: assign(({ context }, params: { current: number }) => ({ versions: { ...context.versions, current: params.current } })),
    firstVersionsPage: assign(({ context }) => ({ versions: { ...context.versions, current: 1 } })),
    failVersions: assign((_, params: { error: unknown }) => ({ versionsFailure: studioFailureOf(params.error) })),
    refreshVersions: raise({ type: 'versions.refresh' }),
    rememberRestore: assign((_, params: { versionId: string }) => ({ restoreId: params.versionId })),
    forgetRestore: assign({ restoreId: null }),
    rememberLeaveTo: assign((_, params: { to: string }) => ({ leaveTo: params.to })),
    forgetLeaveTo: assign({ leaveTo: null }),
  },
  guards: {
    isNew: ({ context }) => context.agentId === null,
    isDirty: ({ context }) => isDirty(context),
    hasProblems: ({ context }) => Object.keys(context.problems).length > 0,
    hasDraft: ({ context }) => context.agent?.hasDraft === true,
    isPublishPending: ({ context }) => context.pending === 'publish',
    isPreviewPending: ({ context }) => context.pending === 'preview',
    isNotFound: ({ event }) => 'error' in event && statusOfError(event.error) === 404,
    isRetired: (_, params: { opened: OpenedAgent }) => params.opened.agent?.retired === true,
    isKnownVersion: ({ context }, params: { versionId: string }) => context.versions.list.some((version) => version.versionId === params.versionId),
    isVersionsPageInRange: ({ context }, params: { current: number }) =>
      params.current !== context.versions.current && params.current >= 1 && params.current <= Math.max(1, Math.ceil(context.versions.total / VERSIONS_PAGE_SIZE)),
    isAvatarImage: ({ event }) => event.type === 'avatar.select' && AVATAR_TYPES.includes(event.file.type),
    isAvatarWithinLimit: ({ context, event }) => event.type === 'avatar.select' && event.file.size <= context.uploadLimitBytes,
    isUploadedImage: (_, params: { file: FileRef }) => params.file.kind === 'image',
    isEditing: stateIn({ agent: 'editing' }),
    /** Saved once: it has an id the server knows. */
    isSaved: ({ context }) => context.agentId !== null && context.agent !== null,
  },
}).createMachine({
  id: 'agentStudio',
  type: 'parallel',
  context: ({ input }) => ({
    agentId: input.agentId,
    agent: null,
    models: [],
    companyId: input.companyId,
    isAdmin: input.isAdmin,
    form: blankForm(),
    baseline: blankForm(),
    sentForm: null,
    problems: {},
    pending: null,
    failure: null,
    loadFailure: null,
    avatarProblem: null,
    uploadLimitBytes: input.uploadLimitBytes,
    versions: { list: [], total: 0, current: 1 },
    versionsFailure: null,
    restoreId: null,
    leaveTo: null,
  }),
  on: { dismiss: { actions: 'clearFailure' } },
  states: {
    agent: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'openAgent',
            src: 'openAgent',
            input: ({ context }) => ({ agentId: context.agentId }),
            onDone: [
              { guard: { type: 'isRetired', params: ({ event }) => ({ opened: event.output }) }, target: 'retired', actions: { type: 'adoptOpened', params: ({ event }) => ({ opened: event.output }) } },
              { target: 'editing', actions: { type: 'adoptOpened', params: ({ event }) => ({ opened: event.output }) } },
            ],
            onError: [{ guard: 'isNotFound', target: 'notFound' }, { target: 'loadFailed', actions: { type: 'failLoading', params: ({ event }) => ({ error: event.error }) } }],
          },
        },
        loadFailed: { on: { retry: 'loading' } },
        /** Not an agent of the author's (or an admin's), or none at all: the server does not say which. */
        notFound: {},
        /** Retired: read, exported and its versions listed, never changed again. */
        retired: {},
        editing: {
          on: { 'field.change': { actions: { type: 'changeFields', params: ({ event }) => ({ patch: event.patch }) } } },
          initial: 'idle',
          states: {
            idle: {
              on: {
                save: { guard: or(['isNew', 'isDirty']), target: 'validating', actions: [{ type: 'rememberPending', params: { pending: null } }, 'clearFailure'] },
                publish: { guard: or(['isNew', 'isDirty', 'hasDraft']), target: 'validating', actions: [{ type: 'rememberPending', params: { pending: 'publish' } }, 'clearFailure'] },
                preview: { target: 'validating', actions: [{ type: 'rememberPending', params: { pending: 'preview' } }, 'clearFailure'] },
                retire: { guard: 'isSaved', target: 'askingRetire', actions: 'clearFailure' },
                restore: {
                  guard: { type: 'isKnownVersion', params: ({ event }) => ({ versionId: event.versionId }) },
                  target: 'askingRestore',
                  actions: [{ type: 'rememberRestore', params: ({ event }) => ({ versionId: event.versionId }) }, 'clearFailure'],
                },
              },
            },
            validating: {
              entry: 'checkForm',
              always: [
                { guard: 'hasProblems', target: 'idle', actions: 'forgetPending' },
                { guard: or(['isNew', 'isDirty']), target: 'saving' },
                // Nothing to save (Save draft is offered only with something to save): on to what was asked.
                { guard: 'isPublishPending', target: 'publishing' },
                { target: 'previewing' },
              ],
            },
            saving: {
              entry: 'rememberSentForm',
              invoke: {
                id: 'saveAgent',
                src: 'saveAgent',
                input: ({ context }) => ({ ...(context.agentId ? { agentId: context.agentId } : {}), ...contentOf(context.form) }),
                onDone: [
                  {
                    guard: 'isNew',
                    target: 'saved',
                    actions: [
                      { type: 'adoptAgent', params: ({ event }) => ({ agent: event.output }) },
                      { type: 'agentCreated', params: ({ event }) => ({ agentId: event.output.agentId }) },
                    ],
                  },
                  { target: 'saved', actions: { type: 'adoptAgent', params: ({ event }) => ({ agent: event.output }) } },
                ],
                onError: {
                  target: 'idle',
                  actions: ['forgetPending', { type: 'fail', params: ({ event }) => ({ action: 'save' as const, error: event.error }) }],
                },
              },
            },
            /** Saved: on to what the save was for. */
            saved: {
              always: [
                { guard: 'isPublishPending', target: 'publishing' },
                { guard: 'isPreviewPending', target: 'previewing' },
                { target: 'idle', actions: { type: 'notify', params: { notice: 'saved' } } },
              ],
            },
            publishing: {
              entry: ['forgetPending', 'rememberServerForm'],
              invoke: {
                id: 'publishAgent',
                src: 'publishAgent',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'adoptAgent', params: ({ event }) => ({ agent: event.output }) },
                    { type: 'notify', params: ({ event }) => ({ notice: event.output.approval === 'pending' ? ('sentForApproval' as const) : ('published' as const) }) },
                    'refreshVersions',
                  ],
                },
                onError: { target: 'idle', actions: { type: 'fail', params: ({ event }) => ({ action: 'publish' as const, error: event.error }) } },
              },
            },
            previewing: {
              entry: 'forgetPending',
              invoke: {
                id: 'startPreview',
                src: 'startPreview',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: { target: 'idle', actions: { type: 'openPreview', params: ({ event }) => ({ conversationId: event.output.conversationId }) } },
                onError: { target: 'idle', actions: { type: 'fail', params: ({ event }) => ({ action: 'preview' as const, error: event.error }) } },
              },
            },
            askingRetire: { on: { confirm: 'retiring', cancel: 'idle' } },
            retiring: {
              invoke: {
                id: 'retireAgent',
                src: 'retireAgent',
                input: ({ context }) => ({ agentId: context.agentId! }),
                onDone: { target: '#agentStudio.agent.retired', actions: ['markRetired', { type: 'notify', params: { notice: 'retired' } }] },
                onError: { target: 'idle', actions: { type: 'fail', params: ({ event }) => ({ action: 'retire' as const, error: event.error }) } },
              },
            },
            askingRestore: { on: { confirm: 'restoring', cancel: { target: 'idle', actions: 'forgetRestore' } } },
            restoring: {
              invoke: {
                id: 'restoreVersion',
                src: 'restoreVersion',
                input: ({ context }) => ({ agentId: context.agentId!, versionId: context.restoreId! }),
                onDone: {
                  target: 'idle',
                  actions: ['forgetRestore', { type: 'replaceWithAgent', params: ({ event }) => ({ agent: event.output }) }, { type: 'notify', params: { notice: 'restored' } }],
                },
                onError: { target: 'idle', actions: ['forgetRestore', { type: 'fail', params: ({ event }) => ({ action: 'restore' as const, error: event.error }) }] },
              },
            },
          },
        },
      },
    },
    /** A picture for the agent, uploaded while the author goes on editing. */
    avatar: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'avatar.select': [
              { guard: and(['isEditing', not('isAvatarImage')]), actions: { type: 'refuseAvatar', params: { problem: 'notImage' } } },
              { guard: and(['isEditing', not('isAvatarWithinLimit')]), actions: { type: 'refuseAvatar', params: { problem: 'tooLarge' } } },
              { guard: 'isEditing', target: 'uploading', actions: 'clearAvatarProblem' },
            ],
          },
        },
        uploading: {
          invoke: {
            id: 'uploadAvatar',
            src: 'uploadAvatar',
            input: ({ event }) => {
              assertEvent(event, 'avatar.select');
              return { file: event.file };
            },
            onDone: [
              // Retired meanwhile: the picture is no longer wanted.
              { guard: not('isEditing'), target: 'idle' },
              {
                guard: { type: 'isUploadedImage', params: ({ event }) => ({ file: event.output }) },
                target: 'idle',
                actions: { type: 'useAvatar', params: ({ event }) => ({ url: event.output.url }) },
              },
              { target: 'idle', actions: { type: 'refuseAvatar', params: { problem: 'notImage' } } },
            ],
            onError: { target: 'idle', actions: { type: 'refuseAvatar', params: { problem: 'failed' } } },
          },
        },
      },
    },
    /** The agent as a file for another installation: what the server holds, draft first. */
    export: {
      initial: 'idle',
      states: {
        idle: { on: { export: { guard: 'isSaved', target: 'exporting' } } },
        exporting: {
          invoke: {
            id: 'exportAgent',
            src: 'exportAgent',
            input: ({ context }) => ({ agentId: context.agentId! }),
            onDone: { target: 'idle', actions: { type: 'deliverExport', params: ({ event }) => ({ document: event.output }) } },
            onError: { target: 'idle', actions: { type: 'fail', params: ({ event }) => ({ action: 'export' as const, error: event.error }) } },
          },
        },
      },
    },
    /** The agent's versions, newest first, paged, read when the author opens them. */
    versions: {
      initial: 'closed',
      states: {
        closed: { on: { 'versions.open': { guard: 'isSaved', target: 'loading', actions: 'firstVersionsPage' } } },
        loading: {
          on: { 'versions.close': 'closed', 'versions.refresh': { target: 'loading', reenter: true, actions: 'firstVersionsPage' } },
          invoke: {
            id: 'listVersions',
            src: 'listVersions',
            input: ({ context }) => ({ agentId: context.agentId!, current: context.versions.current, pageSize: VERSIONS_PAGE_SIZE }),
            onDone: { target: 'shown', actions: { type: 'keepVersionsPage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'failed', actions: { type: 'failVersions', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        shown: {
          on: {
            'versions.close': 'closed',
            'versions.refresh': { target: 'loading', actions: 'firstVersionsPage' },
            'versions.page': {
              guard: { type: 'isVersionsPageInRange', params: ({ event }) => ({ current: event.current }) },
              target: 'loading',
              actions: { type: 'turnVersionsPage', params: ({ event }) => ({ current: event.current }) },
            },
          },
        },
        failed: { on: { retry: 'loading', 'versions.close': 'closed', 'versions.refresh': { target: 'loading', actions: 'firstVersionsPage' } } },
      },
    },
    /** Leaving with unsaved changes asks first. */
    leaving: {
      initial: 'staying',
      states: {
        staying: {
          on: { 'leave.request': { guard: and(['isEditing', 'isDirty']), target: 'asking', actions: { type: 'rememberLeaveTo', params: ({ event }) => ({ to: event.to }) } } },
        },
        asking: {
          on: {
            'leave.request': { actions: { type: 'rememberLeaveTo', params: ({ event }) => ({ to: event.to }) } },
            'leave.stay': { target: 'staying', actions: 'forgetLeaveTo' },
            'leave.confirm': { target: 'staying', actions: [{ type: 'leave', params: ({ context }) => ({ to: context.leaveTo ?? '' }) }, 'forgetLeaveTo'] },
          },
        },
      },
    },
  },
});

const statusOfError = (error: unknown) => (typeof error === 'object' && error !== null && 'status' in error ? (error as { status?: number }).status : undefined);

type AgentStudioSnapshot = Pick<SnapshotFrom<typeof agentStudioMachine>, 'context' | 'can' | 'matches'>;

/** What the screen reads, from the same rules the machine decides by. */
export const agentStudioView = {
  unsaved: (state: AgentStudioSnapshot) => isDirty(state.context),
  editable: (state: AgentStudioSnapshot) => state.matches({ agent: 'editing' }),
  /** Following a link elsewhere must ask first. */
  mustAskBeforeLeaving: (state: AgentStudioSnapshot) => state.can({ type: 'leave.request', to: '' }),
  busy: (state: AgentStudioSnapshot): StudioAction | null =>
    state.matches({ agent: { editing: 'saving' } })
      ? 'save'
      : state.matches({ agent: { editing: 'publishing' } })
        ? 'publish'
        : state.matches({ agent: { editing: 'previewing' } })
          ? 'preview'
          : state.matches({ agent: { editing: 'retiring' } })
            ? 'retire'
            : state.matches({ agent: { editing: 'restoring' } })
              ? 'restore'
              : state.matches({ export: 'exporting' })
                ? 'export'
                : null,
  /** A publish of the form as it is would wait for an admin. */
  awaitsApproval: (state: AgentStudioSnapshot) => awaitsApproval(state.context),
};
