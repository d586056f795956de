import { fromPromise } from 'xstate';
import { agentDetailMachine } from '../machines/agent-detail.machine';
import { agentsMarketMachine } from '../machines/agents-market.machine';
import { applicationsListMachine } from '../machines/applications-list.machine';
import { listApplications } from '../services/api/applications';
import { getAgentDetail, listPublishedAgents } from '../services/api/agents';
import { noteAgent } from './offline-keeping';
import type { Navigate, Runtime } from './runtime';

/**
 * The real side effects of the agents' screen machines (the market, one agent's detail), given
 * here rather than in the screens, so a screen only reads its machine and sends events.
 */
export const agentsMarketLogic = ({ chat, navigate }: Pick<Runtime, 'chat'> & { navigate: Navigate }) =>
  agentsMarketMachine.provide({
    actors: {
      fetchPage: fromPromise(({ input }) =>
        listPublishedAgents(
          {
            current: input.current,
            pageSize: input.pageSize,
            ...(input.keyword ? { keyword: input.keyword } : {}),
            ...(input.category ? { category: input.category } : {}),
          },
          { silent: true },
        ),
      ),
    },
    actions: {
      startChat: (_, { agentId }) => {
        chat.send({ type: 'conversation.new', agentId });
        navigate('/chat');
      },
    },
  });

export const agentDetailLogic = agentDetailMachine.provide({
  actors: {
    fetchAgent: fromPromise(async ({ input }) => {
      const agent = await getAgentDetail(input.agentId, { silent: true });
      // Its name goes with the conversations kept for reading offline.
      noteAgent(agent);
      return agent;
    }),
  },
});

export const applicationsListLogic = ({ chat, navigate }: Pick<Runtime, 'chat'> & { navigate: Navigate }) =>
  applicationsListMachine.provide({
    actors: { fetchApplications: fromPromise(({ input }) => listApplications({ current: 1, pageSize: input.pageSize }, { silent: true })) },
    actions: {
      startWorkflow: (_, { applicationId, application }) => {
        chat.send({
          type: 'conversation.new',
          agentId: applicationId,
          source: 'workflow',
          ...(application
            ? {
                application: {
                  name: application.name,
                  avatar: application.avatar,
                  intro: application.intro,
                  ...(application.translations ? { translations: application.translations } : {}),
                },
              }
            : {}),
        });
        navigate('/chat');
      },
    },
  });
