import { useSelector } from '@xstate/react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import { adminReviewsLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { AgentAvatar } from '../../components/agent-avatar';
import { BusyButton } from '../../components/busy-button';
import { FormField } from '../../components/form-field';
import { LoadingStatus } from '../../components/loading-status';
import { SubmitForm } from '../../components/submit-form';
import { AGENT_LANGUAGES, REJECT_REASON_MAX, STUDIO_ERRORS, type AgentVersion } from '../../contract/studio';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { LOCALE_NAMES } from '../../i18n/locale';
import type { adminReviewsMachine, AdminReviewsEvent, ReviewFailure } from '../../machines/admin-reviews.machine';
import { EmptyNote, LoadFailed, Pager, RefusalAlert } from './admin-widgets';

type Snapshot = SnapshotFrom<typeof adminReviewsMachine>;
type Send = (event: AdminReviewsEvent) => void;

const Refusal = ({ failure }: { failure: ReviewFailure }) => {
  const { t } = useTranslation();
  const said = failure.reason === STUDIO_ERRORS.notPending && failure.status !== undefined ? { [failure.status]: t('admin.reviews.notPending') } : {};
  return <RefusalAlert failure={failure} what={t(`admin.reviews.failed.${failure.during}`)} said={said} />;
};

/** A label above what the author wrote. */
const Part = ({ label, children }: { label: string; children: ReactNode }) => (
  <div className="flex min-w-0 flex-col gap-1">
    <h4 className="m-0 text-xs font-semibold uppercase tracking-wide text-muted">{label}</h4>
    {children}
  </div>
);

/** The refusal's reason, which the author reads: required, and kept as typed when the server refuses it. */
const RejectForm = ({ version, state, send }: { version: AgentVersion; state: Snapshot; send: Send }) => {
  const { t, i18n } = useTranslation();
  const { rejection, problem } = state.context;
  const sending = state.matches({ ready: 'rejecting' });
  if (rejection?.versionId !== version.versionId) return null;
  const id = `reject-reason-${version.versionId}`;
  return (
    <SubmitForm noValidate className="flex flex-col gap-2 border-t border-line pt-3" onSubmit={() => send({ type: 'reject' })}>
      <FormField
        id={id}
        label={t('admin.reviews.reason')}
        hint={t('admin.reviews.reasonHint', { count: formatNumber(rejection.reason.length, i18n.language), max: formatNumber(REJECT_REASON_MAX, i18n.language) })}
        error={problem ? t(`admin.reviews.reasonProblems.${problem}`) : null}
      >
        {(describedBy) => (
          <textarea
            id={id}
            className={`field min-h-24 ${problem ? 'border-danger' : ''}`}
            value={rejection.reason}
            maxLength={REJECT_REASON_MAX}
            readOnly={sending}
            autoFocus
            aria-invalid={problem ? true : undefined}
            aria-describedby={describedBy}
            onChange={(event) => send({ type: 'reason.change', reason: event.target.value })}
          />
        )}
      </FormField>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn-ghost" disabled={sending} onClick={() => send({ type: 'reject.cancel' })}>
          {t('admin.reviews.cancel')}
        </button>
        <BusyButton type="submit" className="btn-primary bg-danger" disabled={sending} busy={sending} icon="i-lucide-circle-x" label={t('admin.reviews.sendRejection')} busyLabel={t('admin.reviews.rejecting')} />
      </div>
    </SubmitForm>
  );
};

/** One version waiting: everything its author wrote that the public would meet, as text, then the decision. */
const ReviewCard = ({ version, state, send }: { version: AgentVersion; state: Snapshot; send: Send }) => {
  const { t, i18n } = useTranslation();
  const { modelNames, organisations, pending, failure } = state.context;
  const { content } = version;
  const organisation = organisations[version.agentId];
  const approving = pending?.action === 'approve' && pending.versionId === version.versionId;
  const starters = AGENT_LANGUAGES.flatMap((language) => (content.starters[language]?.length ? [[language, content.starters[language]!] as const] : []));
  const titleId = `review-${version.versionId}`;
  return (
    <article className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4" aria-labelledby={titleId} data-testid="review-card">
      <header className="flex items-start gap-3">
        <AgentAvatar src={content.avatar} name={content.name} size={40} />
        <div className="min-w-0">
          <h3 id={titleId} className="m-0 break-words text-base font-semibold" dir="auto">
            {content.name}
          </h3>
          <p className="m-0 text-sm text-muted">
            {t('admin.reviews.by', { name: version.createdByName })}
            {organisation !== undefined && <> · {organisation === null ? t('admin.reviews.noOrganisation') : t('admin.reviews.organisation', { name: organisation })}</>}
          </p>
          <p className="m-0 text-xs text-muted">{t('admin.reviews.sent', { when: formatDateTime(version.createdAt, i18n.language) })}</p>
        </div>
      </header>
      <Part label={t('admin.reviews.agentIntro')}>
        {content.intro ? (
          <p className="m-0 whitespace-pre-wrap break-words text-sm" dir="auto">
            {content.intro}
          </p>
        ) : (
          <p className="m-0 text-sm text-muted">{t('admin.reviews.empty')}</p>
        )}
      </Part>
      <Part label={t('admin.reviews.model')}>
        <p className="m-0 text-sm">{content.modelId === null ? t('admin.reviews.defaultModel') : (modelNames[content.modelId] ?? content.modelId)}</p>
      </Part>
      <Part label={t('admin.reviews.systemPrompt')}>
        {content.systemPrompt ? (
          <pre
            className="m-0 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-lg border border-line bg-raised p-3 font-mono text-xs"
            tabIndex={0}
            aria-label={t('admin.reviews.systemPromptOf', { name: content.name })}
            dir="auto"
          >
            {content.systemPrompt}
          </pre>
        ) : (
          <p className="m-0 text-sm text-muted">{t('admin.reviews.empty')}</p>
        )}
      </Part>
      <Part label={t('admin.reviews.starters')}>
        {starters.length === 0 ? (
          <p className="m-0 text-sm text-muted">{t('admin.reviews.noStarters')}</p>
        ) : (
          starters.map(([language, list]) => (
            <div key={language} className="text-sm" lang={language}>
              <p className="m-0 text-xs text-muted">{LOCALE_NAMES[language]}</p>
              <ul className="m-0 list-disc ps-5">
                {list.map((starter, index) => (
                  <li key={index} className="break-words" dir="auto">
                    {starter}
                  </li>
                ))}
              </ul>
            </div>
          ))
        )}
      </Part>
      {failure && failure.during !== 'load' && failure.versionId === version.versionId && <Refusal failure={failure} />}
      {state.context.rejection?.versionId !== version.versionId && (
        <div className="flex flex-wrap justify-end gap-2 border-t border-line pt-3">
          <button
            type="button"
            className="btn-outline text-danger"
            disabled={!state.can({ type: 'reject.open', versionId: version.versionId })}
            aria-label={t('admin.reviews.rejectLabel', { name: content.name })}
            onClick={() => send({ type: 'reject.open', versionId: version.versionId })}
          >
            <span className="i-lucide-circle-x" aria-hidden="true" />
            {t('admin.reviews.reject')}
          </button>
          <BusyButton
            className="btn-primary"
            disabled={!state.can({ type: 'approve', versionId: version.versionId })}
            busy={approving}
            icon="i-lucide-circle-check"
            label={t('admin.reviews.approve')}
            busyLabel={t('admin.reviews.approving')}
            aria-label={approving ? undefined : t('admin.reviews.approveLabel', { name: content.name })}
            onClick={() => send({ type: 'approve', versionId: version.versionId })}
          />
        </div>
      )}
      <RejectForm version={version} state={state} send={send} />
    </article>
  );
};

/** Agents waiting to be public: what each says, to approve it or refuse it with a reason. */
export const ReviewsPanel = () => {
  const { t } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminReviewsLogic({ toast }));
  const actor = useScreenActor(logic);
  const state = useSelector(actor, (snapshot) => snapshot);
  const { reviews, total, current, pageSize, failure } = state.context;
  const send = actor.send;

  if (state.matches('loadFailed')) return <LoadFailed failure={failure} onRetry={() => send({ type: 'retry' })} />;
  if (state.matches('loading') && reviews.length === 0 && total === 0) return <LoadingStatus>{t('admin.reviews.loading')}</LoadingStatus>;
  // A version decided meanwhile has left the list: its refusal is said above it.
  const gone = failure && failure.during !== 'load' && !reviews.some((version) => version.versionId === failure.versionId) ? failure : null;
  return (
    <div className="flex flex-col gap-4" aria-busy={state.matches('loading') || undefined}>
      <p className="m-0 max-w-prose text-sm text-muted">{t('admin.reviews.about')}</p>
      {gone && <Refusal failure={gone} />}
      {reviews.length === 0 ? (
        <EmptyNote>{t('admin.reviews.none')}</EmptyNote>
      ) : (
        <>
          <p className="m-0 text-sm text-muted">{t('admin.reviews.total', { count: total })}</p>
          {reviews.map((version) => (
            <ReviewCard key={version.versionId} version={version} state={state} send={send} />
          ))}
          <Pager current={current} pages={Math.max(1, Math.ceil(total / pageSize))} onPage={(page) => send({ type: 'page', current: page })} />
        </>
      )}
    </div>
  );
};
