import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { signupLogic } from '../../app/login-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import type { SignupPolicy } from '../../contract/accounts';
import { TextField } from '../../components/form-field';
import { SubmitForm } from '../../components/submit-form';
import type { SignupField } from '../../machines/signup.machine';
import { LoginAlert } from './login-alert';

const INPUTS: Record<SignupField, { type: string; autoComplete: string }> = {
  username: { type: 'text', autoComplete: 'username' },
  nickname: { type: 'text', autoComplete: 'nickname' },
  password: { type: 'password', autoComplete: 'new-password' },
  confirm: { type: 'password', autoComplete: 'new-password' },
};

/** "Create an account": account name, an optional nickname, the password twice; signs in once made. */
export const SignupForm = ({ returnTo, invitation, policy }: { returnTo: string; invitation: string | null; policy: SignupPolicy | undefined }) => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const [, navigate] = useLocation();
  const form = useScreenActor(signupLogic({ app, navigate, returnTo }), { input: { invitation, policy } });
  const values = useSelector(form, (state) => state.context.values);
  const problems = useSelector(form, (state) => state.context.problems);
  const failure = useSelector(form, (state) => state.context.failure);
  const submitting = useSelector(form, (state) => state.matches('submitting'));

  const field = (name: SignupField, label: string, hint?: string) => (
    <TextField
      id={`signup-${name}`}
      label={label}
      hint={hint}
      error={problems[name] ? t(problems[name]) : null}
      name={name}
      {...INPUTS[name]}
      {...(name === 'username' ? { inputMode: 'email' as const, spellCheck: false } : {})}
      value={values[name]}
      onValue={(value) => form.send({ type: 'field.change', field: name, value })}
    />
  );

  return (
    <SubmitForm className="mt-4 flex flex-col gap-4" noValidate onSubmit={() => form.send({ type: 'submit' })}>
      {field('username', t('login.account'))}
      {field('nickname', t('login.signup.nickname'), t('login.signup.nicknameHint'))}
      {field('password', t('login.password'), t('password.rule'))}
      {field('confirm', t('login.signup.confirm'))}
      {failure && <LoginAlert title={t('login.signup.failedTitle')}>{t(failure)}</LoginAlert>}
      <button type="submit" className="btn-primary" disabled={submitting} aria-busy={submitting || undefined}>
        {submitting ? t('login.signup.submitting') : t('login.signup.submit')}
      </button>
    </SubmitForm>
  );
};
