import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { scanApprovalLogic } from '../../app/account-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import type { ScanApproval } from '../../contract/users';
import { formatDateTime } from '../../i18n/format';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { DeviceName } from '../account/device-name';
import { LoadingStatus } from '../../components/loading-status';

const PHASES = ['loading', 'loadFailed', 'review', 'approving', 'denying', 'approved', 'denied', 'expired', 'unknown', 'signingIn'] as const;
type Phase = (typeof PHASES)[number];

/** The asking browser as the person needs it to decide: what, from where, since and until when. */
const TicketDetails = ({ ticket }: { ticket: ScanApproval }) => {
  const { t, i18n } = useTranslation();
  const rows: [string, ReactNode][] = [
    [t('scanApproval.device'), <DeviceName device={ticket.device} />],
    [t('scanApproval.address'), ticket.address || t('sessions.unknownAddress')],
    [t('scanApproval.requestedAt'), formatDateTime(ticket.createdAt, i18n.language, { timeStyle: 'medium' })],
    [t('scanApproval.expiresAt'), formatDateTime(ticket.expiresAt, i18n.language, { timeStyle: 'medium' })],
  ];
  return (
    <dl data-testid="scan-ticket" className="m-0 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 rounded-lg border border-line bg-raised p-4 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="m-0 break-words font-medium" dir="auto">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
};

/** A closing state: its message and the way on. */
const Outcome = ({ icon, tone, title, text }: { icon: string; tone: string; title: string; text: string }) => {
  const { t } = useTranslation();
  return (
    <div role="status" className="flex flex-col items-center gap-3 text-center">
      <span className={`${icon} text-4xl ${tone}`} aria-hidden="true" />
      <h2 className="m-0 text-lg font-semibold">{title}</h2>
      <p className="m-0 text-muted">{text}</p>
      <Link href="/" className="btn-outline mt-2">
        {t('scanApproval.home')}
      </Link>
    </div>
  );
};

/**
 * The page a scan link opens: it shows which browser asks to be signed in to this account and
 * approves or declines only when the person presses a button.
 */
const ScanApprovalScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('scanApproval.title'));
  const runtime = useRuntime();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [logic] = useState(() => scanApprovalLogic({ toast: runtime.toast, navigate }));
  // Read once: the page decides at its opening whether to ask a visitor to log in first.
  const [input] = useState(() => ({
    scanId: new URLSearchParams(search).get('scanid') || null,
    signedIn: runtime.app.getSnapshot().context.user !== null,
  }));
  const actor = useScreenActor(logic, { input });
  const phase = useSelector(actor, (state): Phase => PHASES.find((candidate) => state.matches(candidate)) ?? 'loading');
  const ticket = useSelector(actor, (state) => state.context.ticket);
  const failure = useSelector(actor, (state) => state.context.failure);
  const user = useSelector(runtime.app, (state) => state.context.user);
  const busy = phase === 'approving' || phase === 'denying';

  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <section className="mx-auto flex w-full max-w-md flex-col gap-4 p-4 sm:p-6" aria-labelledby="scan-approval-title">
        <h1 id="scan-approval-title" className="m-0 text-2xl font-semibold">
          {t('scanApproval.title')}
        </h1>
        {(phase === 'loading' || phase === 'signingIn') && <LoadingStatus>{t('scanApproval.loading')}</LoadingStatus>}
        {phase === 'loadFailed' && (
          <div role="alert" className="rounded-xl border border-danger p-5">
            <p className="mb-1 mt-0 text-danger">{t('scanApproval.loadFailed')}</p>
            {failure && <p className="mb-3 mt-0 text-sm">{failure}</p>}
            <button type="button" className="btn-primary" onClick={() => actor.send({ type: 'retry' })}>
              {t('scanApproval.retry')}
            </button>
          </div>
        )}
        {(phase === 'review' || busy) && ticket && (
          <>
            <p className="m-0">{t('scanApproval.question', { name: user?.nickname ?? '' })}</p>
            <TicketDetails ticket={ticket} />
            <p className="m-0 flex gap-2 text-sm text-muted">
              <span className="i-lucide-shield-alert mt-0.5 shrink-0 text-warn" aria-hidden="true" />
              {t('scanApproval.warning')}
            </p>
            {failure && (
              <div role="alert" className="rounded-lg border border-danger px-3 py-2 text-sm">
                <p className="m-0 text-danger">{t('scanApproval.failed')}</p>
                <p className="m-0 mt-1">{failure}</p>
              </div>
            )}
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-outline" disabled={busy} aria-busy={phase === 'denying' || undefined} onClick={() => actor.send({ type: 'deny' })}>
                <span className={phase === 'denying' ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-x'} aria-hidden="true" />
                {t('scanApproval.deny')}
              </button>
              <button type="button" className="btn-primary" disabled={busy} aria-busy={phase === 'approving' || undefined} onClick={() => actor.send({ type: 'approve' })}>
                <span className={phase === 'approving' ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-check'} aria-hidden="true" />
                {t('scanApproval.approve')}
              </button>
            </div>
          </>
        )}
        {phase === 'approved' && (
          <Outcome icon="i-lucide-circle-check" tone="text-success" title={t('scanApproval.approvedTitle')} text={t('scanApproval.approvedDescription')} />
        )}
        {phase === 'denied' && (
          <Outcome icon="i-lucide-circle-x" tone="text-muted" title={t('scanApproval.deniedTitle')} text={t('scanApproval.deniedDescription')} />
        )}
        {phase === 'expired' && (
          <Outcome icon="i-lucide-timer-off" tone="text-muted" title={t('scanApproval.expiredTitle')} text={t('scanApproval.expiredDescription')} />
        )}
        {phase === 'unknown' && (
          <Outcome icon="i-lucide-circle-help" tone="text-muted" title={t('scanApproval.unknownTitle')} text={t('scanApproval.unknownDescription')} />
        )}
      </section>
    </div>
  );
};

export default ScanApprovalScreen;
