import { useTranslation } from 'react-i18next';
import { useCopyText } from '../../components/use-copy-text';
import { sharePath, type Share } from '../../contract/shares';
import { formatDateTime } from '../../i18n/format';

/** The full address of a share link on this site. */
export const shareUrl = (token: string) => `${window.location.origin}${sharePath(token)}`;

const CopyLink = ({ url }: { url: string }) => {
  const { t } = useTranslation();
  const { state, copy } = useCopyText(url);
  const label = { idle: t('share.copy'), copied: t('share.copied'), failed: t('share.copyFailed') }[state];
  return (
    <button type="button" className="btn-outline h-8 px-2 py-0 text-xs" onClick={() => void copy()}>
      <span className={state === 'copied' ? 'i-lucide-check' : 'i-lucide-copy'} aria-hidden="true" />
      <span aria-live="polite">{label}</span>
    </button>
  );
};

/** Share links, each with its address to copy and a revoke button. */
export const ShareLinks = ({ shares, canRevoke, onRevoke, showTitles = false }: { shares: Share[]; canRevoke: boolean; onRevoke: (shareId: string) => void; showTitles?: boolean }) => {
  const { t, i18n } = useTranslation();
  return (
    <ul className="m-0 flex list-none flex-col gap-2 p-0" aria-label={t('share.links')} data-testid="share-links">
      {shares.map((share) => {
        const url = shareUrl(share.token);
        return (
          <li key={share.shareId} className="flex flex-col gap-1 rounded-lg border border-line p-2" data-testid="share-link">
            {showTitles && (
              <p className="m-0 truncate font-medium" dir="auto">
                {share.title || t('share.untitled')}
              </p>
            )}
            <input readOnly value={url} aria-label={t('share.linkAddress')} className="field h-8 px-2 py-1 text-xs" onFocus={(event) => event.target.select()} />
            <p className="m-0 text-xs text-muted">
              {t('share.linkDetails', { count: share.messageCount, date: formatDateTime(share.createdAt, i18n.language) })}
              {' · '}
              {share.showOwnerName ? t('share.withName') : t('share.withoutName')}
            </p>
            <div className="flex gap-2">
              <CopyLink url={url} />
              <button type="button" className="btn-outline h-8 px-2 py-0 text-xs text-danger" disabled={!canRevoke} onClick={() => onRevoke(share.shareId)}>
                <span className="i-lucide-link-2-off" aria-hidden="true" />
                {t('share.revoke')}
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
};
