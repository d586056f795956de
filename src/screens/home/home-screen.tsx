import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { ChatComposer } from '../../components/chat-composer';
import { isCheckingSession, isSignedIn } from '../../machines/app.machine';
import { useDocumentTitle } from '../../i18n/use-document-title';

const HomeScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('app.title'));
  const { app, homeDraft, changeHomeDraft, askFromHome } = useRuntime();
  const signedIn = useSelector(app, isSignedIn);
  const checkingSession = useSelector(app, isCheckingSession);
  const draft = useSelector(homeDraft, (state) => state.context);

  return (
    <div className="flex flex-1 flex-col">
      <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col justify-center gap-6 px-4 py-12">
        <div className="text-center">
          <h1 className="mb-2 text-3xl font-bold">{t('app.title')}</h1>
          <p className="text-muted [text-wrap:balance]">{t('app.slogan')}</p>
          <Link href="/chat/agents" className="mt-3 inline-flex items-center gap-1 text-sm text-accent underline">
            <span className="i-lucide-bot" aria-hidden="true" />
            {t('home.browseAgents')}
          </Link>
        </div>
        <ChatComposer
          value={draft}
          label={t('home.chatLabel')}
          autoFocus
          onChange={changeHomeDraft}
          onSend={() => void askFromHome()}
        />
        {!signedIn && !checkingSession && (
          <p className="text-center text-sm text-muted">
            {t('home.loginPrompt')}{' '}
            <Link href="/login" className="text-accent underline">
              {t('home.loginAction')}
            </Link>
          </p>
        )}
      </section>
      <footer className="p-4 text-center text-xs text-muted">{t('app.copyright', { year: new Date().getFullYear() })}</footer>
    </div>
  );
};

export default HomeScreen;
