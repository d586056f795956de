import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUsersLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { ADMIN_SEARCH_MAX, type AdminUser, type Organisation } from '../../contract/admin';
import type { Role } from '../../contract/users';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import type { UserChange } from '../../machines/admin-users.machine';
import { Cell, EmptyNote, Labelled, LoadFailed, OneTimeLink, OrganisationOptions, Pager, RefusalAlert, RoleOptions, SearchForm, Table } from './admin-widgets';

type RowProps = { user: AdminUser; organisations: Organisation[]; busy: boolean; disabled: boolean; onChange: (change: UserChange) => void; onSignOut: () => void; onResetLink: () => void };

const UserRow = ({ user, organisations, busy, disabled, onChange, onSignOut, onResetLink }: RowProps) => {
  const { t, i18n } = useTranslation();
  const name = user.nickname || user.username;
  // The account's own organisation stays selectable even when the list of organisations did not load.
  const choices = user.companyId && !organisations.some((organisation) => organisation.id === user.companyId)
    ? [...organisations, { id: user.companyId, name: user.companyName ?? user.companyId, members: 0 }]
    : organisations;
  return (
    <tr className="border-t border-line" data-testid="admin-user-row" aria-busy={busy || undefined}>
      <Cell className="min-w-40">
        <span className="font-medium" dir="auto">{name}</span>
        {/* The account it signs in with, under its name (a column of its own made the table wider than the console). */}
        {name !== user.username && <p className="m-0 break-all text-xs text-muted">{user.username}</p>}
        <p className="m-0 text-xs text-muted" title={user.lastSeenAt ? formatDateTime(user.lastSeenAt, i18n.language) : undefined}>
          {user.lastSeenAt ? t('admin.users.lastSeen', { when: formatRelativeTime(user.lastSeenAt, i18n.language) }) : t('admin.users.neverSeen')}
        </p>
      </Cell>
      <Cell>
        <select
          className="field w-auto min-w-36 py-1"
          aria-label={t('admin.users.organisationLabel', { name })}
          value={user.companyId ?? ''}
          disabled={disabled}
          onChange={(event) => onChange({ companyId: event.target.value || null })}
        >
          <option value="">{t('admin.noOrganisation')}</option>
          <OrganisationOptions organisations={choices} />
        </select>
      </Cell>
      <Cell>
        <select className="field w-auto py-1" aria-label={t('admin.users.roleLabel', { name })} value={user.role} disabled={disabled} onChange={(event) => onChange({ role: event.target.value as Role })}>
          <RoleOptions />
        </select>
      </Cell>
      <Cell>
        <label className="inline-flex items-center gap-2 whitespace-nowrap">
          <input type="checkbox" role="switch" checked={!user.disabled} disabled={disabled} aria-label={t('admin.users.enabledLabel', { name })} onChange={(event) => onChange({ disabled: !event.target.checked })} />
          <span className={user.disabled ? 'text-danger' : 'text-muted'}>{user.disabled ? t('admin.users.disabled') : t('admin.users.active')}</span>
        </label>
      </Cell>
      <Cell>
        <div className="flex flex-wrap gap-2">
          <button type="button" className="btn-outline whitespace-nowrap py-1" disabled={disabled} aria-label={t('admin.users.signOutLabel', { name })} onClick={onSignOut}>
            <span className="i-lucide-log-out" aria-hidden="true" />
            {t('admin.users.signOut')}
          </button>
          <button type="button" className="btn-outline whitespace-nowrap py-1" disabled={disabled} aria-label={t('admin.users.resetLinkLabel', { name })} onClick={onResetLink}>
            <span className="i-lucide-key-round" aria-hidden="true" />
            {t('admin.users.resetLink')}
          </button>
        </div>
      </Cell>
    </tr>
  );
};

/** The accounts: a search, an organisation filter, and each account's role, organisation and access. */
export const UsersPanel = () => {
  const { t } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminUsersLogic({ toast }));
  const actor = useScreenActor(logic);
  const { users, total, pageSize, filters, typed, organisations, pending, failure, resetLink } = useSelector(actor, (state) => state.context);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const busy = useSelector(actor, (state) => !state.matches({ ready: 'idle' }));

  return (
    <div className="flex flex-col gap-4">
      <SearchForm onSearch={() => actor.send({ type: 'search' })} button={{ label: t('admin.users.searchButton'), icon: 'i-lucide-search', disabled: busy }}>
        <Labelled label={t('admin.users.search')} className="min-w-48 flex-1">
          <input type="search" className="field" value={typed} maxLength={ADMIN_SEARCH_MAX} placeholder={t('admin.users.searchPlaceholder')} onChange={(event) => actor.send({ type: 'search.typed', keyword: event.target.value })} />
        </Labelled>
        <Labelled label={t('admin.users.organisationFilter')}>
          <select className="field w-auto min-w-40" value={filters.companyId ?? ''} disabled={busy} onChange={(event) => actor.send({ type: 'filter.organisation', companyId: event.target.value || null })}>
            <option value="">{t('admin.users.allOrganisations')}</option>
            <OrganisationOptions organisations={organisations} />
          </select>
        </Labelled>
      </SearchForm>

      {resetLink && (
        <OneTimeLink
          title={t('admin.users.resetLinkTitle', { name: resetLink.name })}
          path={resetLink.path}
          expiresAt={resetLink.expiresAt}
          onDismiss={() => actor.send({ type: 'resetLink.dismiss' })}
        />
      )}
      {!loadFailed && failure && <RefusalAlert failure={failure} what={t(`admin.users.failed.${failure.during}`)} said={{ 400: t('admin.users.operatorNeedsOrganisation'), 409: t('admin.users.conflict') }} />}

      {loadFailed ? (
        <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />
      ) : loading && users.length === 0 ? (
        <LoadingStatus>{t('admin.users.loading')}</LoadingStatus>
      ) : users.length === 0 ? (
        <EmptyNote>{t('admin.users.empty')}</EmptyNote>
      ) : (
        <>
          <p className="m-0 text-sm text-muted">{t('admin.users.total', { count: total })}</p>
          <Table
            label={t('admin.panels.users')}
            busy={loading}
            head={[t('admin.users.columns.name'), t('admin.users.columns.organisation'), t('admin.users.columns.role'), t('admin.users.columns.access'), t('admin.users.columns.actions')]}
          >
            {users.map((user) => (
              <UserRow
                key={user.id}
                user={user}
                organisations={organisations}
                busy={pending?.id === user.id}
                disabled={busy}
                onChange={(change) => actor.send({ type: 'user.update', id: user.id, change })}
                onSignOut={() => actor.send({ type: 'user.signOut', id: user.id })}
                onResetLink={() => actor.send({ type: 'user.resetLink', id: user.id })}
              />
            ))}
          </Table>
          <Pager current={filters.current} pages={Math.max(1, Math.ceil(total / pageSize))} onPage={(current) => actor.send({ type: 'page', current })} />
        </>
      )}
    </div>
  );
};
