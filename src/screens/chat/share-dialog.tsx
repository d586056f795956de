import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { conversationSharesLogic } from '../../app/share-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { ModalDialog } from '../../components/modal-dialog';
import { loginReturningTo } from '../../services/redirect';
import { ShareLinks } from './share-links';

/** Export the open conversation, or share a snapshot of it by link (and revoke the links). */
const ShareDialogBody = ({ conversationId, signedIn }: { conversationId: string; signedIn: boolean }) => {
  const { t } = useTranslation();
  const shares = useScreenActor(conversationSharesLogic, { input: { conversationId, signedIn } });
  const list = useSelector(shares, (state) => state.context.shares);
  const showOwnerName = useSelector(shares, (state) => state.context.showOwnerName);
  const error = useSelector(shares, (state) => state.context.error);
  const phase = useSelector(shares, (state) => String(state.value));
  const canExport = useSelector(shares, (state) => state.can({ type: 'export', format: 'markdown' }));
  const canCreate = useSelector(shares, (state) => state.can({ type: 'share.create' }));
  const canRevoke = useSelector(shares, (state) => state.can({ type: 'share.revoke', shareId: '' }));
  const [location] = useLocation();
  const search = useSearch();
  return (
    <div className="flex flex-col gap-4 p-4">
      <section aria-labelledby="export-title" className="flex flex-col gap-2">
        <h3 id="export-title" className="m-0 text-base font-semibold">
          {t('share.exportTitle')}
        </h3>
        <p className="m-0 text-sm text-muted">{t('share.exportHint')}</p>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-outline" disabled={!canExport} onClick={() => shares.send({ type: 'export', format: 'markdown' })}>
            <span className="i-lucide-file-text" aria-hidden="true" />
            {t('share.exportMarkdown')}
          </button>
          <button type="button" className="btn-outline" disabled={!canExport} onClick={() => shares.send({ type: 'export', format: 'json' })}>
            <span className="i-lucide-file-json" aria-hidden="true" />
            {t('share.exportJson')}
          </button>
        </div>
      </section>
      <section aria-labelledby="share-title" className="flex flex-col gap-2">
        <h3 id="share-title" className="m-0 text-base font-semibold">
          {t('share.title')}
        </h3>
        {!signedIn ? (
          <p className="m-0 text-sm text-muted">
            {t('share.signInToShare')}{' '}
            <Link href={loginReturningTo(location, search ? `?${search}` : '')} className="text-accent underline">
              {t('nav.login')}
            </Link>
          </p>
        ) : phase === 'loading' ? (
          <p role="status" className="m-0 text-sm text-muted">
            {t('share.loading')}
          </p>
        ) : phase === 'failed' ? (
          <div role="alert" className="flex items-center gap-2 text-sm">
            <p className="m-0">{t('share.loadFailed')}</p>
            <button type="button" className="btn-outline" onClick={() => shares.send({ type: 'retry' })}>
              {t('app.retry')}
            </button>
          </div>
        ) : (
          <>
            <p className="m-0 text-sm text-muted">{t('share.hint')}</p>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={showOwnerName} onChange={() => shares.send({ type: 'showName.toggle' })} />
              {t('share.showName')}
            </label>
            <div>
              <button type="button" className="btn-primary" disabled={!canCreate} onClick={() => shares.send({ type: 'share.create' })}>
                <span className="i-lucide-link" aria-hidden="true" />
                {t('share.create')}
              </button>
            </div>
            {list.length > 0 && <ShareLinks shares={list} canRevoke={canRevoke} onRevoke={(shareId) => shares.send({ type: 'share.revoke', shareId })} />}
          </>
        )}
        {error && error !== 'load' && (
          <p role="alert" className="m-0 text-sm text-danger">
            {t(`share.failed.${error}`)}
          </p>
        )}
      </section>
    </div>
  );
};

export const ShareDialog = ({ open, onClose, conversationId, signedIn }: { open: boolean; onClose: () => void; conversationId: string; signedIn: boolean }) => {
  const { t } = useTranslation();
  return (
    <ModalDialog open={open} onClose={onClose} label={t('share.dialog')} className="w-[min(32rem,calc(100vw-2rem))] rounded-2xl">
      <div className="flex items-center justify-between border-b border-line p-2 ps-4">
        <h2 className="m-0 text-lg font-semibold">{t('share.dialog')}</h2>
        <button type="button" className="btn-ghost h-9 w-9 p-0" aria-label={t('share.close')} onClick={onClose}>
          <span className="i-lucide-x" aria-hidden="true" />
        </button>
      </div>
      {open && <ShareDialogBody conversationId={conversationId} signedIn={signedIn} />}
    </ModalDialog>
  );
};
