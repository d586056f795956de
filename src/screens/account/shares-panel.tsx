import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { conversationSharesLogic } from '../../app/share-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { ShareLinks } from '../chat/share-links';

/** Every share link of the account, each revocable here as well as from its conversation. */
export const SharesPanel = () => {
  const { t } = useTranslation();
  const shares = useScreenActor(conversationSharesLogic, { input: { conversationId: null, signedIn: true } });
  const list = useSelector(shares, (state) => state.context.shares);
  const error = useSelector(shares, (state) => state.context.error);
  const phase = useSelector(shares, (state) => String(state.value));
  const canRevoke = useSelector(shares, (state) => state.can({ type: 'share.revoke', shareId: '' }));
  return (
    <section aria-labelledby="shares-title" className="mt-8 flex flex-col gap-2" data-testid="shares-panel">
      <h2 id="shares-title" className="m-0 text-lg font-semibold">
        {t('share.accountTitle')}
      </h2>
      <p className="m-0 text-sm text-muted">{t('share.accountHint')}</p>
      {phase === 'loading' ? (
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
      ) : list.length === 0 ? (
        <p className="m-0 text-sm text-muted">{t('share.none')}</p>
      ) : (
        <ShareLinks shares={list} canRevoke={canRevoke} showTitles onRevoke={(shareId) => shares.send({ type: 'share.revoke', shareId })} />
      )}
      {error === 'revoke' && (
        <p role="alert" className="m-0 text-sm text-danger">
          {t('share.failed.revoke')}
        </p>
      )}
    </section>
  );
};
