import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminAuditLogic } from '../../app/admin-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { AUDIT_ACTION_MAX } from '../../contract/admin';
import { formatDateTime } from '../../i18n/format';
import { auditPages } from '../../machines/admin-audit.machine';
import { Cell, EmptyNote, Labelled, LoadFailed, Pager, SearchForm, Table } from './admin-widgets';

/** The audit log, newest first: when, who, what, on what, with its details; filtered by action and paged. */
export const AuditPanel = () => {
  const { t, i18n } = useTranslation();
  const [logic] = useState(() => adminAuditLogic());
  const actor = useScreenActor(logic);
  const context = useSelector(actor, (state) => state.context);
  const { entries, filters, typed, failure } = context;
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const actions = [...new Set(entries.map((entry) => entry.action))].sort();

  return (
    <div className="flex flex-col gap-4">
      <SearchForm onSearch={() => actor.send({ type: 'filter' })} button={{ label: t('admin.audit.filter'), icon: 'i-lucide-filter', disabled: loading }}>
        <Labelled label={t('admin.audit.action')} className="min-w-48 flex-1 sm:max-w-sm">
          <input type="search" className="field font-mono" list="audit-actions" value={typed} maxLength={AUDIT_ACTION_MAX} placeholder={t('admin.audit.actionPlaceholder')} onChange={(event) => actor.send({ type: 'action.typed', action: event.target.value })} />
          <datalist id="audit-actions">
            {actions.map((action) => (
              <option key={action} value={action} />
            ))}
          </datalist>
        </Labelled>
      </SearchForm>
      {failed ? (
        <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />
      ) : loading && entries.length === 0 ? (
        <LoadingStatus>{t('admin.audit.loading')}</LoadingStatus>
      ) : entries.length === 0 ? (
        <EmptyNote>{t('admin.audit.empty')}</EmptyNote>
      ) : (
        <>
          <Table
            label={t('admin.panels.audit')}
            busy={loading}
            head={[t('admin.audit.columns.at'), t('admin.audit.columns.actor'), t('admin.audit.columns.action'), t('admin.audit.columns.target'), t('admin.audit.columns.details')]}
          >
            {entries.map((entry) => (
              <tr key={entry.id} className="border-t border-line" data-testid="audit-row">
                <Cell className="whitespace-nowrap">{formatDateTime(entry.at, i18n.language)}</Cell>
                <Cell>
                  <span dir="auto">{entry.actorName}</span>
                </Cell>
                <Cell className="whitespace-nowrap font-mono text-xs">{entry.action}</Cell>
                <Cell className="break-all font-mono text-xs">{entry.target ?? '—'}</Cell>
                <Cell>
                  {Object.keys(entry.details).length === 0 ? (
                    '—'
                  ) : (
                    <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-2 text-xs">
                      {Object.entries(entry.details).map(([key, value]) => (
                        <div key={key} className="contents">
                          <dt className="text-muted">{key}</dt>
                          <dd className="m-0 break-all" dir="auto">
                            {value}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  )}
                </Cell>
              </tr>
            ))}
          </Table>
          <Pager current={filters.current} pages={auditPages(context)} onPage={(current) => actor.send({ type: 'page', current })} />
        </>
      )}
    </div>
  );
};
