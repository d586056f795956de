import { useTranslation } from 'react-i18next';

/** A workflow conversation's header: it talks to an application, not to an agent. */
export const ApplicationHeader = () => {
  const { t } = useTranslation();
  return (
    <div className="flex min-w-0 flex-1 items-center gap-3" data-testid="chat-application">
      <span className="grid h-9 w-9 shrink-0 place-items-center rounded-full bg-accent text-accent-fg" aria-hidden="true">
        <span className="i-lucide-workflow" />
      </span>
      <div className="min-w-0">
        <h1 className="m-0 truncate text-base font-semibold">{t('chat.application')}</h1>
        <p className="m-0 truncate text-xs text-muted">{t('chat.applicationHint')}</p>
      </div>
    </div>
  );
};
