import { assertEvent, assign, fromPromise, setup } from 'xstate';
import type { Agent } from '../contract/agents';

export type AgentDetailContext = {
  agentId: string;
  agent: Agent | null;
  /** Agents already fetched, so switching between chats does not ask again. */
  known: Record<string, Agent>;
};

export type AgentDetailEvent = { type: 'agent.change'; agentId: string } | { type: 'retry' };

/** The agent a chat talks to, for the chat header: fetched once per agent id. */
export const agentDetailMachine = setup({
  types: {
    context: {} as AgentDetailContext,
    events: {} as AgentDetailEvent,
    input: {} as { agentId: string },
  },
  actors: {
    fetchAgent: fromPromise<Agent, { agentId: string }>(async () => {
      throw new Error('fetchAgent is provided where the header is shown');
    }),
  },
  actions: {
    /** The fetched agent is shown, and kept for the next time a chat with it opens. */
    rememberAgent: assign(({ context }, params: { agent: Agent }) => ({
      agent: params.agent,
      known: { ...context.known, [params.agent.agentId]: params.agent },
    })),
    switchAgent: assign(({ context, event }) => {
      assertEvent(event, 'agent.change');
      return { agentId: event.agentId, agent: context.known[event.agentId] ?? null };
    }),
  },
  guards: {
    isKnown: ({ context }) => context.agentId in context.known,
    isOtherAgent: ({ context, event }) => event.type === 'agent.change' && event.agentId !== context.agentId,
  },
}).createMachine({
  id: 'agentDetail',
  context: ({ input }) => ({ agentId: input.agentId, agent: null, known: {} }),
  initial: 'choosing',
  on: {
    'agent.change': { guard: 'isOtherAgent', target: '.choosing', actions: 'switchAgent' },
  },
  states: {
    choosing: {
      always: [{ guard: 'isKnown', target: 'ready' }, { target: 'loading' }],
    },
    loading: {
      invoke: {
        src: 'fetchAgent',
        input: ({ context }) => ({ agentId: context.agentId }),
        onDone: {
          target: 'ready',
          actions: { type: 'rememberAgent', params: ({ event }) => ({ agent: event.output }) },
        },
        onError: 'failed',
      },
    },
    ready: {},
    failed: {
      on: { retry: 'loading' },
    },
  },
});
