import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { LazyMarkdown } from '../../components/markdown/lazy-markdown';
import { useOnline } from '../../components/offline-notice';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import { useDocumentTitle } from '../../i18n/use-document-title';
import type { KeptConversation, KeptMessage } from '../../services/offline-library';

/**
 * One kept message, laid out as the chat lays it out (a question in its bubble, an answer in
 * markdown by the chat's renderer), read only: no copy, versions or ratings, which need the server.
 */
const KeptMessageItem = ({ message }: { message: KeptMessage }) => {
  const { t, i18n } = useTranslation();
  return (
    <li data-role={message.role} data-status={message.status} className={message.role === 'user' ? 'flex max-w-[85%] flex-col items-end self-end' : 'max-w-full'}>
      <span className="sr-only">{message.role === 'user' ? t('chat.you') : t('app.name')}</span>
      {message.role === 'user' ? (
        <div dir="auto" className="max-w-full whitespace-pre-wrap break-words rounded-2xl bg-accent px-4 py-2 text-accent-fg">
          {message.content}
        </div>
      ) : (
        <div dir="auto" className="break-words" data-testid="answer">
          <LazyMarkdown source={message.content} />
        </div>
      )}
      {(message.sentAt || message.model) && (
        <p className="m-0 mt-1 flex min-w-0 flex-wrap gap-x-2 px-1 text-xs text-muted">
          {message.sentAt && <time dateTime={message.sentAt}>{formatDateTime(message.sentAt, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</time>}
          {message.model && (
            <span className="min-w-0 truncate" title={t('chat.model.wroteIt', { name: message.model })} data-testid="answer-model">
              <span className="sr-only">{t('chat.model.wroteIt', { name: message.model })}</span>
              <span aria-hidden="true" dir="auto">
                {message.model}
              </span>
            </span>
          )}
        </p>
      )}
      {message.status !== 'complete' && (
        <p role="status" className="m-0 mt-2 text-sm text-warn">
          {message.status === 'failed' ? t('chat.failed') : t('chat.incomplete')}
        </p>
      )}
    </li>
  );
};

/** The conversation an address names (`/chat/<id>`), as the chat reads it. */
const conversationIn = (location: string): string | null => {
  const match = /^\/chat\/([^/]+)$/.exec(location);
  return match && match[1] !== 'agents' ? decodeURIComponent(match[1]!) : null;
};

/**
 * The app started without the network, for someone whose reading this device kept (the app
 * machine's `offline` state): it says so, lists the conversations kept here and shows one, read
 * only, as the chat shows it. Which one is the address's, as in the chat (`/chat/<id>`), so the
 * app, once the network is back, starts on the conversation being read; an address that names
 * none shows the one read last beside the list, or on a phone the list alone. Nothing can be sent.
 */
const OfflineLibraryScreen = () => {
  const { t, i18n } = useTranslation();
  const { app } = useRuntime();
  const kept = useSelector(app, (state) => state.context.kept);
  const [location] = useLocation();
  const online = useOnline();
  const phone = useMediaQuery(MOBILE_QUERY);
  useDocumentTitle(t('app.offline'));
  if (!kept) return null;
  const addressed = conversationIn(location);
  const open = kept.find((conversation) => conversation.conversationId === addressed) ?? (phone ? null : kept[0]!);
  const titleOf = (conversation: KeptConversation) => conversation.title || t('share.untitled');
  const agentOf = (conversation: KeptConversation) => conversation.agentName || t('share.exportAssistant');

  const list = (
    <nav aria-labelledby="kept-list" className={`min-h-0 overflow-y-auto ${phone ? 'flex-1' : 'w-72 shrink-0 border-e border-line bg-surface'}`}>
      <h2 id="kept-list" className="m-0 px-4 pb-1 pt-4 text-sm font-semibold text-muted">
        {t('offline.kept')}
      </h2>
      <ul className="m-0 flex list-none flex-col gap-0.5 p-2">
        {kept.map((conversation) => {
          const current = conversation.conversationId === open?.conversationId;
          return (
            <li key={conversation.conversationId}>
              <Link
                href={`/chat/${encodeURIComponent(conversation.conversationId)}`}
                aria-current={current ? 'page' : undefined}
                className={`flex min-w-0 flex-col rounded-lg px-3 py-2 text-fg no-underline hover:bg-raised ${current ? 'bg-raised' : ''}`}
              >
                <span dir="auto" className={`truncate text-sm ${current ? 'font-semibold' : 'font-medium'}`}>
                  {titleOf(conversation)}
                </span>
                <span className="truncate text-xs text-muted">
                  {agentOf(conversation)}
                  {conversation.updatedAt && ` · ${formatRelativeTime(conversation.updatedAt, i18n.language)}`}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );

  const reader = (
    // Focusable, so a long conversation scrolls from the keyboard.
    <div className="min-h-0 min-w-0 flex-1 overflow-y-auto" tabIndex={0} data-testid="kept-conversation">
      {open ? (
        <article aria-labelledby="kept-title">
          <header className="mx-auto w-full max-w-3xl px-4 pt-4">
            {phone && (
              <Link href="/chat" className="btn-ghost -ms-2 mb-2 text-sm no-underline">
                <span className="i-lucide-arrow-left rtl:rotate-180" aria-hidden="true" />
                {t('offline.back')}
              </Link>
            )}
            <h2 id="kept-title" dir="auto" className="m-0 break-words text-xl font-semibold">
              {titleOf(open)}
            </h2>
            <p className="m-0 text-sm text-muted">
              {agentOf(open)}
              {open.updatedAt && ` · ${t('chat.updatedAt', { time: formatDateTime(open.updatedAt, i18n.language) })}`}
            </p>
            {open.earlierLeftOut && <p className="m-0 mt-2 text-sm text-muted">{t('offline.earlierLeftOut')}</p>}
          </header>
          <ol className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4">
            {open.messages.map((message, index) => (
              <KeptMessageItem key={index} message={message} />
            ))}
          </ol>
        </article>
      ) : (
        <p className="p-12 text-center text-muted">{t('offline.choose')}</p>
      )}
    </div>
  );

  return (
    <div className="flex h-full flex-col">
      <header className="flex items-center gap-2 border-b border-line bg-surface p-2 sm:px-4">
        <span className="flex shrink-0 items-center gap-2 font-semibold">
          <img src="/favicon.svg" alt="" width={24} height={24} />
          {t('app.name')}
        </span>
      </header>
      <section aria-labelledby="offline-title" className="border-b border-line bg-warn/15 px-4 py-3" data-offline="">
        <div className="mx-auto flex w-full max-w-5xl items-start gap-3">
          <span className="i-lucide-wifi-off mt-0.5 shrink-0 text-xl" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <h1 id="offline-title" className="m-0 text-base font-semibold">
              {online ? t('offline.unreachable') : t('app.offline')}
            </h1>
            <p className="m-0 text-sm">{t('offline.intro')}</p>
          </div>
          <button type="button" className="btn-outline shrink-0 bg-surface" onClick={() => app.send({ type: 'retry' })}>
            {t('app.retry')}
          </button>
        </div>
      </section>
      <main id="main" className="flex min-h-0 flex-1">
        {(!phone || !open) && list}
        {(!phone || open) && reader}
      </main>
      <p className="m-0 border-t border-line bg-surface px-4 py-2 text-center text-xs text-muted">{t('offline.readOnly')}</p>
    </div>
  );
};

export default OfflineLibraryScreen;
