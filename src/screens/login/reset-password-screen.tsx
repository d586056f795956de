import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { passwordResetLogic } from '../../app/login-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { TextField } from '../../components/form-field';
import { LoadingStatus } from '../../components/loading-status';
import { SubmitForm } from '../../components/submit-form';
import { useDocumentTitle } from '../../i18n/use-document-title';
import type { ResetField } from '../../machines/password-reset.machine';
import { LoginAlert } from './login-alert';

/** A reset link (`/reset-password?token=`): the account it is for, and its new password typed twice. */
const ResetPasswordScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('resetPassword.title'));
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const { toast } = useRuntime();
  const [, navigate] = useLocation();
  const [logic] = useState(() => passwordResetLogic({ toast, navigate }));
  const reset = useScreenActor(logic, { input: { token } });
  const loading = useSelector(reset, (state) => state.matches('loading'));
  const linkFailed = useSelector(reset, (state) => state.matches('linkFailed'));
  const username = useSelector(reset, (state) => state.context.username);
  const values = useSelector(reset, (state) => state.context.values);
  const problems = useSelector(reset, (state) => state.context.problems);
  const failure = useSelector(reset, (state) => state.context.failure);
  const submitting = useSelector(reset, (state) => state.matches('submitting'));

  const field = (name: ResetField, label: string, hint?: string) => (
    <TextField
      id={`reset-${name}`}
      label={label}
      hint={hint}
      error={problems[name] ? t(problems[name]) : null}
      type="password"
      autoComplete="new-password"
      value={values[name]}
      onValue={(value) => reset.send({ type: 'field.change', field: name, value })}
    />
  );

  const body = () => {
    if (loading) return <LoadingStatus>{t('resetPassword.checking')}</LoadingStatus>;
    if (linkFailed) {
      return (
        <div className="flex flex-col gap-4">
          <LoginAlert title={t('resetPassword.linkFailedTitle')}>{failure ? t(failure) : null}</LoginAlert>
          <Link href="/login" className="btn-outline self-start">
            {t('resetPassword.toLogin')}
          </Link>
        </div>
      );
    }
    return (
      <SubmitForm className="flex flex-col gap-4" noValidate onSubmit={() => reset.send({ type: 'submit' })}>
        <p className="m-0 text-sm">{t('resetPassword.forAccount', { username })}</p>
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        {field('password', t('resetPassword.password'), t('password.rule'))}
        {field('confirm', t('resetPassword.confirm'))}
        {failure && <LoginAlert title={t('resetPassword.failedTitle')}>{t(failure)}</LoginAlert>}
        <button type="submit" className="btn-primary" disabled={submitting} aria-busy={submitting || undefined}>
          {submitting ? t('resetPassword.submitting') : t('resetPassword.submit')}
        </button>
      </SubmitForm>
    );
  };

  return (
    <div className="flex flex-1 items-start justify-center px-4 py-12">
      <section className="w-full max-w-sm rounded-2xl border border-line bg-surface p-6 shadow-sm" aria-labelledby="reset-title">
        <h1 id="reset-title" className="mb-4 text-2xl font-semibold">
          {t('resetPassword.title')}
        </h1>
        {body()}
      </section>
    </div>
  );
};

export default ResetPasswordScreen;
