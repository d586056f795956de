import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BusyButton } from '../../components/busy-button';
import { TextField } from '../../components/form-field';
import { SubmitForm } from '../../components/submit-form';
import { MODEL_DISPLAY_NAME_MAX, MODEL_NAME_MAX, PROVIDER_KEY_MAX, PROVIDER_NAME_MAX, PROVIDER_URL_MAX } from '../../contract/models';
import type { ModelForm, ProviderForm, RegistryField, RegistryProblems } from '../../machines/admin-models.machine';

type FormProps<F> = {
  form: F;
  problems: RegistryProblems;
  saving: boolean;
  /** The server's refusal, beside the form that was refused. */
  refusal: ReactNode;
  onChange: (field: RegistryField, value: string | boolean) => void;
  onSave: () => void;
  onCancel: () => void;
};

const Buttons = ({ saving, onCancel }: { saving: boolean; onCancel: () => void }) => {
  const { t } = useTranslation();
  return (
    <div className="flex flex-wrap justify-end gap-2">
      <button type="button" className="btn-ghost" disabled={saving} onClick={onCancel}>
        {t('admin.models.form.cancel')}
      </button>
      <BusyButton type="submit" className="btn-primary" disabled={saving} busy={saving} icon="i-lucide-save" label={t('admin.models.form.save')} busyLabel={t('admin.models.form.saving')} />
    </div>
  );
};

const Check = ({ id, label, checked, disabled, onChange }: { id: string; label: string; checked: boolean; disabled?: boolean; onChange: (checked: boolean) => void }) => (
  <label htmlFor={id} className="inline-flex items-center gap-2 text-sm">
    <input id={id} type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
    {label}
  </label>
);

/** Adding or changing a provider: its name, its OpenAI-compatible address, and a key that is written, never read back. */
export const ProviderFormCard = ({ form, problems, saving, refusal, onChange, onSave, onCancel }: FormProps<ProviderForm>) => {
  const { t } = useTranslation();
  const error = (field: 'name' | 'baseUrl' | 'apiKey') => (problems[field] ? t(`admin.models.problems.provider.${field}.${problems[field]}`) : null);
  const keyHint = form.id === null ? t('admin.models.form.keyHintNew') : form.hasKey ? t('admin.models.form.keyHintKeep') : t('admin.models.form.keyHintNone');
  return (
    <SubmitForm noValidate className="flex flex-col gap-3 rounded-xl border border-accent/50 bg-surface p-4" aria-labelledby="provider-form-title" onSubmit={onSave}>
      <h3 id="provider-form-title" className="m-0 text-base font-semibold">
        {form.id === null ? t('admin.models.form.addProviderTitle') : t('admin.models.form.editProviderTitle', { name: form.name })}
      </h3>
      <fieldset disabled={saving} className="m-0 flex min-w-0 flex-col gap-3 border-0 p-0">
        <TextField id="provider-name" label={t('admin.models.form.providerName')} error={error('name')} value={form.name} maxLength={PROVIDER_NAME_MAX} autoFocus onValue={(value) => onChange('name', value)} />
        <TextField
          id="provider-base-url"
          label={t('admin.models.form.baseUrl')}
          hint={t('admin.models.form.baseUrlHint')}
          error={error('baseUrl')}
          value={form.baseUrl}
          maxLength={PROVIDER_URL_MAX}
          type="url"
          inputMode="url"
          spellCheck={false}
          autoComplete="off"
          placeholder="https://api.openai.com/v1"
          onValue={(value) => onChange('baseUrl', value)}
        />
        <TextField
          id="provider-api-key"
          label={t('admin.models.form.apiKey')}
          hint={keyHint}
          error={error('apiKey')}
          value={form.apiKey}
          maxLength={PROVIDER_KEY_MAX}
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          disabled={form.removeKey}
          onValue={(value) => onChange('apiKey', value)}
        />
        {form.id !== null && form.hasKey && (
          <Check id="provider-remove-key" label={t('admin.models.form.removeKey')} checked={form.removeKey} onChange={(checked) => onChange('removeKey', checked)} />
        )}
      </fieldset>
      {refusal}
      <Buttons saving={saving} onCancel={onCancel} />
    </SubmitForm>
  );
};

/** Adding or changing a model of a provider by hand: the API's name for it, a display name, what it can take and write. */
export const ModelFormCard = ({ form, problems, saving, refusal, onChange, onSave, onCancel }: FormProps<ModelForm>) => {
  const { t } = useTranslation();
  const error = (field: 'model' | 'name' | 'contextWindow' | 'maxOutput') => (problems[field] ? t(`admin.models.problems.model.${field}.${problems[field]}`) : null);
  const count = (field: 'contextWindow' | 'maxOutput') => (
    <TextField
      id={`model-${field}`}
      label={t(`admin.models.form.${field}`)}
      hint={t('admin.models.form.tokensHint')}
      error={error(field)}
      value={form[field]}
      inputMode="numeric"
      autoComplete="off"
      onValue={(value) => onChange(field, value)}
    />
  );
  return (
    <SubmitForm noValidate className="flex flex-col gap-3 rounded-xl border border-accent/50 bg-surface p-4" aria-labelledby="model-form-title" onSubmit={onSave}>
      <h3 id="model-form-title" className="m-0 text-base font-semibold">
        {form.id === null ? t('admin.models.form.addModelTitle') : t('admin.models.form.editModelTitle', { name: form.name })}
      </h3>
      <fieldset disabled={saving} className="m-0 grid min-w-0 gap-3 border-0 p-0 sm:grid-cols-2">
        <TextField
          id="model-model"
          label={t('admin.models.form.model')}
          hint={t('admin.models.form.modelHint')}
          error={error('model')}
          value={form.model}
          maxLength={MODEL_NAME_MAX}
          spellCheck={false}
          autoComplete="off"
          autoFocus
          onValue={(value) => onChange('model', value)}
        />
        <TextField id="model-name" label={t('admin.models.form.displayName')} hint={t('admin.models.form.displayNameHint')} error={error('name')} value={form.name} maxLength={MODEL_DISPLAY_NAME_MAX} onValue={(value) => onChange('name', value)} />
        {count('contextWindow')}
        {count('maxOutput')}
        <fieldset className="m-0 flex min-w-0 flex-col gap-1 border-0 p-0 sm:col-span-2">
          <legend className="mb-1 p-0 text-sm font-medium">{t('admin.models.form.abilities')}</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            <Check id="model-vision" label={t('admin.models.form.vision')} checked={form.vision} onChange={(checked) => onChange('vision', checked)} />
            <Check id="model-enabled" label={t('admin.models.form.enabled')} checked={form.enabled} onChange={(checked) => onChange('enabled', checked)} />
          </div>
        </fieldset>
      </fieldset>
      {refusal}
      <Buttons saving={saving} onCancel={onCancel} />
    </SubmitForm>
  );
};
