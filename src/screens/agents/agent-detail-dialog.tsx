import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../../components/agent-avatar';
import { ModalDialog } from '../../components/modal-dialog';
import { AGENT_CATEGORIES, agentStarters, agentWords, type Agent } from '../../contract/agents';
import { formatDateTime } from '../../i18n/format';

type AgentDetailDialogProps = {
  agent: Agent | null;
  onClose: () => void;
  onStart: (agentId: string) => void;
};

const isKnownCategory = (category: string): category is (typeof AGENT_CATEGORIES)[number] => (AGENT_CATEGORIES as readonly string[]).includes(category);

/** What the market knows of an agent besides its words: only the facts it has. */
const AgentFacts = ({ agent }: { agent: Agent }) => {
  const { t, i18n } = useTranslation();
  const category = agent.category && (isKnownCategory(agent.category) ? t(`agents.category.${agent.category}`) : agent.category);
  const label = 'm-0 text-muted';
  const value = 'm-0 min-w-0 [overflow-wrap:anywhere]';
  return (
    <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="agent-facts">
      {category && (
        <>
          <dt className={label}>{t('agents.categoryLabel')}</dt>
          <dd className={value}>{category}</dd>
        </>
      )}
      <dt className={label}>{t('agents.author')}</dt>
      <dd className={value}>{agent.createByName}</dd>
      {agent.updatedAt && (
        <>
          <dt className={label}>{t('agents.updated')}</dt>
          <dd className={value}>
            <time dateTime={agent.updatedAt}>{formatDateTime(agent.updatedAt, i18n.language, { dateStyle: 'long' })}</time>
          </dd>
        </>
      )}
    </dl>
  );
};

/** An agent's detail: what it does, questions to start with, who made it, and the way to start a chat with it. */
export const AgentDetailDialog = ({ agent, onClose, onStart }: AgentDetailDialogProps) => {
  const { t, i18n } = useTranslation();
  const words = agent ? agentWords(agent, i18n.language) : null;
  const starters = agent ? agentStarters(agent, i18n.language) : [];
  return (
    <ModalDialog open={agent !== null} onClose={onClose} label={words?.name ?? t('agents.title')} className="w-[min(32rem,calc(100vw-2rem))] rounded-2xl">
      {agent && words && (
        <div className="flex flex-col gap-4 p-6" data-testid="agent-detail">
          <div className="flex items-center gap-4">
            <AgentAvatar src={agent.avatar} name={words.name} size={64} />
            <h2 className="m-0 min-w-0 hyphens-auto text-xl font-semibold leading-snug [overflow-wrap:anywhere]">{words.name}</h2>
          </div>
          <p className="m-0 whitespace-pre-wrap break-words">{words.intro}</p>
          <AgentFacts agent={agent} />
          {starters.length > 0 && (
            <section className="flex flex-col gap-2">
              <h3 className="m-0 text-sm font-semibold">{t('agents.starters')}</h3>
              <ul className="m-0 flex list-none flex-col gap-1.5 p-0">
                {starters.map((question) => (
                  <li key={question} dir="auto" className="flex items-start gap-2 rounded-lg bg-raised px-3 py-2 text-sm">
                    <span className="i-lucide-message-circle mt-0.5 shrink-0 text-muted" aria-hidden="true" />
                    <span className="min-w-0 break-words">{question}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-outline" onClick={onClose}>
              {t('agents.close')}
            </button>
            <button type="button" className="btn-primary" autoFocus onClick={() => onStart(agent.agentId)}>
              <span className="i-lucide-message-square-plus" aria-hidden="true" />
              {t('agents.startChat')}
            </button>
          </div>
        </div>
      )}
    </ModalDialog>
  );
};
