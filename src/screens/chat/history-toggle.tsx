import { useTranslation } from 'react-i18next';
import { platformOf, shortcutList } from '../../machines/shortcuts';

/** The wide screen's history beside the chat, which the toggle shows and hides. */
export const HISTORY_ID = 'chat-history-panel';

/**
 * Hides or shows the chat history beside the chat on a wide screen: the visible way to do what
 * the keyboard shortcut does, so a history hidden by a stray key press can be found again.
 */
export const HistoryToggle = ({ hidden, onToggle }: { hidden: boolean; onToggle: () => void }) => {
  const { t } = useTranslation();
  const platform = platformOf(navigator.userAgent, navigator.platform);
  const keys = shortcutList(platform).find((shortcut) => shortcut.command === 'toggleSidebar')?.keys ?? [];
  const label = hidden ? t('chat.showHistory') : t('chat.hideHistory');
  return (
    <button
      type="button"
      className="btn-ghost h-9 w-9 shrink-0 p-0"
      aria-label={label}
      aria-expanded={!hidden}
      // The history is not in the page while hidden: point at it only when it is there.
      aria-controls={hidden ? undefined : HISTORY_ID}
      aria-keyshortcuts={platform === 'apple' ? 'Meta+Shift+S' : 'Control+Shift+S'}
      title={`${label} (${keys.join('+')})`}
      onClick={onToggle}
      data-testid="history-toggle"
    >
      <span className={`${hidden ? 'i-lucide-panel-left-open' : 'i-lucide-panel-left-close'} text-lg rtl:-scale-x-100`} aria-hidden="true" />
    </button>
  );
};
