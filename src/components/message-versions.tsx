import { useTranslation } from 'react-i18next';
import type { ChatEvent, ChatMessage } from '../machines/chat.machine';

/** What can be done to a sent message, asked of the chat before its button is offered. */
export type VersionEvent = Extract<ChatEvent, { type: 'edit.start' | 'edit.send' | 'regenerate' | 'version.show' }>;

/** `‹ 2 / 3 ›` on a message with other versions: moves to the one before or after it. */
export const VersionSwitcher = ({ message, canShow, onShow }: { message: ChatMessage; canShow: (offset: -1 | 1) => boolean; onShow: (offset: -1 | 1) => void }) => {
  const { t } = useTranslation();
  const total = message.siblingIds.length;
  const current = message.serverId ? Math.max(1, message.siblingIds.indexOf(message.serverId) + 1) : total;
  if (total < 2) return null;
  return (
    <div role="group" aria-label={t('chat.versions')} className="flex items-center text-xs text-muted" data-testid="versions">
      <button type="button" className="btn-ghost h-7 px-1 py-0" aria-label={t('chat.previousVersion')} title={t('chat.previousVersion')} disabled={!canShow(-1)} onClick={() => onShow(-1)}>
        <span className="i-lucide-chevron-left" aria-hidden="true" />
      </button>
      <span className="tabular-nums">{t('chat.versionPosition', { current, total })}</span>
      <button type="button" className="btn-ghost h-7 px-1 py-0" aria-label={t('chat.nextVersion')} title={t('chat.nextVersion')} disabled={!canShow(1)} onClick={() => onShow(1)}>
        <span className="i-lucide-chevron-right" aria-hidden="true" />
      </button>
    </div>
  );
};

/** A sent question rewritten in place; Escape leaves it as it was. */
export const QuestionEditor = ({
  text,
  canSend,
  onChange,
  onSend,
  onCancel,
}: {
  text: string;
  /** The chat takes this text as a new version now (not empty, no answer being written). */
  canSend: boolean;
  onChange: (text: string) => void;
  onSend: () => void;
  onCancel: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <form
      className="flex w-full min-w-[min(36rem,80vw)] flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <textarea
        aria-label={t('chat.editQuestion')}
        dir="auto"
        rows={3}
        autoFocus
        className="w-full resize-y rounded-2xl border border-line bg-surface px-4 py-2 text-fg"
        value={text}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            onSend();
          }
        }}
      />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn-outline" onClick={onCancel}>
          {t('chat.editCancel')}
        </button>
        <button type="submit" className="btn-primary" disabled={!canSend}>
          {t('chat.editSend')}
        </button>
      </div>
    </form>
  );
};
