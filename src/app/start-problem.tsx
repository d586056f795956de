import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import OfflineLibraryScreen from '../screens/offline/offline-library-screen';
import { useRuntime } from './runtime-context';

/** A start that failed, with the reason, and the way to start again. */
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
 * What the app shows when its start could not reach the server: the conversations this device
 * kept, to read meanwhile (the app machine's `offline`), or else that the start failed
 * (`errored`). A chunk of its own: a start that goes well never loads it, and an installed app
 * has it from its service worker.
 */
const StartProblem = () => {
  const { app } = useRuntime();
  const offline = useSelector(app, (state) => state.matches('offline'));
  return offline ? <OfflineLibraryScreen /> : <StartFailed />;
};

export default StartProblem;
