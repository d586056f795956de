import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { fromPromise } from 'xstate';
import { useRuntime } from '../../app/runtime-context';
import { useChatAttachments } from '../../components/attachment-tray';
import { ChatComposer } from '../../components/chat-composer';
import { describeFailure } from '../../components/describe-failure';
import { MessageList } from '../../components/message-list';
import { ModalDialog } from '../../components/modal-dialog';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { useMessageWindow } from '../../components/use-message-window';
import { useStickToBottom } from '../../components/use-stick-to-bottom';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { conversationsMachine, reportingActor, type HistoryCache } from '../../machines/conversations.machine';
import { deleteConversation, listConversations, updateConversation } from '../../services/api/conversations';
import { getVisitorId } from '../../services/visitor';
import { AgentHeader } from './agent-header';
import { ConversationHistory } from './conversation-history';
import { useScreenActor } from '../../app/use-screen-actor';

const AgentsMarket = lazy(() => import('../agents/agents-market'));

/** The sub-path of /chat that shows the agents market instead of a conversation. */
const MARKET_PATH = 'agents';

/** The last history fetched, per person: shown at once on the next visit within 5 minutes. */
/** One undo toast per deleted chat, so it can be withdrawn when its window ends. */
const undoToastId = (conversationId: string) => `undo-delete:${conversationId}`;

const historyCache = new Map<string, HistoryCache>();
const rememberHistory = (owner: string, cache: HistoryCache): void => {
  historyCache.clear();
  historyCache.set(owner, cache);
};

const useHistory = () => {
  const { t } = useTranslation();
  const { app, toast, dismissToast, screenEvents } = useRuntime();
  const [, navigate] = useLocation();
  const userId = useSelector(app, (state) => state.context.user?.id ?? 'visitor');
  const owner = `${userId}:${getVisitorId()}`;
  const history = useScreenActor(
    conversationsMachine.provide({
      actors: {
        fetchPage: fromPromise(({ input }: { input: { current: number; pageSize: number; keyword: string } }) =>
          listConversations(
            { source: 'agent', current: input.current, pageSize: input.pageSize, ...(input.keyword ? { keyword: input.keyword } : {}) },
            { silent: true },
          ),
        ),
        saveConversation: reportingActor(
          (input) => updateConversation(input.patch, { silent: true }),
          (input) => input.previous,
          (input) => input.patch.conversationId,
        ),
        deleteConversation: reportingActor(
          async (input) => {
            await deleteConversation(input.conversation.conversationId, { silent: true });
            return null;
          },
          (input) => input.conversation,
          (input) => input.conversation.conversationId,
        ),
      },
      actions: {
        storeCache: ({ context }) => {
          if (context.keyword || context.fetchedAt === 0) return;
          rememberHistory(owner, { items: context.items, total: context.total, page: context.page, keyword: '', fetchedAt: context.fetchedAt });
        },
        announceDeleted: ({ event }) => {
          if (event.type !== 'delete') return;
          const { conversationId } = event;
          toast({
            id: undoToastId(conversationId),
            title: t('chat.deleted'),
            action: { label: t('chat.undo'), altText: t('chat.undoDelete'), onAction: () => history.send({ type: 'delete.undo', conversationId }) },
          });
        },
        withdrawUndo: ({ event }) => {
          if (event.type === 'delete.commit') dismissToast(undoToastId(event.conversationId));
        },
        announceFailure: ({ event }) => {
          if (event.type !== 'mutation.failed') return;
          toast({ title: t('chat.changeFailed'), description: event.message, variant: 'destructive' });
        },
        leaveConversation: () => navigate('/chat'),
        flushPendingDeletes: ({ context }) => {
          for (const { conversation } of context.pendingDeletes) {
            deleteConversation(conversation.conversationId, { silent: true }).catch(() => undefined);
          }
        },
      },
    }),
    { input: { cache: historyCache.get(owner) ?? null } },
  );

  useEffect(() => screenEvents.on('updateChatList', () => history.send({ type: 'refresh' })), [history, screenEvents]);
  // Leaving the chat screen deletes at once what was waiting for its undo window.
  useEffect(() => () => history.send({ type: 'history.close' }), [history]);
  useEffect(() => {
    const onFocus = () => history.send({ type: 'window.focus' });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [history]);
  // Logging in or out changes whose chats these are.
  const [seenOwner, setSeenOwner] = useState(owner);
  if (seenOwner !== owner) {
    setSeenOwner(owner);
    history.send({ type: 'refresh' });
  }
  return history;
};

const ChatScreen = () => {
  const { t, i18n } = useTranslation();
  const { chat } = useRuntime();
  const params = useParams<{ '*': string }>();
  const [location] = useLocation();
  const [searchParams] = useSearchParams();
  const subPath = params['*'] || null;
  const showMarket = subPath === MARKET_PATH;
  const routeId = showMarket ? null : subPath;
  const linkedAgent = searchParams.get('agent');
  useDocumentTitle(showMarket ? t('agents.title') : t('nav.chat'));
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const history = useHistory();

  const conversationId = useSelector(chat, (state) => state.context.conversationId);
  const agentId = useSelector(chat, (state) => state.context.agentId);
  const messages = useSelector(chat, (state) => state.context.messages);
  const draft = useSelector(chat, (state) => state.context.draft);
  const failure = useSelector(chat, (state) => state.context.failure);
  const streaming = useSelector(chat, (state) => state.matches('streaming') || state.matches('creatingConversation') || state.matches('sending'));
  const canRetry = useSelector(chat, (state) => state.can({ type: 'retry' }));
  const loadFailed = useSelector(chat, (state) => state.matches('loadFailed'));
  const attachments = useChatAttachments(chat);
  const { ref: scrollRef, atBottom, onScroll, jumpToLatest } = useStickToBottom<HTMLDivElement>(messages);
  const windowed = useMessageWindow(messages, scrollRef, conversationId);

  useEffect(() => {
    if (routeId && routeId !== chat.getSnapshot().context.conversationId) {
      chat.send({ type: 'conversation.open', conversationId: routeId });
    }
  }, [routeId, chat]);

  useEffect(() => {
    // "/chat?agent=<id>" is a link to a new chat with that agent.
    if (linkedAgent && !routeId) chat.send({ type: 'conversation.new', agentId: linkedAgent });
  }, [linkedAgent, routeId, chat]);

  useEffect(() => {
    // "/chat" after a conversation was open is the new-chat button, not the first send from home.
    if (location === '/chat' && chat.getSnapshot().context.conversationId && !chat.getSnapshot().matches('creatingConversation')) {
      chat.send({ type: 'conversation.new' });
    }
  }, [location, chat]);

  useEffect(() => history.send({ type: 'active.change', conversationId: showMarket ? null : conversationId }), [history, conversationId, showMarket]);

  // Picking a chat (or the market) in the drawer closes it.
  const [seenLocation, setSeenLocation] = useState(location);
  if (seenLocation !== location) {
    setSeenLocation(location);
    setDrawerOpen(false);
  }

  const historyPanel = <ConversationHistory history={history} activeId={showMarket ? null : conversationId} />;

  return (
    <div className="flex min-h-0 flex-1">
      {mobile ? (
        <ModalDialog
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          label={t('chat.history')}
          className="m-0 h-full max-h-none w-[min(20rem,85vw)] rounded-none border-y-0 border-s-0"
        >
          <div className="flex h-full flex-col">
            <div className="flex items-center justify-between p-2 pb-0 ps-4">
              <p className="m-0 font-semibold">{t('chat.history')}</p>
              <button type="button" className="btn-ghost h-9 w-9 p-0" aria-label={t('chat.closeHistory')} onClick={() => setDrawerOpen(false)}>
                <span className="i-lucide-x" aria-hidden="true" />
              </button>
            </div>
            <div className="min-h-0 flex-1">{historyPanel}</div>
          </div>
        </ModalDialog>
      ) : (
        <aside className="flex w-72 shrink-0 flex-col border-e border-line bg-surface">{historyPanel}</aside>
      )}
      <section className="flex min-w-0 flex-1 flex-col" aria-label={t('nav.chat')}>
        <div className="flex items-center gap-2 border-b border-line bg-surface px-3 py-2">
          {mobile && (
            <button
              type="button"
              className="btn-ghost h-9 w-9 shrink-0 p-0"
              aria-label={t('chat.openHistory')}
              aria-expanded={drawerOpen}
              aria-haspopup="dialog"
              onClick={() => setDrawerOpen(true)}
            >
              <span className="i-lucide-panel-left text-lg" aria-hidden="true" />
            </button>
          )}
          {showMarket ? (
            <p className="m-0 flex-1 font-semibold">{t('agents.title')}</p>
          ) : (
            <AgentHeader agentId={agentId} />
          )}
          {!showMarket && (
            <Link href="/chat/agents" className="btn-ghost shrink-0" aria-label={t('chat.browseAgents')}>
              <span className="i-lucide-bot" aria-hidden="true" />
              <span className="hidden sm:inline">{t('chat.agents')}</span>
            </Link>
          )}
        </div>
        {showMarket ? (
          <Suspense
            fallback={
              <p role="status" className="p-8 text-center text-muted">
                {t('agents.loading')}
              </p>
            }
          >
            <AgentsMarket />
          </Suspense>
        ) : (
          <>
            <div
              ref={scrollRef}
              onScroll={() => {
                onScroll();
                windowed.onScroll();
              }}
              className="relative min-h-0 flex-1 overflow-y-auto"
            >
              {loadFailed ? (
                <div role="alert" className="p-8 text-center">
                  <p className="mb-4">{t('chat.loadFailed')}</p>
                  <button type="button" className="btn-primary" onClick={() => chat.send({ type: 'reload' })}>
                    {t('chat.reload')}
                  </button>
                </div>
              ) : messages.length === 0 ? (
                <p className="p-12 text-center text-xl text-muted">{t('chat.empty')}</p>
              ) : (
                <>
                  {windowed.hidden > 0 && (
                    <div className="flex justify-center pt-4">
                      <button type="button" className="btn-outline" onClick={windowed.revealEarlier}>
                        <span className="i-lucide-chevrons-up" aria-hidden="true" />
                        {t('chat.showEarlier')}
                      </button>
                    </div>
                  )}
                  <MessageList messages={windowed.visible} canRetry={canRetry} onRetry={() => chat.send({ type: 'retry' })} />
                </>
              )}
            </div>
            <div className="relative mx-auto w-full max-w-3xl p-4">
              {!atBottom && (
                <button type="button" className="btn-outline absolute -top-12 left-1/2 -translate-x-1/2 bg-surface shadow" onClick={jumpToLatest}>
                  <span className="i-lucide-arrow-down" aria-hidden="true" />
                  {t('chat.jumpToLatest')}
                </button>
              )}
              {failure && !canRetry && !loadFailed && (
                <p role="alert" className="mb-2 text-sm text-danger">
                  {describeFailure(t, failure, i18n.language)}
                </p>
              )}
              <ChatComposer
                value={draft}
                label={t('chat.placeholder')}
                streaming={streaming}
                onChange={(text) => chat.send({ type: 'draft.change', text })}
                onSend={() => chat.send({ type: 'send' })}
                onStop={() => chat.send({ type: 'stop' })}
                attachments={attachments}
              />
            </div>
          </>
        )}
      </section>
    </div>
  );
};

export default ChatScreen;
