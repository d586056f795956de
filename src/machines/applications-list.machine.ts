import { assign, fromPromise, setup } from 'xstate';
import type { Application } from '../contract/applications';
import type { Page } from '../contract/paging';

/** The market shows this many applications beside the agents. */
export const APPLICATIONS_SHOWN = 20;

export type ApplicationsListContext = { items: Application[] };

export type ApplicationsListEvent = { type: 'retry' } | { type: 'application.start'; applicationId: string };

/**
 * The published applications in the market, beside the agents: one page, fetched when the market
 * opens, tried again on request; starting one opens a new `workflow` conversation with it.
 */
export const applicationsListMachine = setup({
  types: { context: {} as ApplicationsListContext, events: {} as ApplicationsListEvent },
  actors: {
    fetchApplications: fromPromise<Page<Application>, { pageSize: number }>(async () => {
      throw new Error('fetchApplications is provided where the market opens');
    }),
  },
  actions: {
    /** Opens a new workflow conversation with the application (the chat and the address bar follow). */
    startWorkflow: (_, _params: { applicationId: string; application?: Application }) => undefined,
    showApplications: assign((_, params: { page: Page<Application> }) => ({ items: params.page.list })),
  },
}).createMachine({
  id: 'applicationsList',
  context: { items: [] },
  initial: 'loading',
  on: {
    'application.start': {
      actions: {
        type: 'startWorkflow',
        params: ({ context, event }) => ({
          applicationId: event.applicationId,
          application: context.items.find((item) => item.applicationId === event.applicationId),
        }),
      },
    },
  },
  states: {
    loading: {
      invoke: {
        src: 'fetchApplications',
        input: { pageSize: APPLICATIONS_SHOWN },
        onDone: { target: 'ready', actions: { type: 'showApplications', params: ({ event }) => ({ page: event.output }) } },
        onError: 'failed',
      },
    },
    ready: {},
    failed: {
      on: { retry: 'loading' },
    },
  },
});
