import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminInvitationsLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import type { Role } from '../../contract/users';
import { formatDateTime } from '../../i18n/format';
import { invitationStatus, type InvitationStatus } from '../../machines/admin-invitations.machine';
import { BusyButton } from '../../components/busy-button';
import { Cell, CreateForm, EmptyNote, Labelled, LoadFailed, OneTimeLink, OrganisationOptions, RefusalAlert, RoleOptions, Table } from './admin-widgets';

const STATUS_CLASS: Record<InvitationStatus, string> = {
  open: 'border-accent text-fg',
  accepted: 'border-success text-success',
  revoked: 'border-line text-muted',
  expired: 'border-line text-muted',
};

/** Invitations: a form that shows the new link once, and the list with each one's status and a revoke. */
export const InvitationsPanel = () => {
  const { t, i18n } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminInvitationsLogic({ toast }));
  const actor = useScreenActor(logic);
  const { invitations, organisations, draft, created, revokingId, failure } = useSelector(actor, (state) => state.context);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const creating = useSelector(actor, (state) => state.matches({ ready: 'creating' }));
  const busy = useSelector(actor, (state) => !state.matches({ ready: 'idle' }));

  if (loadFailed) return <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />;
  if (loading && invitations.length === 0) return <LoadingStatus>{t('admin.invitations.loading')}</LoadingStatus>;
  const now = new Date();
  return (
    <div className="flex flex-col gap-4">
      <CreateForm title={t('admin.invitations.create')} onCreate={() => actor.send({ type: 'create' })}>
        {organisations.length === 0 ? (
          <p className="m-0 text-sm text-muted">{t('admin.invitations.needOrganisation')}</p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2">
            <Labelled label={t('admin.invitations.organisation')}>
              <select className="field" value={draft.companyId} onChange={(event) => actor.send({ type: 'draft.change', draft: { companyId: event.target.value } })}>
                <OrganisationOptions organisations={organisations} />
              </select>
            </Labelled>
            <Labelled label={t('admin.invitations.role')}>
              <select className="field" value={draft.role} onChange={(event) => actor.send({ type: 'draft.change', draft: { role: event.target.value as Role } })}>
                <RoleOptions />
              </select>
            </Labelled>
            <div className="flex flex-col gap-1 text-sm sm:col-span-2">
              <label htmlFor="invitation-note">{t('admin.invitations.note')}</label>
              <input id="invitation-note" className="field" value={draft.note} maxLength={120} aria-describedby="invitation-note-hint" onChange={(event) => actor.send({ type: 'draft.change', draft: { note: event.target.value } })} />
              <span id="invitation-note-hint" className="text-xs text-muted">
                {t('admin.invitations.noteHint')}
              </span>
            </div>
          </div>
        )}
        <div className="flex justify-end">
          <BusyButton
            type="submit"
            className="btn-primary"
            disabled={busy || organisations.length === 0}
            busy={creating}
            icon="i-lucide-mail-plus"
            label={t('admin.invitations.submit')}
            busyLabel={t('admin.invitations.creating')}
          />
        </div>
      </CreateForm>
      {failure && <RefusalAlert failure={failure} what={failure.during === 'revoke' ? t('admin.invitations.revokeFailed') : t('admin.invitations.failed')} />}
      {created && (
        <OneTimeLink
          title={t('admin.invitations.link', { organisation: created.invitation.companyName })}
          path={created.path}
          expiresAt={created.invitation.expiresAt}
          onDismiss={() => actor.send({ type: 'created.dismiss' })}
        />
      )}
      {invitations.length === 0 ? (
        <EmptyNote>{t('admin.invitations.empty')}</EmptyNote>
      ) : (
        <Table
          label={t('admin.panels.invitations')}
          busy={loading}
          head={[
            t('admin.invitations.columns.organisation'),
            t('admin.invitations.columns.role'),
            t('admin.invitations.columns.note'),
            t('admin.invitations.columns.created'),
            t('admin.invitations.columns.status'),
            t('admin.invitations.columns.actions'),
          ]}
        >
          {invitations.map((invitation) => {
            const status = invitationStatus(invitation, now);
            return (
              <tr key={invitation.id} className="border-t border-line" data-testid="admin-invitation-row">
                <Cell className="font-medium">
                  <span dir="auto">{invitation.companyName}</span>
                </Cell>
                <Cell>{t(`admin.roles.${invitation.role}`)}</Cell>
                <Cell className="text-muted">
                  <span dir="auto">{invitation.note ?? '—'}</span>
                </Cell>
                <Cell className="whitespace-nowrap text-muted">
                  {t('admin.invitations.createdBy', { name: invitation.createdByName, when: formatDateTime(invitation.createdAt, i18n.language) })}
                </Cell>
                <Cell>
                  <span className={`whitespace-nowrap rounded-full border px-2 py-0.5 text-xs ${STATUS_CLASS[status]}`}>{t(`admin.invitations.status.${status}`)}</span>
                  {status === 'open' && (
                    <p className="m-0 mt-1 whitespace-nowrap text-xs text-muted">{t('admin.invitations.until', { when: formatDateTime(invitation.expiresAt, i18n.language) })}</p>
                  )}
                </Cell>
                <Cell>
                  {status === 'open' && (
                    <button
                      type="button"
                      className="btn-outline whitespace-nowrap py-1"
                      disabled={busy}
                      aria-busy={revokingId === invitation.id || undefined}
                      aria-label={t('admin.invitations.revokeLabel', { organisation: invitation.companyName })}
                      onClick={() => actor.send({ type: 'revoke', id: invitation.id })}
                    >
                      <span className="i-lucide-ban" aria-hidden="true" />
                      {t('admin.invitations.revoke')}
                    </button>
                  )}
                </Cell>
              </tr>
            );
          })}
        </Table>
      )}
    </div>
  );
};
