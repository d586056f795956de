import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordChangeLogic } from '../../app/account-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { BusyButton } from '../../components/busy-button';
import { FailureAlert } from '../../components/failure-alert';
import { TextField } from '../../components/form-field';
import { SubmitForm } from '../../components/submit-form';
import type { PasswordField } from '../../machines/password-change.machine';

const AUTOCOMPLETE: Record<PasswordField, string> = { current: 'current-password', next: 'new-password', confirm: 'new-password' };

/** Changing the password: the current one, then the new one twice. */
export const PasswordPanel = () => {
  const { t } = useTranslation();
  const { app, toast } = useRuntime();
  const username = useSelector(app, (state) => state.context.user?.username ?? '');
  const [logic] = useState(() => passwordChangeLogic({ toast }));
  const form = useScreenActor(logic, { input: { username } });
  const values = useSelector(form, (state) => state.context.values);
  const problems = useSelector(form, (state) => state.context.problems);
  const failure = useSelector(form, (state) => state.context.failure);
  const submitting = useSelector(form, (state) => state.matches('submitting'));

  const field = (name: PasswordField, hint?: string) => (
    <TextField
      id={`password-${name}`}
      label={t(`account.password.${name}`)}
      hint={hint}
      error={problems[name] ? t(problems[name]) : null}
      type="password"
      autoComplete={AUTOCOMPLETE[name]}
      value={values[name]}
      onValue={(value) => form.send({ type: 'field.change', field: name, value })}
    />
  );

  return (
    <section className="mt-6 rounded-xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="password-title">
      <h2 id="password-title" className="m-0 text-lg font-semibold">
        {t('account.password.title')}
      </h2>
      <p className="mb-4 mt-0 text-sm text-muted">{t('account.password.subtitle')}</p>
      <SubmitForm noValidate className="flex flex-col gap-4" onSubmit={() => form.send({ type: 'submit' })}>
        {/* The account name, for the browser's password manager. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        {field('current')}
        {field('next', t('password.rule'))}
        {field('confirm')}
        {failure && <FailureAlert what={t('account.password.failed')} why={t(failure)} />}
        <div className="flex justify-end">
          <BusyButton type="submit" className="btn-primary" disabled={submitting} busy={submitting} icon="i-lucide-key-round" label={t('account.password.change')} busyLabel={t('account.password.changing')} />
        </div>
      </SubmitForm>
    </section>
  );
};
