import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { passwordLoginLogic } from '../../app/login-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { SubmitForm } from '../../components/submit-form';
import { LoginAlert } from './login-alert';
import { loginFailureKey } from './login-failure';

/** The password form: account and password, its failures, and where it goes once signed in. */
export const PasswordLoginForm = ({ returnTo }: { returnTo: string }) => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const [, navigate] = useLocation();

  const login = useScreenActor(passwordLoginLogic({ app, navigate, returnTo }));
  const username = useSelector(login, (state) => state.context.username);
  const password = useSelector(login, (state) => state.context.password);
  const failure = useSelector(login, (state) => state.context.failure);
  const submitting = useSelector(login, (state) => state.matches('submitting'));

  return (
    <SubmitForm className="mt-4 flex flex-col gap-4" noValidate onSubmit={() => login.send({ type: 'submit' })}>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t('login.account')}
        <input
          name="username"
          autoComplete="username"
          inputMode="email"
          className="field"
          placeholder={t('login.accountPlaceholder')}
          value={username}
          onChange={(event) => login.send({ type: 'field.change', field: 'username', value: event.target.value })}
        />
      </label>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t('login.password')}
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          className="field"
          placeholder={t('login.passwordPlaceholder')}
          value={password}
          onChange={(event) => login.send({ type: 'field.change', field: 'password', value: event.target.value })}
        />
      </label>
      {failure && (
        <LoginAlert title={failure.reason === 'missing-fields' ? undefined : t('login.failedTitle')}>
          {t(loginFailureKey(failure))}
        </LoginAlert>
      )}
      <button type="submit" className="btn-primary" disabled={submitting}>
        {submitting ? t('login.submitting') : t('login.submit')}
      </button>
    </SubmitForm>
  );
};
