import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../../components/agent-avatar';
import { agentWords } from '../../contract/agents';
import { agentDetailLogic } from '../../app/agents-actors';
import { useFollow } from '../../app/use-follow';
import { useScreenActor } from '../../app/use-screen-actor';

/** The agent a chat talks to, fetched once per agent and followed as the chat changes agent. */
export const useAgentDetail = (agentId: string) => {
  const detail = useScreenActor(agentDetailLogic, { input: { agentId } });
  useFollow(detail, { type: 'agent.change', agentId });
  return detail;
};
export type AgentDetailActor = ReturnType<typeof useAgentDetail>;

/** The agent the open chat talks to: avatar, name and intro. */
export const AgentHeader = ({ agentId }: { agentId: string }) => <AgentHeaderView detail={useAgentDetail(agentId)} />;

export const AgentHeaderView = ({ detail }: { detail: AgentDetailActor }) => {
  const { t, i18n } = useTranslation();
  const agent = useSelector(detail, (state) => state.context.agent);
  const failed = useSelector(detail, (state) => state.matches('failed'));
  const canRetry = useSelector(detail, (state) => state.can({ type: 'retry' }));

  if (!agent) {
    // As tall as the agent's name over its intro, so the chat below does not move when they come.
    return (
      <div className="flex min-h-10 min-w-0 flex-1 items-center gap-3" data-testid="chat-agent">
        <span className="h-9 w-9 shrink-0 animate-pulse rounded-full bg-raised" aria-hidden="true" />
        <p role="status" className="m-0 text-sm text-muted">
          {failed ? t('chat.agentUnknown') : t('chat.agentLoading')}
        </p>
        {canRetry && (
          <button type="button" className="btn-outline shrink-0" onClick={() => detail.send({ type: 'retry' })}>
            {t('app.retry')}
          </button>
        )}
      </div>
    );
  }
  const { name, intro } = agentWords(agent, i18n.language);
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3" data-testid="chat-agent">
      <AgentAvatar src={agent.avatar} name={name} size={36} />
      <div className="min-w-0">
        <h1 className="m-0 truncate text-base font-semibold" data-testid="chat-agent-name">
          {name}
        </h1>
        <p className="m-0 truncate text-xs text-muted" title={intro}>
          {intro}
        </p>
      </div>
    </div>
  );
};
