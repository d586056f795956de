import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'wouter';
import { fromPromise } from 'xstate';
import { useRuntime } from '../../app/runtime-context';
import { ChatComposer } from '../../components/chat-composer';
import { describeFailure } from '../../components/describe-failure';
import { MessageList } from '../../components/message-list';
import { useStickToBottom } from '../../components/use-stick-to-bottom';
import { conversationsMachine } from '../../machines/conversations.machine';
import { listConversations } from '../../services/api/conversations';

const ConversationHistory = ({ activeId }: { activeId: string | null }) => {
  const { t } = useTranslation();
  const { screenEvents } = useRuntime();
  const history = useActorRef(
    conversationsMachine.provide({
      actors: { fetchPage: fromPromise(({ input }) => listConversations({ source: 'agent', ...input })) },
    }),
  );
  const items = useSelector(history, (state) => state.context.items);
  useEffect(() => screenEvents.on('updateChatList', () => history.send({ type: 'refresh' })), [history, screenEvents]);

  return (
    <nav aria-label={t('chat.history')} className="hidden w-64 shrink-0 flex-col gap-1 overflow-y-auto border-r border-line bg-surface p-2 md:flex">
      <Link href="/chat" className="btn-outline mb-2" data-testid="new-chat">
        <span className="i-lucide-plus" aria-hidden="true" />
        {t('chat.newChat')}
      </Link>
      <h2 className="px-2 text-xs font-semibold uppercase text-muted">{t('chat.history')}</h2>
      {items.length === 0 && <p className="px-2 text-sm text-muted">{t('chat.historyEmpty')}</p>}
      <ul className="flex flex-col gap-1">
        {items.map((item) => (
          <li key={item.conversationId}>
            <Link
              href={`/chat/${item.conversationId}`}
              aria-current={item.conversationId === activeId ? 'page' : undefined}
              className={`block truncate rounded-lg px-2 py-1.5 text-sm text-fg no-underline hover:bg-raised ${item.conversationId === activeId ? 'bg-raised' : ''}`}
            >
              {item.title}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
};

const ChatScreen = () => {
  const { t } = useTranslation();
  const { chat } = useRuntime();
  const params = useParams<{ '*': string }>();
  const [location] = useLocation();
  const routeId = params['*'] || null;

  const conversationId = useSelector(chat, (state) => state.context.conversationId);
  const messages = useSelector(chat, (state) => state.context.messages);
  const draft = useSelector(chat, (state) => state.context.draft);
  const failure = useSelector(chat, (state) => state.context.failure);
  const streaming = useSelector(chat, (state) => state.matches('streaming') || state.matches('creatingConversation') || state.matches('sending'));
  const canRetry = useSelector(chat, (state) => state.can({ type: 'retry' }));
  const loadFailed = useSelector(chat, (state) => state.matches('loadFailed'));
  const { ref: scrollRef, atBottom, onScroll, jumpToLatest } = useStickToBottom<HTMLDivElement>(messages);

  useEffect(() => {
    if (routeId && routeId !== chat.getSnapshot().context.conversationId) {
      chat.send({ type: 'conversation.open', conversationId: routeId });
    }
  }, [routeId, chat]);

  useEffect(() => {
    // "/chat" after a conversation was open is the new-chat button, not the first send from home.
    if (location === '/chat' && chat.getSnapshot().context.conversationId && !chat.getSnapshot().matches('creatingConversation')) {
      chat.send({ type: 'conversation.new' });
    }
  }, [location, chat]);

  return (
    <div className="flex min-h-0 flex-1">
      <ConversationHistory activeId={conversationId} />
      <section className="flex min-w-0 flex-1 flex-col" aria-label={t('nav.chat')}>
        <div ref={scrollRef} onScroll={onScroll} className="relative min-h-0 flex-1 overflow-y-auto">
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
            <MessageList messages={messages} canRetry={canRetry} onRetry={() => chat.send({ type: 'retry' })} />
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
              {describeFailure(t, failure)}
            </p>
          )}
          <ChatComposer
            value={draft}
            label={t('chat.placeholder')}
            streaming={streaming}
            onChange={(text) => chat.send({ type: 'draft.change', text })}
            onSend={() => chat.send({ type: 'send' })}
            onStop={() => chat.send({ type: 'stop' })}
          />
        </div>
      </section>
    </div>
  );
};

export default ChatScreen;
