import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionsLogic } from '../../app/account-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import type { Session } from '../../contract/users';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import { deviceName, DeviceName } from './device-name';
import { LoadingStatus } from '../../components/loading-status';

const METHOD_ICONS: Record<NonNullable<Session['method']>, string> = {
  password: 'i-lucide-key-round',
  wechat: 'i-lucide-message-circle',
  miniprogram: 'i-lucide-message-circle',
  google: 'i-lucide-globe',
  scan: 'i-lucide-qr-code',
};

const SessionRow = ({ session, busy, disabled, onRevoke }: { session: Session; busy: boolean; disabled: boolean; onRevoke: () => void }) => {
  const { t, i18n } = useTranslation();
  const icon = session.method ? METHOD_ICONS[session.method] : 'i-lucide-monitor-smartphone';
  return (
    <li className="flex flex-wrap items-start gap-3 border-t border-line py-3 first:border-t-0" data-testid="session-row">
      <span className={`${icon} mt-1 shrink-0 text-lg text-muted`} aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="m-0 flex flex-wrap items-center gap-2 font-medium">
          <span dir="auto">
            <DeviceName device={session.device} />
          </span>
          {session.current && <span className="rounded-full border border-accent px-2 py-0.5 text-xs text-fg">{t('sessions.thisDevice')}</span>}
        </p>
        <p className="m-0 text-sm text-muted">
          {[
            session.address || t('sessions.unknownAddress'),
            session.method ? t(`sessions.methods.${session.method}`) : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <p className="m-0 text-xs text-muted">
          {t('sessions.signedInAt', { when: formatDateTime(session.signedInAt, i18n.language) })}
          {' · '}
          {t('sessions.lastUsed', { when: formatRelativeTime(session.lastUsedAt, i18n.language) })}
        </p>
      </div>
      {!session.current && (
        <button
          type="button"
          className="btn-outline"
          disabled={disabled}
          aria-busy={busy || undefined}
          aria-label={t('sessions.signOutDevice', { device: deviceName(t, session.device) })}
          onClick={onRevoke}
        >
          <span className={busy ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-log-out'} aria-hidden="true" />
          {t('sessions.signOut')}
        </button>
      )}
    </li>
  );
};

/** Every browser signed in to the account, this one marked, each other one with its own "Sign out". */
export const SessionsPanel = () => {
  const { t } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => sessionsLogic({ toast }));
  const actor = useScreenActor(logic);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const sessions = useSelector(actor, (state) => state.context.sessions);
  const pendingId = useSelector(actor, (state) => state.context.pendingId);
  const failure = useSelector(actor, (state) => state.context.failure);
  const busy = useSelector(actor, (state) => state.matches('revoking') || state.matches('revokingOthers'));
  const revokingOthers = useSelector(actor, (state) => state.matches('revokingOthers'));
  const canRevokeOthers = useSelector(actor, (state) => state.can({ type: 'revokeOthers' }));

  return (
    <section className="mt-6 rounded-xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="sessions-title">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <div>
          <h2 id="sessions-title" className="m-0 text-lg font-semibold">
            {t('sessions.title')}
          </h2>
          <p className="m-0 text-sm text-muted">{t('sessions.subtitle')}</p>
        </div>
        {(canRevokeOthers || revokingOthers) && (
          <button type="button" className="btn-outline" disabled={busy} aria-busy={revokingOthers || undefined} onClick={() => actor.send({ type: 'revokeOthers' })}>
            <span className={revokingOthers ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-log-out'} aria-hidden="true" />
            {t('sessions.signOutOthers')}
          </button>
        )}
      </div>
      {loading && sessions.length === 0 && <LoadingStatus className="m-0">{t('sessions.loading')}</LoadingStatus>}
      {loadFailed && (
        <div role="alert" className="rounded-lg border border-danger p-3">
          <p className="mb-2 mt-0 text-danger">{t('sessions.loadFailed')}</p>
          <button type="button" className="btn-primary" onClick={() => actor.send({ type: 'retry' })}>
            {t('account.retry')}
          </button>
        </div>
      )}
      {!loadFailed && failure && (
        <div role="alert" className="mb-3 rounded-lg border border-danger px-3 py-2 text-sm">
          <p className="m-0 text-danger">{t('sessions.revokeFailed')}</p>
          <p className="m-0 mt-1">{failure}</p>
        </div>
      )}
      {sessions.length > 0 && !loadFailed && (
        <ul className="m-0 list-none p-0" aria-busy={loading || undefined}>
          {sessions.map((session) => (
            <SessionRow
              key={session.id}
              session={session}
              busy={pendingId === session.id}
              disabled={busy}
              onRevoke={() => actor.send({ type: 'revoke', id: session.id })}
            />
          ))}
        </ul>
      )}
    </section>
  );
};
