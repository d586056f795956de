import { memo, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Conversation } from '../../contract/conversations';
import { TITLE_MAX } from '../../contract/conversations';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import type { ConversationsEvent } from '../../machines/conversations.machine';

type HistoryRowProps = {
  conversation: Conversation;
  active: boolean;
  editing: boolean;
  now: Date;
  send: (event: ConversationsEvent) => void;
};

const iconButton = 'btn-ghost h-8 w-8 shrink-0 p-0 text-muted hover:text-fg';

/** Inline rename: Enter or leaving the field saves, Escape puts the old name back. */
const RenameField = ({ conversation, send }: Pick<HistoryRowProps, 'conversation' | 'send'>) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLInputElement>(null);
  const settled = useRef(false);
  useEffect(() => {
    ref.current?.focus();
    ref.current?.select();
  }, []);
  const commit = () => {
    if (settled.current) return;
    settled.current = true;
    send({ type: 'rename.commit', title: ref.current?.value ?? '' });
  };
  return (
    <input
      ref={ref}
      defaultValue={conversation.title}
      maxLength={TITLE_MAX}
      aria-label={t('chat.renameField', { title: conversation.title })}
      className="field h-9 min-w-0 flex-1 px-2 py-1 text-sm"
      onKeyDown={(event) => {
        if (event.key === 'Enter' && !event.nativeEvent.isComposing && event.keyCode !== 229) {
          event.preventDefault();
          commit();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          settled.current = true;
          send({ type: 'rename.cancel' });
        }
      }}
      onBlur={commit}
    />
  );
};

/** A search's snippet, with the words it found marked. */
const MarkedMatch = ({ match, at }: { match: string; at: Conversation['matchAt'] }) => {
  if (!at) return match;
  const end = at.start + at.length;
  return (
    <>
      {match.slice(0, at.start)}
      <mark className="rounded-sm bg-accent/20 text-fg">{match.slice(at.start, end)}</mark>
      {match.slice(end)}
    </>
  );
};

/** One chat in the history: its title and last update, with rename, pin and delete beside it. */
export const HistoryRow = memo(({ conversation, active, editing, now, send }: HistoryRowProps) => {
  const { t, i18n } = useTranslation();
  const { title, conversationId } = conversation;
  const timeId = useId();
  if (editing) {
    return (
      <div className="flex h-full items-center gap-1 px-1">
        <RenameField conversation={conversation} send={send} />
      </div>
    );
  }
  return (
    <div
      className={`group flex h-full items-center gap-0.5 rounded-lg pe-1 hover:bg-raised focus-within:bg-raised ${active ? 'bg-raised' : ''}`}
      data-testid="history-row"
    >
      <Link
        href={`/chat/${conversationId}`}
        aria-current={active ? 'page' : undefined}
        aria-label={title}
        aria-describedby={timeId}
        className="flex min-w-0 flex-1 flex-col rounded-lg px-2 py-1 text-fg no-underline focus-visible:outline-2 focus-visible:outline-accent"
      >
        <span className="flex items-center gap-1 truncate text-sm">
          {conversation.pinned && <span className="i-lucide-pin shrink-0 text-xs text-accent" role="img" aria-label={t('chat.pinned')} />}
          {conversation.source === 'workflow' && (
            <span className="i-lucide-workflow shrink-0 text-xs text-muted" aria-hidden="true" data-testid="history-application" />
          )}
          <span className="truncate" data-testid="history-title">
            {title}
          </span>
        </span>
        {conversation.match ? (
          // A search found the words in a message: where they are says more than when.
          <span id={timeId} dir="auto" className="truncate text-xs text-muted" data-testid="history-match">
            <MarkedMatch match={conversation.match} at={conversation.matchAt} />
          </span>
        ) : (
          <time id={timeId} dateTime={conversation.updatedAt} title={formatDateTime(conversation.updatedAt, i18n.language)} className="text-xs text-muted">
            {formatRelativeTime(conversation.updatedAt, i18n.language, now)}
          </time>
        )}
      </Link>
      <div
        role="group"
        aria-label={t('chat.chatActions', { title })}
        className="hidden shrink-0 group-hover:flex group-focus-within:flex [@media(hover:none)]:flex"
      >
        <button type="button" className={iconButton} aria-label={t('chat.rename', { title })} onClick={() => send({ type: 'rename.start', conversationId })}>
          <span className="i-lucide-pencil" aria-hidden="true" />
        </button>
        <button
          type="button"
          className={iconButton}
          aria-label={conversation.pinned ? t('chat.unpin', { title }) : t('chat.pin', { title })}
          onClick={() => send({ type: 'pin.toggle', conversationId })}
        >
          <span className={conversation.pinned ? 'i-lucide-pin-off' : 'i-lucide-pin'} aria-hidden="true" />
        </button>
        <button type="button" className={`${iconButton} hover:text-danger`} aria-label={t('chat.delete', { title })} onClick={() => send({ type: 'delete', conversationId })}>
          <span className="i-lucide-trash-2" aria-hidden="true" />
        </button>
      </div>
    </div>
  );
});
HistoryRow.displayName = 'HistoryRow';
