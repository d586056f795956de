import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordChangeLogic } from '../../app/account-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { FormField } from '../../components/form-field';
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
    <FormField id={`password-${name}`} label={t(`account.password.${name}`)} hint={hint} error={problems[name] ? t(problems[name]) : null}>
      {(describedBy) => (
        <input
          id={`password-${name}`}
          type="password"
          className={`field ${problems[name] ? 'border-danger' : ''}`}
          autoComplete={AUTOCOMPLETE[name]}
          value={values[name]}
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={describedBy}
          onChange={(event) => form.send({ type: 'field.change', field: name, value: event.target.value })}
        />
      )}
    </FormField>
  );

  return (
    <section className="mt-6 rounded-xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="password-title">
      <h2 id="password-title" className="m-0 text-lg font-semibold">
        {t('account.password.title')}
      </h2>
      <p className="mb-4 mt-0 text-sm text-muted">{t('account.password.subtitle')}</p>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          form.send({ type: 'submit' });
        }}
      >
        {/* The account name, for the browser's password manager. */}
        <input type="text" name="username" autoComplete="username" value={username} readOnly hidden />
        {field('current')}
        {field('next', t('password.rule'))}
        {field('confirm')}
        {failure && (
          <div role="alert" className="rounded-lg border border-danger px-3 py-2 text-sm">
            <p className="m-0 text-danger">{t('account.password.failed')}</p>
            <p className="m-0 mt-1">{t(failure)}</p>
          </div>
        )}
        <div className="flex justify-end">
          <button type="submit" className="btn-primary" disabled={submitting} aria-busy={submitting || undefined}>
            <span className={submitting ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-key-round'} aria-hidden="true" />
            {submitting ? t('account.password.changing') : t('account.password.change')}
          </button>
        </div>
      </form>
    </section>
  );
};
