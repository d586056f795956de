import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Page } from '../contract/paging';
import type { StudioAgent, StudioAgentSummary } from '../contract/studio';
import { studioFailureOf, type StudioFailure } from './agent-studio-form';

export type StudioScope = 'mine' | 'all';
export const STUDIO_PAGE_SIZE = 20;

export type AgentStudioListContext = {
  /** `all`: every agent, which only an admin may list. */
  scope: StudioScope;
  mayListAll: boolean;
  current: number;
  agents: StudioAgentSummary[];
  total: number;
  failure: StudioFailure | null;
  importFailure: StudioFailure | null;
};

export type AgentStudioListEvent =
  | { type: 'page'; current: number }
  | { type: 'scope'; scope: StudioScope }
  | { type: 'retry' }
  | { type: 'import'; file: File }
  | { type: 'dismiss' };

export const studioPages = ({ total }: Pick<AgentStudioListContext, 'total'>): number => Math.max(1, Math.ceil(total / STUDIO_PAGE_SIZE));

/**
 * The author's agents in the studio, newest change first, paged (an admin may list everyone's),
 * and an agent imported from a file: once the server has made it, its editor opens.
 */
export const agentStudioListMachine = setup({
  types: {
    context: {} as AgentStudioListContext,
    events: {} as AgentStudioListEvent,
    input: {} as { mayListAll: boolean },
  },
  actors: {
    listAgents: fromPromise<Page<StudioAgentSummary>, { current: number; pageSize: number; scope: StudioScope }>(async () => {
      throw new Error('listAgents is provided where the screen starts');
    }),
    importAgent: fromPromise<StudioAgent, { file: File }>(async () => {
      throw new Error('importAgent is provided where the screen starts');
    }),
  },
  actions: {
    /** The imported agent exists: its editor opens. */
    agentImported: (_, _params: { agentId: string }) => undefined,
    setPage: assign((_, params: { page: Page<StudioAgentSummary> }) => ({ agents: params.page.list, total: params.page.total, failure: null })),
    turnPage: assign((_, params: { current: number }) => ({ current: params.current })),
    changeScope: assign((_, params: { scope: StudioScope }) => ({ scope: params.scope, current: 1 })),
    fail: assign((_, params: { error: unknown }) => ({ failure: studioFailureOf(params.error) })),
    failImport: assign((_, params: { error: unknown }) => ({ importFailure: studioFailureOf(params.error) })),
    clearImportFailure: assign({ importFailure: null }),
  },
  guards: {
    isPageInRange: ({ context }, params: { current: number }) => params.current !== context.current && params.current >= 1 && params.current <= studioPages(context),
    isAnotherScope: ({ context }, params: { scope: StudioScope }) => params.scope !== context.scope && (params.scope === 'mine' || context.mayListAll),
  },
}).createMachine({
  id: 'agentStudioList',
  type: 'parallel',
  context: ({ input }) => ({ scope: 'mine', mayListAll: input.mayListAll, current: 1, agents: [], total: 0, failure: null, importFailure: null }),
  states: {
    list: {
      initial: 'loading',
      on: {
        scope: {
          guard: { type: 'isAnotherScope', params: ({ event }) => event },
          target: '.loading',
          actions: { type: 'changeScope', params: ({ event }) => event },
        },
      },
      states: {
        loading: {
          invoke: {
            id: 'listAgents',
            src: 'listAgents',
            input: ({ context }) => ({ current: context.current, pageSize: STUDIO_PAGE_SIZE, scope: context.scope }),
            onDone: { target: 'loaded', actions: { type: 'setPage', params: ({ event }) => ({ page: event.output }) } },
            onError: { target: 'failed', actions: { type: 'fail', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        failed: { on: { retry: 'loading' } },
        loaded: {
          on: {
            page: {
              guard: { type: 'isPageInRange', params: ({ event }) => event },
              target: 'loading',
              actions: { type: 'turnPage', params: ({ event }) => event },
            },
          },
        },
      },
    },
    import: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            import: { target: 'importing', actions: 'clearImportFailure' },
            dismiss: { actions: 'clearImportFailure' },
          },
        },
        importing: {
          invoke: {
            id: 'importAgent',
            src: 'importAgent',
            input: ({ event }) => {
              assertEvent(event, 'import');
              return { file: event.file };
            },
            onDone: { target: 'idle', actions: { type: 'agentImported', params: ({ event }) => ({ agentId: event.output.agentId }) } },
            onError: { target: 'idle', actions: { type: 'failImport', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
