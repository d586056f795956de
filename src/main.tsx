import '@unocss/reset/tailwind.css';
import 'virtual:uno.css';
import './styles/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import type { InspectionEvent, Observer } from 'xstate';
import { App } from './app/app';
import { createRuntime } from './app/runtime';
import { keepInstallPrompt } from './services/install-prompt';

/**
 * The Stately inspector, in development only, with `?inspect` in the address or VITE_INSPECT=1.
 * The dynamic import keeps it out of the production bundle.
 */
const loadInspector = async (): Promise<Observer<InspectionEvent> | undefined> => {
  if (!import.meta.env.DEV) return undefined;
  const wanted = new URLSearchParams(location.search).has('inspect') || import.meta.env.VITE_INSPECT === '1';
  if (!wanted) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  return createBrowserInspector().inspect;
};

// The browser offers to install the app once, soon after loading: kept for the download page.
keepInstallPrompt();

const start = async () => {
  const runtime = createRuntime({ navigate, inspect: await loadInspector() });
  runtime.start();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <App runtime={runtime} />
    </StrictMode>,
  );
  // The offline shell and the update prompt: production only (a worker would cache the dev server).
  if (import.meta.env.PROD) void import('./app/app-updates').then(({ watchForUpdates }) => watchForUpdates(runtime.toast));
};

void start();
