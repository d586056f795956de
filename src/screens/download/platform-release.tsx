import { useTranslation } from 'react-i18next';
import type { DesktopPlatform, DownloadFile, PlatformRelease } from '../../contract/app';
import { formatBytes, formatDateTime } from '../../i18n/format';

const ICONS: Record<DesktopPlatform, string> = {
  windows: 'i-lucide-monitor',
  macos: 'i-lucide-laptop',
  linux: 'i-lucide-square-terminal',
};

const isExternal = (url: string) => /^https:\/\//i.test(url);

/** The installers that can be downloaded: all but those the server says are not there yet. */
export const availableFiles = (release: PlatformRelease): DownloadFile[] => release.files.filter((file) => file.available !== false);

const FileLink = ({ release, file, primary }: { release: PlatformRelease; file: DownloadFile; primary: boolean }) => {
  const { t, i18n } = useTranslation();
  const os = t(`download.platform.${release.platform}`);
  const size = file.size === undefined ? null : formatBytes(file.size, i18n.language);
  return (
    <a
      href={file.url}
      className={`${primary ? 'btn-primary' : 'btn-outline'} no-underline`}
      aria-label={t('download.fileAria', { os, label: file.label, file: size ? `${file.fileName}, ${size}` : file.fileName })}
      {...(isExternal(file.url) ? { rel: 'noopener noreferrer' } : { download: file.fileName })}
      data-testid="download-link"
    >
      <span className="i-lucide-download" aria-hidden="true" />
      <span>{primary ? `${t('download.downloadFor', { os })} · ${file.label}` : file.label}</span>
      {size && <span className={primary ? 'opacity-80' : 'text-muted'}>{size}</span>}
    </a>
  );
};

/** One platform's release: version, date, requirement and a link per installer. */
export const PlatformReleaseCard = ({ release, recommended = false }: { release: PlatformRelease; recommended?: boolean }) => {
  const { t, i18n } = useTranslation();
  const os = t(`download.platform.${release.platform}`);
  const headingId = `release-${release.platform}`;
  // A file the server says is not there yet gets no link: it would end in a failed download.
  const files = availableFiles(release);
  const requirement = release.minimumSystems?.length
    ? t('download.requires', { systems: release.minimumSystems.join(t('download.systemSeparator')) })
    : release.requirement;
  return (
    <article
      aria-labelledby={headingId}
      data-platform={release.platform}
      className={`rounded-xl border bg-surface p-5 ${recommended ? 'border-accent shadow-md' : 'border-line'}`}
    >
      <div className="mb-3 flex items-center gap-3">
        <span className={`${ICONS[release.platform]} text-3xl ${recommended ? 'text-accent' : 'text-muted'}`} aria-hidden="true" />
        <div>
          <h3 id={headingId} className="m-0 text-lg font-semibold">
            {os}
          </h3>
          <p className="m-0 text-sm text-muted">
            {t('download.version', { version: release.version })} ·{' '}
            {t('download.releasedOn', { date: formatDateTime(release.releasedAt, i18n.language, { dateStyle: 'long' }) })}
          </p>
        </div>
      </div>
      {requirement && <p className="mb-3 mt-0 text-sm text-muted">{requirement}</p>}
      {files.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {files.map((file, index) => (
            <FileLink key={file.url} release={release} file={file} primary={recommended && index === 0} />
          ))}
        </div>
      ) : (
        <p className="m-0 text-sm" data-testid="platform-unavailable">
          {t('download.platformUnavailable', { os })}
        </p>
      )}
    </article>
  );
};
