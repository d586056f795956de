import { act, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { endpoints } from '../../contract/endpoints';
import type { Agent } from '../../contract/agents';
import { agentDetailMachine } from '../../machines/agent-detail.machine';
import { seedAgent } from '../../../tests/msw/db';
import { recordRequests, type SeenRequest } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { holdRequests, responseFor } from '../../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../../tests/spa/models/production-paths';
import { AgentHeader } from './agent-header';

/**
 * The chat header's agent, with paths generated from the machine that ships: the server's answers
 * (the agent asked for, or a failure) and the person's moves between chats with two agents are
 * the events, and each path is played on the real header with the fake API holding every request
 * until the path says how it is answered. An agent is fetched once: going back to a chat with an
 * agent already shown shows it at once, without asking again.
 */
type Snapshot = SnapshotFrom<typeof agentDetailMachine>;

const AGENTS: Record<string, Partial<Agent>> = {
  'agent-a': { agentId: 'agent-a', name: 'Atlas the planner', intro: 'Plans trips.' },
  'agent-b': { agentId: 'agent-b', name: 'Bard the writer', intro: 'Writes verses.' },
};
const agentOf = (agentId: string) => ({ ...seedAgentShape, ...AGENTS[agentId] }) as Agent;
const seedAgentShape: Agent = {
  id: 'x', agentId: 'x', name: '', avatar: '', intro: '', createBy: 'company', createByName: 'Company', updateBy: 'company',
  updateByName: 'Company', versionId: 'v1', companyId: 'company', public: true, published: true, isDraft: false,
} as Agent;

const FETCH = 'xstate.done.actor.0.agentDetail.loading';
const FETCH_FAILED = 'xstate.error.actor.0.agentDetail.loading';

/**
 * What the world can do: the server answers with the agent asked for, or fails; the person opens a
 * chat with either agent, or asks again for an agent the header could not show.
 */
const events = (state: Snapshot): ModelEvent[] => [
  { type: FETCH, output: agentOf(state.context.agentId) },
  { type: FETCH_FAILED, error: { status: 500 } },
  ...Object.keys(AGENTS).map((agentId) => ({ type: 'agent.change', agentId })),
  { type: 'retry' },
];
const serializeState = (state: Snapshot) =>
  `${JSON.stringify(state.value)} ${state.context.agentId} shows ${state.context.agent?.agentId ?? '-'} knows ${Object.keys(state.context.known).sort().join(',')}`;
const input = { agentId: 'agent-a' };
const { paths, transitionCount } = productionPaths(agentDetailMachine, { events, input, serializeState });

type World = {
  /** The agent of the open chat, and the agents the server has already given. */
  current: string;
  /** How many times each agent had been asked for when the server gave it. */
  given: Map<string, number>;
  requests: SeenRequest[];
  answer: ReturnType<typeof holdRequests>['answer'];
  held: ReturnType<typeof holdRequests>['held'];
  openChatWith: (agentId: string) => void;
  user: Awaited<ReturnType<typeof renderWithRuntime>>['user'];
  last: string;
};

/** Where the header must be after what last happened: the product's rule, not the machine's. */
const EXPECTED_AFTER: Record<string, string> = {
  start: 'loading',
  'server gives the agent': 'ready',
  'server fails': 'failed',
  'chat with an agent already shown': 'ready',
  'chat with an agent not shown yet': 'loading',
  // the agent that could not be shown is asked for again
  'click try again': 'loading',
};
const expectState = (world: World, state: string) => expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);

const asked = (world: World, agentId: string) => world.requests.filter((request) => new URLSearchParams(request.search).get('agentId') === agentId).length;

/** An agent the server has given is never asked for again. */
const askedOncePerAgent = (world: World) => {
  for (const [agentId, askedWhenGiven] of world.given) expect(asked(world, agentId), `requests for ${agentId}`).toBe(askedWhenGiven);
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    loading: async () => {
      expectState(world(), 'loading');
      expect(screen.getByRole('status')).toHaveTextContent('Loading the agent…');
      expect(screen.queryByTestId('chat-agent-name')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      await waitFor(() => expect(world().held.some((request) => request.url.searchParams.get('agentId') === world().current)).toBe(true));
      askedOncePerAgent(world());
    },
    ready: async () => {
      expectState(world(), 'ready');
      const name = AGENTS[world().current]!.name!;
      expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent(name);
      expect(screen.getByText(AGENTS[world().current]!.intro!)).toBeInTheDocument();
      expect(screen.queryByRole('status')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
      askedOncePerAgent(world());
    },
    failed: async () => {
      expectState(world(), 'failed');
      expect(await screen.findByRole('status')).toHaveTextContent('Agent details unavailable');
      expect(screen.queryByTestId('chat-agent-name')).toBeNull();
      expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled();
      askedOncePerAgent(world());
    },
  },
  events: {
    [FETCH]: async () => {
      const agentId = world().current;
      world().last = 'server gives the agent';
      world().given.set(agentId, asked(world(), agentId));
      await world().answer('agentDetail', responseFor({ output: agentOf(agentId) }), (url) => url.searchParams.get('agentId') === agentId);
    },
    [FETCH_FAILED]: async () => {
      const agentId = world().current;
      world().last = 'server fails';
      await world().answer('agentDetail', responseFor({ error: { status: 500 } }), (url) => url.searchParams.get('agentId') === agentId);
    },
    'agent.change': ({ event }) => {
      const { agentId } = event as ModelEvent & { agentId: string };
      world().last = world().given.has(agentId) ? 'chat with an agent already shown' : 'chat with an agent not shown yet';
      world().current = agentId;
      world().openChatWith(agentId);
    },
    retry: async () => {
      world().last = 'click try again';
      await world().user.click(screen.getByRole('button', { name: 'Try again' }));
    },
  },
});

describe('the chat header, paths generated from the production agent-detail machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state the header shows, and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.state.value))));
    // "choosing" is a decision taken at once, never a place the header rests in.
    const declared = Object.keys(agentDetailMachine.root.states).filter((state) => state !== 'choosing');
    expect([...reached].map((value) => JSON.parse(value) as string).sort()).toEqual(declared.sort());
    // From each of the 6 places (loading, ready or failed; agent a or b) reached with what is known:
    // the answer, the failure, the move to the other agent, and from a failure, "Try again".
    expect(transitionCount).toBe(24);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events, (event) => (event.output as Agent).name).replaceAll('agent.change', 'open another chat').replace(/\bretry$/, 'try again'), path] as const))('%s', async (_name, path) => {
    for (const agent of Object.values(AGENTS)) seedAgent(agent);
    const requests = recordRequests(endpoints.agentDetail.path);
    const { answer, held } = holdRequests({ agentDetail: endpoints.agentDetail });
    let openChatWith: (agentId: string) => void = () => undefined;
    const Chat = () => {
      const [agentId, setAgentId] = useState(input.agentId);
      openChatWith = (next) => act(() => setAgentId(next));
      return <AgentHeader agentId={agentId} />;
    };
    const { user } = await renderWithRuntime(<Chat />, { url: '/chat' });
    world = { current: input.agentId, given: new Map(), requests, answer, held, openChatWith, user, last: 'start' };
    await path.test(testParams);
  });
});
