import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminConnectorsLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { formatDateTime } from '../../i18n/format';
import type { ConnectorField } from '../../machines/admin-connectors.machine';
import { BusyButton } from '../../components/busy-button';
import { SubmitForm } from '../../components/submit-form';
import { EmptyNote, Labelled, LoadFailed, OrganisationOptions, RefusalAlert } from './admin-widgets';

/** An organisation's LinkedIn connector: whether it is configured and where from, a form to set it, and a way to remove it. */
export const ConnectorsPanel = () => {
  const { t, i18n } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminConnectorsLogic({ toast }));
  const actor = useScreenActor(logic);
  const { organisations, companyId, connectors, form, problems, failure } = useSelector(actor, (state) => state.context);
  const phase = useSelector(actor, (state) =>
    state.matches('organisationsFailed') || state.matches({ chosen: 'loadFailed' })
      ? 'failed'
      : state.matches('noOrganisation')
        ? 'empty'
        : state.matches({ chosen: 'loaded' })
          ? 'loaded'
          : 'loading',
  );
  const saving = useSelector(actor, (state) => state.matches({ chosen: { loaded: 'saving' } }));
  const clearing = useSelector(actor, (state) => state.matches({ chosen: { loaded: 'clearing' } }));
  const canClear = useSelector(actor, (state) => state.can({ type: 'clear' }));
  const linkedin = connectors.find((connector) => connector.platform === 'linkedin');

  if (phase === 'failed') return <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />;
  if (phase === 'empty') return <EmptyNote>{t('admin.connectors.none')}</EmptyNote>;

  const field = (name: ConnectorField, type: 'password' | 'text') => {
    const problem = problems[name];
    return (
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`connector-${name}`}>{t(`admin.connectors.${name}`)}</label>
        <input
          id={`connector-${name}`}
          type={type}
          className={`field font-mono ${problem ? 'border-danger' : ''}`}
          value={form[name]}
          autoComplete="off"
          spellCheck={false}
          placeholder={name === 'authorUrn' ? t('admin.connectors.authorUrnExample') : undefined}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`connector-${name}-hint${problem ? ` connector-${name}-error` : ''}`}
          onChange={(event) => actor.send({ type: 'form.change', field: name, value: event.target.value })}
        />
        {problem && (
          <span id={`connector-${name}-error`} className="text-danger">
            {t(`admin.connectors.problems.${name}.${problem}`)}
          </span>
        )}
        <span id={`connector-${name}-hint`} className="text-xs text-muted">
          {t(`admin.connectors.${name}Hint`)}
        </span>
      </div>
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <Labelled label={t('admin.connectors.organisation')} className="sm:max-w-sm">
        <select className="field" value={companyId ?? ''} onChange={(event) => actor.send({ type: 'organisation.pick', companyId: event.target.value })}>
          <OrganisationOptions organisations={organisations} />
        </select>
      </Labelled>
      {phase === 'loading' ? (
        <LoadingStatus>{t('admin.connectors.loading')}</LoadingStatus>
      ) : (
        <section className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4" aria-labelledby="connector-linkedin-title" data-testid="connector-linkedin">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h3 id="connector-linkedin-title" className="m-0 flex items-center gap-2 text-base font-semibold">
                <span className="i-lucide-linkedin" aria-hidden="true" />
                {t('admin.connectors.linkedin')}
                <span className={`rounded-full border px-2 py-0.5 text-xs font-normal ${linkedin?.configured ? 'border-success text-success' : 'border-line text-muted'}`}>
                  {linkedin?.configured ? t('admin.connectors.configured') : t('admin.connectors.notConfigured')}
                </span>
              </h3>
              <p className="m-0 mt-1 text-sm text-muted">{t(`admin.connectors.source.${linkedin?.source ?? 'none'}`)}</p>
              {linkedin?.authorUrn && <p className="m-0 mt-1 break-all font-mono text-xs">{t('admin.connectors.author', { urn: linkedin.authorUrn })}</p>}
              {linkedin?.updatedAt && (
                <p className="m-0 mt-1 text-xs text-muted">
                  {t('admin.connectors.updated', { when: formatDateTime(linkedin.updatedAt, i18n.language), name: linkedin.updatedByName ?? '—' })}
                </p>
              )}
            </div>
            {(canClear || clearing) && (
              <BusyButton
                className="btn-outline text-danger"
                disabled={saving || clearing}
                busy={clearing}
                icon="i-lucide-trash-2"
                label={t('admin.connectors.clear')}
                busyLabel={t('admin.connectors.clearing')}
                onClick={() => actor.send({ type: 'clear' })}
              />
            )}
          </div>
          <SubmitForm noValidate className="flex flex-col gap-3 border-t border-line pt-4" onSubmit={() => actor.send({ type: 'save' })}>
            <h4 className="m-0 text-sm font-semibold">{t('admin.connectors.setTitle')}</h4>
            {field('accessToken', 'password')}
            {field('authorUrn', 'text')}
            {failure && <RefusalAlert failure={failure} what={t('admin.connectors.failed')} said={{ 409: t('admin.connectors.noKey') }} />}
            <div className="flex justify-end">
              <BusyButton type="submit" className="btn-primary" disabled={saving || clearing} busy={saving} icon="i-lucide-save" label={t('admin.connectors.save')} busyLabel={t('admin.connectors.saving')} />
            </div>
          </SubmitForm>
        </section>
      )}
    </div>
  );
};
