import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../../components/agent-avatar';
import { agentWords, type Agent } from '../../contract/agents';

/** One published agent in the market: picture, name, intro and creator; opens its detail. */
export const AgentCard = memo(({ agent, onOpen }: { agent: Agent; onOpen: (agentId: string) => void }) => {
  const { t, i18n } = useTranslation();
  const { name, intro } = agentWords(agent, i18n.language);
  return (
    <li className="list-none">
      <button
        type="button"
        className="flex h-full w-full flex-col gap-2 rounded-xl border border-line bg-surface p-4 text-start text-fg shadow-sm transition-colors hover:border-accent focus-visible:outline-2 focus-visible:outline-accent focus-visible:outline-offset-2"
        aria-label={t('agents.open', { name })}
        data-testid="agent-card"
        onClick={() => onOpen(agent.agentId)}
      >
        <span className="flex items-center gap-3">
          <AgentAvatar src={agent.avatar} name={name} size={44} />
          <span className="min-w-0">
            {/* Long names (German compounds) wrap onto a second line, hyphenated where the language allows. */}
            <span className="line-clamp-2 hyphens-auto font-semibold leading-snug [overflow-wrap:anywhere]" title={name}>
              {name}
            </span>
            <span className="block truncate text-xs text-muted">{t('agents.by', { name: agent.createByName })}</span>
          </span>
        </span>
        <span className="line-clamp-3 text-sm text-muted">{intro}</span>
      </button>
    </li>
  );
});
AgentCard.displayName = 'AgentCard';
