import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../../components/agent-avatar';
import { ModalDialog } from '../../components/modal-dialog';
import { agentWords, type Agent } from '../../contract/agents';

type AgentDetailDialogProps = {
  agent: Agent | null;
  onClose: () => void;
  onStart: (agentId: string) => void;
};

/** An agent's detail: who made it, what it does, and the way to start a chat with it. */
export const AgentDetailDialog = ({ agent, onClose, onStart }: AgentDetailDialogProps) => {
  const { t, i18n } = useTranslation();
  const words = agent ? agentWords(agent, i18n.language) : null;
  return (
    <ModalDialog open={agent !== null} onClose={onClose} label={words?.name ?? t('agents.title')} className="w-[min(32rem,calc(100vw-2rem))] rounded-2xl">
      {agent && words && (
        <div className="flex flex-col gap-4 p-6" data-testid="agent-detail">
          <div className="flex items-center gap-4">
            <AgentAvatar src={agent.avatar} name={words.name} size={64} />
            <div className="min-w-0">
              <h2 className="m-0 text-xl font-semibold">{words.name}</h2>
              <p className="m-0 text-sm text-muted">
                {t('agents.createdBy', { name: agent.createByName })}
              </p>
            </div>
          </div>
          <p className="m-0 whitespace-pre-wrap break-words">{words.intro}</p>
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
