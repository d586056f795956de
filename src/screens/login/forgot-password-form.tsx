import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resetByMailLogic } from '../../app/login-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { TextField } from '../../components/form-field';
import { SubmitForm } from '../../components/submit-form';
import { LoginAlert } from './login-alert';

/** "Forgot password?": the account name, and a link sent to it if it exists. */
export const ForgotPasswordForm = () => {
  const { t } = useTranslation();
  const [logic] = useState(resetByMailLogic);
  const request = useScreenActor(logic);
  const username = useSelector(request, (state) => state.context.username);
  const problem = useSelector(request, (state) => state.context.problem);
  const failure = useSelector(request, (state) => state.context.failure);
  const sending = useSelector(request, (state) => state.matches('sending'));
  const sent = useSelector(request, (state) => state.matches('sent'));

  if (sent) {
    return (
      <p role="status" className="mt-4 rounded-lg border border-line bg-raised p-3 text-sm">
        {t('login.forgot.sent', { username: username.trim() })}
      </p>
    );
  }
  return (
    <SubmitForm className="mt-4 flex flex-col gap-4" noValidate onSubmit={() => request.send({ type: 'submit' })}>
      <p className="m-0 text-sm text-muted">{t('login.forgot.intro')}</p>
      <TextField
        id="forgot-username"
        label={t('login.account')}
        error={problem ? t(problem) : null}
        name="username"
        autoComplete="username"
        inputMode="email"
        value={username}
        onValue={(value) => request.send({ type: 'username.change', value })}
      />
      {failure && <LoginAlert title={t('login.forgot.failedTitle')}>{t(failure)}</LoginAlert>}
      <button type="submit" className="btn-primary" disabled={sending} aria-busy={sending || undefined}>
        {sending ? t('login.forgot.sending') : t('login.forgot.submit')}
      </button>
    </SubmitForm>
  );
};
