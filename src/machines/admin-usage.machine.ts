import { assign, fromPromise, setup } from 'xstate';
import type { Usage } from '../contract/admin';
import { failureOf, type AdminFailure } from './admin-console.machine';

export const USAGE_WINDOWS = [7, 30, 90] as const;
export type UsageWindow = (typeof USAGE_WINDOWS)[number];

export type AdminUsageContext = { days: UsageWindow; usage: Usage | null; failure: AdminFailure | null };
export type AdminUsageEvent = { type: 'days.pick'; days: UsageWindow } | { type: 'retry' };

/** The busiest day's questions, the scale of the chart (at least 1, so an empty window draws flat). */
export const busiestDay = (usage: Usage): number => Math.max(1, ...usage.days.map((day) => day.questions));

/** Questions and tokens over the last 7, 30 or 90 days: per day, per account, per agent. */
export const adminUsageMachine = setup({
  types: { context: {} as AdminUsageContext, events: {} as AdminUsageEvent },
  actors: {
    loadUsage: fromPromise<Usage, { days: number }>(async () => {
      throw new Error('loadUsage is provided where the app starts');
    }),
  },
  actions: {
    setUsage: assign((_, params: { usage: Usage }) => ({ usage: params.usage, failure: null })),
    setDays: assign((_, params: { days: UsageWindow }) => ({ days: params.days })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: failureOf(params.error) })),
  },
  guards: {
    isAnotherWindow: ({ context }, params: { days: UsageWindow }) => context.days !== params.days,
  },
}).createMachine({
  id: 'adminUsage',
  context: { days: 30, usage: null, failure: null },
  on: {
    'days.pick': {
      guard: { type: 'isAnotherWindow', params: ({ event }) => event },
      target: '.loading',
      actions: { type: 'setDays', params: ({ event }) => event },
    },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadUsage',
        input: ({ context }) => ({ days: context.days }),
        onDone: { target: 'loaded', actions: { type: 'setUsage', params: ({ event }) => ({ usage: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loaded: {},
    failed: { on: { retry: 'loading' } },
  },
});
