import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { webAppInstallLogic } from '../../app/download-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { browserNavigatorHints } from '../../services/platform';
import { detectInstallBrowser, runsInstalled } from '../../services/install-support';

/** The web app, installable on any device: the browser's dialog where it offers one, else the steps. */
export const WebAppInstall = () => {
  const { t } = useTranslation();
  const [input] = useState(() => ({ runsInstalled: runsInstalled(), browser: detectInstallBrowser(browserNavigatorHints()) }));
  const offer = useScreenActor(webAppInstallLogic, { input });
  const phase = useSelector(offer, (state) => (typeof state.value === 'string' ? state.value : state.value.offering));
  const browser = useSelector(offer, (state) => state.context.browser);
  const outcome = phase === 'installed' ? t('download.webApp.installed') : phase === 'dismissed' ? t('download.webApp.dismissed') : '';

  // The button goes once the dialog is answered: the focus moves to what came of it.
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome && document.activeElement === document.body) outcomeRef.current?.focus();
  }, [outcome]);

  return (
    <section aria-labelledby="web-app-title" className="mb-8 rounded-xl border border-line bg-surface p-5" data-testid="web-app" data-phase={phase}>
      <div className="mb-3 flex items-center gap-3">
        <span className="i-lucide-app-window text-3xl text-accent" aria-hidden="true" />
        <div>
          <h2 id="web-app-title" className="m-0 text-lg font-semibold">
            {t('download.webApp.title')}
          </h2>
          <p className="m-0 text-sm text-muted">{t('download.webApp.intro')}</p>
        </div>
      </div>
      {phase === 'runningInstalled' && (
        <p className="m-0 flex items-center gap-2" data-testid="web-app-running">
          <span className="i-lucide-circle-check shrink-0 text-accent" aria-hidden="true" />
          {t('download.webApp.runningInstalled')}
        </p>
      )}
      {(phase === 'offered' || phase === 'prompting') && (
        <button type="button" className="btn-primary" disabled={phase === 'prompting'} onClick={() => offer.send({ type: 'install' })}>
          <span className="i-lucide-monitor-down" aria-hidden="true" />
          {t('download.webApp.install')}
        </button>
      )}
      {/* Always there, so what came of the dialog is announced as it appears. */}
      <p ref={outcomeRef} tabIndex={-1} aria-live="polite" className={outcome ? 'mb-2 mt-0 font-medium outline-none' : 'sr-only'} data-testid="web-app-outcome">
        {outcome}
      </p>
      {(phase === 'steps' || phase === 'dismissed') && (
        <p className="m-0 text-sm" data-testid="web-app-steps" data-browser={browser}>
          {t(`download.webApp.steps.${browser}`)}
        </p>
      )}
    </section>
  );
};
