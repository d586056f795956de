import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { Actor } from 'xstate';
import { useRuntime } from '../../app/runtime-context';
import type { loginPageMachine } from '../../machines/login-page.machine';
import { LoginAlert } from './login-alert';

/**
 * What an invitation link offers (organisation, role) above the forms, or why it cannot be used;
 * someone already signed in accepts it here with their account.
 */
export const InvitationNotice = ({ page, signedIn }: { page: Actor<typeof loginPageMachine>; signedIn: boolean }) => {
  const { t } = useTranslation();
  const preview = useSelector(page, (state) => state.context.preview);
  const failure = useSelector(page, (state) => state.context.invitationFailure);
  const accepting = useSelector(page, (state) => state.matches('accepting'));
  const name = useSelector(useRuntime().app, (state) => state.context.user?.nickname || state.context.user?.username || '');

  return (
    <div className="mt-3 flex flex-col gap-3">
      {failure && <LoginAlert title={t('login.invitation.failedTitle')}>{t(failure)}</LoginAlert>}
      {preview && (
        <div className="rounded-lg border border-accent bg-raised p-3 text-sm" data-testid="invitation">
          <p className="m-0 flex items-start gap-2">
            <span className="i-lucide-mail-open mt-0.5 shrink-0" aria-hidden="true" />
            <span>{t('login.invitation.offer', { company: preview.companyName, role: t(`login.roles.${preview.role}`) })}</span>
          </p>
          {signedIn && (
            <>
              <p className="mb-3 mt-2 text-muted">{t('login.invitation.asAccount', { name })}</p>
              <button type="button" className="btn-primary" disabled={accepting} aria-busy={accepting || undefined} onClick={() => page.send({ type: 'accept' })}>
                {accepting ? t('login.invitation.accepting') : t('login.invitation.accept')}
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
};
