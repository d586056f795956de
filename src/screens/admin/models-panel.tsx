import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { SnapshotFrom } from 'xstate';
import { useTranslation } from 'react-i18next';
import { adminModelsLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import type { AdminModel, AdminProvider } from '../../contract/models';
import { formatNumber } from '../../i18n/format';
import { isEditableModel, isEditableProvider, mayBeDefault, type AdminModelsEvent, type adminModelsMachine, type RegistryField } from '../../machines/admin-models.machine';
import { EmptyNote, LoadFailed } from './admin-widgets';
import { ModelFormCard, ProviderFormCard } from './models-panel-forms';
import { RegistryRefusal } from './models-panel-refusal';

type Snapshot = SnapshotFrom<typeof adminModelsMachine>;

const Badge = ({ tone = 'muted', children }: { tone?: 'muted' | 'accent' | 'success' | 'danger'; children: string }) => (
  <span className={`whitespace-nowrap rounded-full border px-2 py-0.5 text-xs font-normal ${{ muted: 'border-line text-muted', accent: 'border-accent text-accent', success: 'border-success text-success', danger: 'border-danger text-danger' }[tone]}`}>
    {children}
  </span>
);

const RowButton = ({ icon, label, name, disabled, onClick, danger = false }: { icon: string; label: string; name: string; disabled: boolean; onClick: () => void; danger?: boolean }) => (
  <button type="button" className={`btn-outline whitespace-nowrap py-1 ${danger ? 'text-danger' : ''}`} disabled={disabled} aria-label={`${label}: ${name}`} onClick={onClick}>
    <span className={icon} aria-hidden="true" />
    {label}
  </button>
);

/** A deletion asked for, waiting for the admin to say yes. */
const ConfirmDelete = ({ question, onConfirm, onCancel }: { question: string; onConfirm: () => void; onCancel: () => void }) => {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={question} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-danger/40 bg-danger/5 px-3 py-2 text-sm">
      <p className="m-0 min-w-0">{question}</p>
      <div className="flex gap-2">
        <button type="button" className="btn-ghost" autoFocus onClick={onCancel}>
          {t('admin.models.confirm.cancel')}
        </button>
        <button type="button" className="btn-primary bg-danger" onClick={onConfirm}>
          <span className="i-lucide-trash-2" aria-hidden="true" />
          {t('admin.models.confirm.delete')}
        </button>
      </div>
    </div>
  );
};

const tokens = (count: number | null, language: string, unknown: string) => (count === null ? unknown : formatNumber(count, language));

/** A capability of a model, named beside its value. */
const Capability = ({ label, value }: { label: string; value: string }) => (
  <div className="flex gap-1">
    <dt>{label}</dt>
    <dd className="m-0 text-fg">{value}</dd>
  </div>
);

const ModelRow = ({ model, offline, state, send }: { model: AdminModel; offline: boolean; state: Snapshot; send: (event: AdminModelsEvent) => void }) => {
  const { t, i18n } = useTranslation();
  // The offline responder is named in the admin's language, not the server's.
  const name = offline ? t('admin.models.offline.name') : model.name;
  const { providers, pending } = state.context;
  const editable = isEditableModel(providers, model.id);
  const busy = pending?.id === model.id && state.matches({ ready: 'settingDefault' });
  const unknown = t('admin.models.unknown');
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 border-t border-line px-3 py-3 first:border-t-0" data-testid="admin-model-row" aria-busy={busy || undefined}>
      <div className="min-w-0 flex-1 basis-60">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium" dir="auto">
            {name}
          </span>
          {model.isDefault && <Badge tone="accent">{t('admin.models.default')}</Badge>}
          {!model.enabled && <Badge tone="danger">{t('admin.models.disabled')}</Badge>}
          {model.agents > 0 && <Badge>{t('admin.models.usedBy', { count: model.agents })}</Badge>}
        </div>
        <p className="m-0 break-all font-mono text-xs text-muted">{model.model}</p>
        <dl className="m-0 mt-1 flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted">
          <Capability label={t('admin.models.columns.contextWindow')} value={tokens(model.contextWindow, i18n.language, unknown)} />
          <Capability label={t('admin.models.columns.maxOutput')} value={tokens(model.maxOutput, i18n.language, unknown)} />
          <Capability label={t('admin.models.columns.vision')} value={model.vision ? t('admin.models.yes') : t('admin.models.no')} />
        </dl>
      </div>
      <div className="flex flex-wrap gap-2">
        {mayBeDefault(providers, model.id) && (
          <RowButton icon="i-lucide-star" label={t('admin.models.makeDefault')} name={model.name} disabled={!state.can({ type: 'model.setDefault', id: model.id })} onClick={() => send({ type: 'model.setDefault', id: model.id })} />
        )}
        {editable && (
          <>
            <RowButton icon="i-lucide-pencil" label={t('admin.models.edit')} name={model.name} disabled={!state.can({ type: 'model.edit', id: model.id })} onClick={() => send({ type: 'model.edit', id: model.id })} />
            <RowButton icon="i-lucide-trash-2" label={t('admin.models.delete')} name={model.name} danger disabled={!state.can({ type: 'model.delete', id: model.id })} onClick={() => send({ type: 'model.delete', id: model.id })} />
          </>
        )}
      </div>
    </li>
  );
};

/** What a provider's `GET /models` listed: each one added with a click, or said to be there already. */
const Discovery = ({ provider, state, send }: { provider: AdminProvider; state: Snapshot; send: (event: AdminModelsEvent) => void }) => {
  const { t } = useTranslation();
  const { discovery, pending, failure } = state.context;
  if (discovery?.providerId !== provider.id) return null;
  return (
    <section className="flex flex-col gap-2 rounded-lg border border-line bg-raised/50 p-3" aria-labelledby={`discovery-${provider.id}`} data-testid="model-discovery">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 id={`discovery-${provider.id}`} className="m-0 text-sm font-semibold">
          {t('admin.models.discovery.title', { count: discovery.list.length })}
        </h4>
        <button type="button" className="btn-ghost py-1" onClick={() => send({ type: 'discovery.close' })}>
          {t('admin.models.discovery.close')}
        </button>
      </div>
      {failure?.during === 'addDiscovered' && <RegistryRefusal failure={failure} />}
      {discovery.list.length === 0 ? (
        <p className="m-0 text-sm text-muted">{t('admin.models.discovery.none')}</p>
      ) : (
        <ul className="m-0 flex max-h-72 list-none flex-col gap-1 overflow-y-auto p-0" tabIndex={0} aria-label={t('admin.models.discovery.listLabel', { name: provider.name })}>
          {discovery.list.map(({ model, added }) => (
            <li key={model} className="flex items-center justify-between gap-3 rounded-md px-2 py-1 hover:bg-raised">
              <span className="min-w-0 break-all font-mono text-xs">{model}</span>
              {added ? (
                <span className="shrink-0 text-xs text-success">{t('admin.models.discovery.added')}</span>
              ) : (
                <button
                  type="button"
                  className="btn-outline shrink-0 py-0.5 text-xs"
                  aria-label={t('admin.models.discovery.addLabel', { model })}
                  aria-busy={(pending?.action === 'addDiscovered' && pending.id === model) || undefined}
                  disabled={!state.can({ type: 'discovered.add', model })}
                  onClick={() => send({ type: 'discovered.add', model })}
                >
                  <span className="i-lucide-plus" aria-hidden="true" />
                  {t('admin.models.discovery.add')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

/** A provider with its models; the environment's and the offline responder are shown, never changed here. */
const ProviderCard = ({ provider, state, send }: { provider: AdminProvider; state: Snapshot; send: (event: AdminModelsEvent) => void }) => {
  const { t } = useTranslation();
  const { providers, form, problems, pending, failure } = state.context;
  const editable = isEditableProvider(providers, provider.id);
  const saving = state.matches({ ready: 'savingProvider' }) || state.matches({ ready: 'savingModel' });
  const hasModel = (id: string | null | undefined) => provider.models.some((model) => model.id === id);
  const confirming = state.matches({ ready: 'confirming' }) && pending !== null && (pending.id === provider.id || hasModel(pending.id));
  // A refusal of a call on this provider or one of its models, said here.
  const refused = failure && failure.during !== 'save' && failure.during !== 'addDiscovered' && failure.during !== 'load' && (failure.id === provider.id || hasModel(failure.id)) ? failure : null;
  // The environment's provider and the offline responder are named in the admin's language, not the server's.
  const title = provider.source === 'console' ? provider.name : t(`admin.models.${provider.source}.name`);
  const discovering = pending?.action === 'discover' && pending.id === provider.id;
  const formHere = form && (form.kind === 'provider' ? form.id === provider.id : form.providerId === provider.id) ? form : null;
  const formProps = {
    problems,
    saving,
    refusal: failure?.during === 'save' ? <RegistryRefusal failure={failure} isModelForm={form?.kind === 'model'} /> : null,
    onChange: (field: RegistryField, value: string | boolean) => send({ type: 'form.change', field, value }),
    onSave: () => send({ type: 'save' }),
    onCancel: () => send({ type: 'form.cancel' }),
  };
  return (
    <section className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4" aria-labelledby={`provider-${provider.id}`} data-testid="model-provider">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={`provider-${provider.id}`} className="m-0 flex flex-wrap items-center gap-2 text-base font-semibold">
            <span dir="auto" className="break-words">
              {title}
            </span>
            <Badge tone={provider.source === 'console' ? 'muted' : 'accent'}>{t(`admin.models.source.${provider.source}`)}</Badge>
            {provider.source === 'console' && <Badge tone={provider.hasKey ? 'success' : 'muted'}>{provider.hasKey ? t('admin.models.keySet') : t('admin.models.noKey')}</Badge>}
          </h3>
          {provider.baseUrl && <p className="m-0 mt-1 break-all font-mono text-xs text-muted">{provider.baseUrl}</p>}
          {provider.source !== 'console' && <p className="m-0 mt-1 text-sm text-muted">{t(`admin.models.sourceHint.${provider.source}`)}</p>}
        </div>
        {editable && (
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-outline py-1" disabled={!state.can({ type: 'provider.discover', id: provider.id })} aria-busy={discovering || undefined} onClick={() => send({ type: 'provider.discover', id: provider.id })}>
              <span className={discovering ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-radar'} aria-hidden="true" />
              {discovering ? t('admin.models.discovering') : t('admin.models.discover')}
            </button>
            <button type="button" className="btn-outline py-1" disabled={!state.can({ type: 'model.add', providerId: provider.id })} onClick={() => send({ type: 'model.add', providerId: provider.id })}>
              <span className="i-lucide-plus" aria-hidden="true" />
              {t('admin.models.addModel')}
            </button>
            <RowButton icon="i-lucide-pencil" label={t('admin.models.edit')} name={provider.name} disabled={!state.can({ type: 'provider.edit', id: provider.id })} onClick={() => send({ type: 'provider.edit', id: provider.id })} />
            <RowButton icon="i-lucide-trash-2" label={t('admin.models.delete')} name={provider.name} danger disabled={!state.can({ type: 'provider.delete', id: provider.id })} onClick={() => send({ type: 'provider.delete', id: provider.id })} />
          </div>
        )}
      </div>
      {formHere?.kind === 'provider' && <ProviderFormCard form={formHere} {...formProps} />}
      {confirming && (
        <ConfirmDelete
          question={
            pending.action === 'deleteProvider'
              ? t('admin.models.confirm.provider', { name: provider.name, count: provider.models.length })
              : t('admin.models.confirm.model', { name: provider.models.find((model) => model.id === pending.id)?.name ?? '' })
          }
          onConfirm={() => send({ type: 'delete.confirm' })}
          onCancel={() => send({ type: 'delete.cancel' })}
        />
      )}
      {refused && <RegistryRefusal failure={refused} />}
      <Discovery provider={provider} state={state} send={send} />
      {provider.models.length === 0 ? (
        <p className="m-0 text-sm text-muted">{t('admin.models.noModels')}</p>
      ) : (
        <ul className="m-0 list-none rounded-lg border border-line p-0" aria-label={t('admin.models.modelsOf', { name: title })}>
          {provider.models.map((model) => (
            <ModelRow key={model.id} model={model} offline={provider.source === 'offline'} state={state} send={send} />
          ))}
        </ul>
      )}
      {formHere?.kind === 'model' && <ModelFormCard form={formHere} {...formProps} />}
    </section>
  );
};

/** The model registry: the providers and their models, the default marked, each added, changed and deleted here. */
export const ModelsPanel = () => {
  const { t } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminModelsLogic({ toast }));
  const actor = useScreenActor(logic);
  const state = useSelector(actor, (snapshot) => snapshot);
  const { providers, form, problems, failure } = state.context;
  const send = actor.send;

  if (state.matches('loadFailed')) return <LoadFailed failure={failure} onRetry={() => send({ type: 'retry' })} />;
  if (state.matches('loading') && providers.length === 0) return <LoadingStatus>{t('admin.models.loading')}</LoadingStatus>;
  const saving = state.matches({ ready: 'savingProvider' });
  return (
    <div className="flex flex-col gap-4" aria-busy={state.matches('loading') || undefined}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <p className="m-0 max-w-prose text-sm text-muted">{t('admin.models.intro')}</p>
        <button type="button" className="btn-primary" disabled={!state.can({ type: 'provider.add' })} onClick={() => send({ type: 'provider.add' })}>
          <span className="i-lucide-plus" aria-hidden="true" />
          {t('admin.models.addProvider')}
        </button>
      </div>
      {form?.kind === 'provider' && form.id === null && (
        <ProviderFormCard
          form={form}
          problems={problems}
          saving={saving}
          refusal={failure?.during === 'save' ? <RegistryRefusal failure={failure} /> : null}
          onChange={(field, value) => send({ type: 'form.change', field, value })}
          onSave={() => send({ type: 'save' })}
          onCancel={() => send({ type: 'form.cancel' })}
        />
      )}
      {providers.length === 0 ? (
        <EmptyNote>{t('admin.models.none')}</EmptyNote>
      ) : (
        providers.map((provider) => <ProviderCard key={provider.id} provider={provider} state={state} send={send} />)
      )}
    </div>
  );
};
