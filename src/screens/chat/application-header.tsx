import { useTranslation } from 'react-i18next';
import { AgentAvatar } from '../../components/agent-avatar';
import { agentWords } from '../../contract/agents';
import type { ConversationApplication } from '../../contract/conversations';

/**
 * A workflow conversation's header: it talks to an application, not to an agent. It names the
 * application when it is known (the server leaves out one withdrawn since), else says "Application".
 */
export const ApplicationHeader = ({ application }: { application: ConversationApplication | null }) => {
  const { t, i18n } = useTranslation();
  const words = application ? agentWords(application, i18n.language) : null;
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3" data-testid="chat-application">
      {application ? (
        <AgentAvatar src={application.avatar} name={words!.name} size={36} />
      ) : (
        <span className="grid h-9 w-9 shrink-0 place-items-center rounded-full bg-accent text-accent-fg" aria-hidden="true">
          <span className="i-lucide-workflow" />
        </span>
      )}
      <div className="min-w-0">
        <h1 className="m-0 truncate text-base font-semibold">{words?.name || t('chat.application')}</h1>
        <p className="m-0 truncate text-xs text-muted" title={words?.intro || undefined}>
          {words?.intro || t('chat.applicationHint')}
        </p>
      </div>
    </div>
  );
};
