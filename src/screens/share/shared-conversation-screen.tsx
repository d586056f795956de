import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { sharedConversationLogic } from '../../app/share-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { LazyMarkdown } from '../../components/markdown/lazy-markdown';
import { formatDateTime } from '../../i18n/format';
import { useDocumentTitle } from '../../i18n/use-document-title';

/** Shared pages are for the people given the link: search engines are asked to leave them out. */
const useNoIndex = () => {
  useEffect(() => {
    const meta = document.createElement('meta');
    meta.name = 'robots';
    meta.content = 'noindex, nofollow';
    document.head.append(meta);
    return () => meta.remove();
  }, []);
};

/** A shared conversation, read-only, for anyone with the link; no session needed. */
const SharedConversationScreen = () => {
  const { t, i18n } = useTranslation();
  const { token = '' } = useParams<{ token: string }>();
  const page = useScreenActor(sharedConversationLogic, { input: { token } });
  const shared = useSelector(page, (state) => state.context.shared);
  const phase = useSelector(page, (state) => String(state.value));
  useNoIndex();
  useDocumentTitle(shared?.title || t('share.sharedTitle'));

  return (
    // Focusable, so a long conversation scrolls from the keyboard also when it holds no link or button.
    <div className="min-h-0 flex-1 overflow-y-auto" tabIndex={0} data-testid="shared-scroll">
      <article className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4 sm:p-6" aria-labelledby="shared-title" data-testid="shared-conversation">
        {phase === 'loading' ? (
          <p role="status" className="text-muted">
            {t('share.opening')}
          </p>
        ) : phase === 'gone' ? (
          <div className="p-8 text-center">
            <h1 id="shared-title" className="mb-2 text-2xl font-semibold">
              {t('share.goneTitle')}
            </h1>
            <p className="mb-6 text-muted">{t('share.gone')}</p>
            <Link href="/" className="btn-primary">
              {t('notFound.home')}
            </Link>
          </div>
        ) : phase === 'failed' || !shared ? (
          <div role="alert" className="p-8 text-center">
            <p id="shared-title" className="mb-4">
              {t('share.openFailed')}
            </p>
            <button type="button" className="btn-primary" onClick={() => page.send({ type: 'retry' })}>
              {t('app.retry')}
            </button>
          </div>
        ) : (
          <>
            <header className="border-b border-line pb-3">
              <h1 id="shared-title" className="m-0 text-2xl font-semibold" dir="auto">
                {shared.title || t('share.untitled')}
              </h1>
              <p className="m-0 text-sm text-muted">
                {shared.ownerName
                  ? t('share.sharedBy', { name: shared.ownerName, date: formatDateTime(shared.sharedAt, i18n.language) })
                  : t('share.sharedOn', { date: formatDateTime(shared.sharedAt, i18n.language) })}
              </p>
            </header>
            <ol className="m-0 flex list-none flex-col gap-4 p-0">
              {shared.messages.map((message, index) => (
                <li key={index} className={message.role === 'user' ? 'flex flex-col items-end' : 'flex flex-col items-start'} data-testid={`shared-${message.role}`}>
                  <p className="m-0 mb-1 text-xs text-muted">{message.role === 'user' ? t('share.exportYou') : t('share.exportAssistant')}</p>
                  {message.role === 'user' ? (
                    <div dir="auto" className="max-w-full whitespace-pre-wrap break-words rounded-2xl bg-accent px-4 py-2 text-accent-fg">
                      {message.content}
                    </div>
                  ) : (
                    <div className="min-w-0 max-w-full">
                      <LazyMarkdown source={message.content} />
                    </div>
                  )}
                  {message.files.length > 0 && (
                    <ul className="m-0 mt-1 list-none p-0 text-xs text-muted" aria-label={t('share.exportAttachments')}>
                      {message.files.map((file, fileIndex) => (
                        <li key={fileIndex} dir="auto">
                          <span className="i-lucide-paperclip" aria-hidden="true" /> {file.name}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ol>
            <p className="m-0 border-t border-line pt-3 text-xs text-muted">{t('share.readOnly')}</p>
          </>
        )}
      </article>
    </div>
  );
};

export default SharedConversationScreen;
