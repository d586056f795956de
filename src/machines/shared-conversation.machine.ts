import { assign, fromPromise, setup } from 'xstate';
import type { SharedConversation } from '../contract/shares';
import { statusOf } from './error-status';

/** A shared conversation read by its link: shown, gone (revoked or never made), or failed to load. */
export const sharedConversationMachine = setup({
  types: {
    context: {} as { token: string; shared: SharedConversation | null },
    events: {} as { type: 'retry' },
    input: {} as { token: string },
  },
  actors: {
    fetchShared: fromPromise<SharedConversation, { token: string }>(async () => {
      throw new Error('fetchShared is provided where the shared page opens');
    }),
  },
  actions: {
    showShared: assign((_, params: { shared: SharedConversation }) => ({ shared: params.shared })),
  },
  guards: {
    /** 404 for a revoked or unknown link, 400 for one that could never have been made. */
    isGone: (_, params: { error: unknown }) => [400, 404].includes(statusOf(params.error) ?? 0),
  },
}).createMachine({
  id: 'sharedConversation',
  context: ({ input }) => ({ token: input.token, shared: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'fetchShared',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'ready', actions: { type: 'showShared', params: ({ event }) => ({ shared: event.output }) } },
        onError: [{ guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) }, target: 'gone' }, { target: 'failed' }],
      },
    },
    ready: {},
    gone: {},
    failed: {
      on: { retry: 'loading' },
    },
  },
});
