import { useSelector } from '@xstate/react';
import { I18nextProvider } from 'react-i18next';
import { Suspense } from 'react';
import { Router } from 'wouter';
import { LazyToaster } from '../components/lazy-toaster';
import { i18n, readSavedLocale } from '../i18n';
import { resolveLocale, START_RETRY_LABELS } from '../i18n/locale';
import { RootLayout } from './root-layout';
import { lazyScreen, ScreenBoundary } from './lazy-screen';
import { Routes } from './routes';
import type { Runtime } from './runtime';
import { RuntimeContext, useRuntime } from './runtime-context';

/** A start that could not reach the server, or failed: its own chunk (start-problem.tsx). */
const StartProblem = lazyScreen(() => import('./start-problem'));

/**
 * A start that failed before the interface language was loaded, or whose page could not be
 * fetched: a button to start again, labelled in the reader's language from a table in the code.
 */
const CouldNotStart = () => {
  const { app } = useRuntime();
  return (
    <div role="alert" className="p-8 text-center">
      <button type="button" className="btn-primary" onClick={() => app.send({ type: 'retry' })}>
        <span aria-hidden="true">↻ </span>
        {START_RETRY_LABELS[resolveLocale({ saved: readSavedLocale(), browser: navigator.languages ?? [navigator.language], warn: () => undefined })]}
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
    state.matches('loading') ? 'starting' : state.matches('errored') || state.matches('offline') ? 'stopped' : 'loaded',
  );
  if (phase === 'starting') return <Starting />;
  if (phase === 'stopped' && !i18n.isInitialized) return <CouldNotStart />;
  return (
    <I18nextProvider i18n={i18n}>
      {phase === 'stopped' ? (
        // Its code not fetched (the server down before the service worker kept it): the button, tried again by itself.
        <ScreenBoundary page="" fallback={<CouldNotStart />}>
          <Suspense fallback={<Starting />}>
            <StartProblem />
          </Suspense>
        </ScreenBoundary>
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
