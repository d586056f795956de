import { useSelector } from '@xstate/react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Router } from 'wouter';
import { LazyToaster } from '../components/lazy-toaster';
import { i18n, readSavedLocale } from '../i18n';
import { resolveLocale, START_RETRY_LABELS } from '../i18n/locale';
import { RootLayout } from './root-layout';
import { Routes } from './routes';
import type { Runtime } from './runtime';
import { RuntimeContext, useRuntime } from './runtime-context';

const StartFailed = () => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const error = useSelector(app, (state) => state.context.error);
  // Offline, the reason is the network, whatever the request said; the app starts again by itself when it is back.
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  return (
    <div role="alert" className="mx-auto max-w-md p-8 text-center">
      <h1 className="mb-2 text-lg font-semibold">{t(offline ? 'app.offline' : 'app.startFailed')}</h1>
      {offline ? <p className="mb-4 text-muted">{t('app.offlineDetail')}</p> : error && <p className="mb-4 text-muted">{error}</p>}
      <button type="button" className="btn-primary" onClick={() => app.send({ type: 'retry' })}>
        {t('app.retry')}
      </button>
    </div>
  );
};

/**
 * Until the interface language is loaded nothing can be said in it: a quiet spinner only. The
 * session check does not wait here: the header and public pages show while it runs.
 */
const Starting = () => (
  <div role="status" aria-busy="true" className="grid h-full place-items-center">
    <span className="i-lucide-loader-circle animate-spin text-2xl text-muted" />
  </div>
);

const Shell = () => {
  const { app } = useRuntime();
  const phase = useSelector(app, (state) =>
    state.matches('loading') ? 'starting' : state.matches('errored') ? 'errored' : 'loaded',
  );
  if (phase === 'starting') return <Starting />;
  if (phase === 'errored' && !i18n.isInitialized) {
    return (
      <div role="alert" className="p-8 text-center">
        <button type="button" className="btn-primary" onClick={() => app.send({ type: 'retry' })}>
          <span aria-hidden="true">↻ </span>
          {START_RETRY_LABELS[resolveLocale({ saved: readSavedLocale(), browser: navigator.languages ?? [navigator.language], warn: () => undefined })]}
        </button>
      </div>
    );
  }
  return (
    <I18nextProvider i18n={i18n}>
      {phase === 'errored' ? (
        <StartFailed />
      ) : (
        <RootLayout>
          <Routes />
        </RootLayout>
      )}
      <LazyToaster />
    </I18nextProvider>
  );
};

export const App = ({ runtime }: { runtime: Runtime }) => (
  <RuntimeContext.Provider value={runtime}>
    <Router>
      <Shell />
    </Router>
  </RuntimeContext.Provider>
);
