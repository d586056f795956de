import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import { VirtualList } from '../../components/virtual-list';
import { historyRows, type ConversationsEvent, type conversationsMachine, type HistoryRow as Row } from '../../machines/conversations.machine';
import { HistoryRow } from './history-row';

const GROUP_HEIGHT = 32;
const ITEM_HEIGHT = 56;
const rowHeight = (row: Row) => (row.kind === 'group' ? GROUP_HEIGHT : ITEM_HEIGHT);
const rowKey = (row: Row) => row.key;

/** "5 minutes ago" moves on by itself: the list's clock ticks once a minute. */
const useMinuteClock = (): Date => {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
};

type ConversationHistoryProps = {
  history: ActorRefFrom<typeof conversationsMachine>;
};

/** The chat history: new chat, the agents market, search, and the chats grouped by day. */
export const ConversationHistory = ({ history }: ConversationHistoryProps) => {
  const { t } = useTranslation();
  const now = useMinuteClock();
  const items = useSelector(history, (state) => state.context.items);
  const keyword = useSelector(history, (state) => state.context.keyword);
  const editingId = useSelector(history, (state) => state.context.editingId);
  const activeId = useSelector(history, (state) => state.context.activeId);
  const phase = useSelector(history, (state) =>
    state.matches('failed') ? 'failed' : state.matches('loading') || state.matches('starting') ? 'loading' : state.matches('loadingMore') ? 'more' : 'ready',
  );
  const [search, setSearch] = useState(keyword);
  const rows = useMemo(() => historyRows(items, now), [items, now]);
  const send = useCallback((event: ConversationsEvent) => history.send(event), [history]);
  const loadMore = useCallback(() => history.send({ type: 'loadMore' }), [history]);

  const renderRow = (row: Row) =>
    row.kind === 'group' ? (
      <h3 className="m-0 flex h-full items-end px-2 pb-1 text-xs font-semibold text-muted">{t(`chat.groups.${row.group}`)}</h3>
    ) : (
      <HistoryRow
        conversation={row.conversation}
        active={row.conversation.conversationId === activeId}
        editing={row.conversation.conversationId === editingId}
        now={now}
        send={send}
      />
    );

  return (
    <nav aria-label={t('chat.history')} className="flex h-full min-h-0 flex-col gap-2 p-2">
      {/* One button a line, each on one line: no language breaks "New chat" inside a word. */}
      <div className="flex flex-col gap-2">
        <Link href="/chat" className="btn-outline whitespace-nowrap" data-testid="new-chat">
          <span className="i-lucide-plus shrink-0" aria-hidden="true" />
          {t('chat.newChat')}
        </Link>
        <Link href="/chat/agents" className="btn-outline whitespace-nowrap" aria-label={t('chat.browseAgents')}>
          <span className="i-lucide-bot shrink-0" aria-hidden="true" />
          {t('chat.agents')}
        </Link>
      </div>
      <div className="relative">
        <span className="i-lucide-search pointer-events-none absolute start-2.5 top-1/2 -translate-y-1/2 text-muted" aria-hidden="true" />
        <input
          data-chat-search=""
          type="search"
          value={search}
          aria-label={t('chat.historySearch')}
          placeholder={t('chat.historySearch')}
          className="field py-1.5 ps-8 text-sm text-ellipsis"
          onChange={(event) => {
            setSearch(event.target.value);
            history.send({ type: 'search', keyword: event.target.value });
          }}
        />
      </div>
      <h2 className="sr-only">{t('chat.history')}</h2>
      {phase === 'loading' && items.length === 0 ? (
        <p role="status" className="px-2 text-sm text-muted">
          {t('chat.historyLoading')}
        </p>
      ) : phase === 'failed' ? (
        <div role="alert" className="flex flex-col items-start gap-2 px-2 text-sm">
          <p className="m-0">{t('chat.historyFailed')}</p>
          <button type="button" className="btn-outline" onClick={() => history.send({ type: 'refresh' })}>
            {t('chat.reload')}
          </button>
        </div>
      ) : items.length === 0 ? (
        <p className="px-2 text-sm text-muted">{keyword ? t('chat.historyNoMatch', { keyword }) : t('chat.historyEmpty')}</p>
      ) : (
        <VirtualList
          rows={rows}
          rowKey={rowKey}
          rowHeight={rowHeight}
          renderRow={renderRow}
          onNearEnd={loadMore}
          className="min-h-0 flex-1"
          label={t('chat.history')}
          footer={
            phase === 'more' ? (
              <p role="status" className="px-2 text-xs text-muted">
                {t('chat.historyLoadingMore')}
              </p>
            ) : null
          }
        />
      )}
    </nav>
  );
};
