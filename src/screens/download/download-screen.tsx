import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadPageLogic } from '../../app/download-actors';
import { browserNavigatorHints, detectDesktopPlatform } from '../../services/platform';
import { availableFiles, PlatformReleaseCard } from './platform-release';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { WebAppInstall } from './web-app-install';

const DownloadScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('download.title'), t('download.intro'));
  const [platform] = useState(() => detectDesktopPlatform(browserNavigatorHints()));
  const page = useScreenActor(downloadPageLogic, { input: { platform } });
  const phase = useSelector(page, (state) => (state.matches('ready') ? 'ready' : state.matches('failed') ? 'failed' : 'loading'));
  const recommended = useSelector(page, (state) => state.context.recommended);
  const others = useSelector(page, (state) => state.context.others);
  const releasesPageUrl = useSelector(page, (state) => state.context.releasesPageUrl);
  const nothingToDownload = [...(recommended ? [recommended] : []), ...others].every((release) => availableFiles(release).length === 0);

  return (
    // Focusable, so the page scrolls from the keyboard also when it offers no link (no installer yet).
    <div className="min-h-0 flex-1 overflow-y-auto" tabIndex={0}>
      <section className="mx-auto w-full max-w-3xl p-4 sm:p-6" aria-labelledby="download-title">
        <h1 id="download-title" className="mb-2 text-2xl font-semibold">
          {t('download.title')}
        </h1>
        <p className="mb-6 mt-0 text-muted">{t('download.intro')}</p>
        <WebAppInstall />

        {phase === 'loading' && (
          <LoadingStatus>{t('download.loading')}</LoadingStatus>
        )}

        {phase === 'failed' && (
          <div role="alert" className="rounded-xl border border-danger p-5">
            <p className="mb-3 mt-0 text-danger">{t('download.failed')}</p>
            <button type="button" className="btn-primary" onClick={() => page.send({ type: 'retry' })}>
              {t('download.retry')}
            </button>
          </div>
        )}

        {phase === 'ready' && (
          <>
            {nothingToDownload && (
              <p className="mb-6 mt-0 rounded-xl border border-line bg-raised p-4" data-testid="downloads-unavailable">
                {t('download.noneAvailable')}
              </p>
            )}
            {recommended ? (
              <section aria-labelledby="download-recommended" className="mb-8" data-testid="recommended">
                <h2 id="download-recommended" className="mb-1 text-base font-semibold">
                  {t('download.recommended')}
                </h2>
                <p className="mb-3 mt-0 text-sm text-muted">{t('download.detected', { os: t(`download.platform.${recommended.platform}`) })}</p>
                <PlatformReleaseCard release={recommended} recommended />
              </section>
            ) : (
              <p className="mb-4 mt-0">{t('download.noneDetected')}</p>
            )}
            {others.length > 0 && (
              <section aria-labelledby="download-others" data-testid="other-platforms">
                <h2 id="download-others" className="mb-3 text-base font-semibold">
                  {recommended ? t('download.otherPlatforms') : t('download.allPlatforms')}
                </h2>
                <div className="grid gap-4 md:grid-cols-2">
                  {others.map((release) => (
                    <PlatformReleaseCard key={release.platform} release={release} />
                  ))}
                </div>
              </section>
            )}
            {releasesPageUrl && (
              <p className="mt-6">
                <a href={releasesPageUrl} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-accent">
                  {t('download.allReleases')}
                  <span className="i-lucide-external-link" aria-hidden="true" />
                </a>
              </p>
            )}
          </>
        )}
      </section>
    </div>
  );
};

export default DownloadScreen;
