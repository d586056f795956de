import { useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, useLocation } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { accountFormLogic } from '../../app/account-actors';
import type { AccountField } from '../../machines/account-form.machine';
import { AvatarField } from './avatar-field';
import { SessionsPanel } from './sessions-panel';
import { SharesPanel } from './shares-panel';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { FormField as Field } from '../../components/form-field';
import { AccountDataPanel } from './account-data-panel';
import { PasswordPanel } from './password-panel';

const AccountForm = () => {
  const { t } = useTranslation();
  const { app, toast } = useRuntime();
  const [, navigate] = useLocation();
  const fields = useRef<Partial<Record<AccountField, HTMLInputElement | null>>>({});
  const [logic] = useState(() => accountFormLogic({ app, toast }));
  const form = useScreenActor(logic, { input: {} });
  const phase = useSelector(form, (state) => (state.matches('loading') ? 'loading' : state.matches('loadFailed') ? 'loadFailed' : 'ready'));
  const username = useSelector(form, (state) => state.context.username);
  const values = useSelector(form, (state) => state.context.values);
  const problems = useSelector(form, (state) => state.context.problems);
  const saving = useSelector(form, (state) => state.matches({ ready: { form: 'saving' } }));
  const saveFailed = useSelector(form, (state) => state.matches({ ready: { form: 'failed' } }));
  const failure = useSelector(form, (state) => state.context.failure);
  const uploading = useSelector(form, (state) => state.matches({ ready: { avatar: 'uploading' } }));

  const goBack = () => (history.length > 1 ? history.back() : navigate('/'));

  if (phase === 'loading') {
    return <LoadingStatus>{t('account.loading')}</LoadingStatus>;
  }
  if (phase === 'loadFailed') {
    return (
      <div role="alert" className="rounded-xl border border-danger p-5">
        <p className="mb-3 mt-0 text-danger">{t('account.loadFailed')}</p>
        <button type="button" className="btn-primary" onClick={() => form.send({ type: 'retry' })}>
          {t('account.retry')}
        </button>
      </div>
    );
  }

  const problemText = (field: AccountField) => {
    const problem = problems[field];
    return problem ? t(`account.problems.${field}.${problem}`) : null;
  };
  const textField = (field: AccountField, label: string, hint: string, extra: { autoComplete?: string; maxLength?: number } = {}) => (
    <Field id={`account-${field}`} label={label} hint={hint} error={problemText(field)}>
      {(describedBy) => (
        <input
          id={`account-${field}`}
          ref={(element) => {
            fields.current[field] = element;
          }}
          className={`field ${problems[field] ? 'border-danger' : ''}`}
          value={values[field]}
          aria-invalid={problems[field] ? true : undefined}
          aria-describedby={describedBy}
          spellCheck={false}
          onChange={(event) => form.send({ type: 'field.change', field, value: event.target.value })}
          {...extra}
        />
      )}
    </Field>
  );

  return (
    <form
      noValidate
      className="flex flex-col gap-5 rounded-xl border border-line bg-surface p-5 sm:p-6"
      onSubmit={(event) => {
        event.preventDefault();
        form.send({ type: 'save' });
        const invalid = (['nickname', 'wechatId'] as const).find((field) => form.getSnapshot().context.problems[field]);
        if (invalid) fields.current[invalid]?.focus();
      }}
    >
      <AvatarField form={form} />
      <Field id="account-username" label={t('account.username')} hint={t('account.usernameHint')} error={null}>
        {(describedBy) => (
          <input id="account-username" className="field bg-raised text-muted" value={username} readOnly aria-describedby={describedBy} />
        )}
      </Field>
      {textField('nickname', t('account.nickname'), t('account.nicknameHint'), { autoComplete: 'nickname' })}
      {textField('wechatId', t('account.wechatId'), t('account.wechatIdHint'), { autoComplete: 'off' })}
      {saveFailed && (
        <div role="alert" className="rounded-lg border border-danger px-3 py-2 text-sm text-danger">
          <p className="m-0">{t('account.saveFailed')}</p>
          {failure && <p className="m-0 mt-1 text-fg">{failure}</p>}
        </div>
      )}
      <div className="flex flex-wrap justify-end gap-2 border-t border-line pt-4">
        <button type="button" className="btn-outline" onClick={goBack}>
          <span className="i-lucide-arrow-left rtl:-scale-x-100" aria-hidden="true" />
          {t('account.back')}
        </button>
        <button type="submit" className="btn-primary min-w-24" disabled={saving || uploading} aria-busy={saving || undefined}>
          <span className={saving ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-save'} aria-hidden="true" />
          {saving ? t('account.saving') : t('account.save')}
        </button>
      </div>
    </form>
  );
};

const AccountScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('account.title'));
  const { app } = useRuntime();
  const signedIn = useSelector(app, (state) => state.context.user !== null);
  if (!signedIn) return <Redirect to={`/login?redirect_url=${encodeURIComponent('/account')}`} replace />;
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      <section className="mx-auto w-full max-w-xl p-4 sm:p-6" aria-labelledby="account-title">
        <h1 id="account-title" className="mb-1 text-2xl font-semibold">
          {t('account.title')}
        </h1>
        <p className="mb-6 mt-0 text-muted">{t('account.subtitle')}</p>
        <AccountForm />
        <PasswordPanel />
        <SessionsPanel />
        <SharesPanel />
        <AccountDataPanel />
      </section>
    </div>
  );
};

export default AccountScreen;
