import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminOrganisationsLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import { formatNumber } from '../../i18n/format';
import { BusyButton } from '../../components/busy-button';
import { Cell, CreateForm, EmptyNote, Labelled, LoadFailed, RefusalAlert, Table } from './admin-widgets';

/** Every organisation with its number of members, and a form to add one. */
export const OrganisationsPanel = () => {
  const { t, i18n } = useTranslation();
  const { toast } = useRuntime();
  const [logic] = useState(() => adminOrganisationsLogic({ toast }));
  const actor = useScreenActor(logic);
  const { organisations, name, failure } = useSelector(actor, (state) => state.context);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const loadFailed = useSelector(actor, (state) => state.matches('loadFailed'));
  const creating = useSelector(actor, (state) => state.matches({ ready: 'creating' }));
  const canCreate = useSelector(actor, (state) => state.can({ type: 'create' }));

  if (loadFailed) return <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />;
  if (loading) return <LoadingStatus>{t('admin.organisations.loading')}</LoadingStatus>;
  return (
    <div className="flex flex-col gap-4">
      <CreateForm title={t('admin.organisations.add')} onCreate={() => actor.send({ type: 'create' })}>
        <div className="flex flex-wrap items-end gap-3">
          <Labelled label={t('admin.organisations.name')} className="min-w-48 flex-1">
            <input className="field" value={name} maxLength={80} onChange={(event) => actor.send({ type: 'name.change', name: event.target.value })} />
          </Labelled>
          <BusyButton type="submit" className="btn-primary" disabled={!canCreate} busy={creating} icon="i-lucide-plus" label={t('admin.organisations.create')} busyLabel={t('admin.organisations.creating')} />
        </div>
        {failure && <RefusalAlert failure={failure} what={t('admin.organisations.failed')} />}
      </CreateForm>
      {organisations.length === 0 ? (
        <EmptyNote>{t('admin.organisations.empty')}</EmptyNote>
      ) : (
        <Table label={t('admin.panels.organisations')} head={[t('admin.organisations.columns.name'), t('admin.organisations.columns.members')]}>
          {organisations.map((organisation) => (
            <tr key={organisation.id} className="border-t border-line" data-testid="admin-organisation-row">
              <Cell className="font-medium">
                <span dir="auto">{organisation.name}</span>
              </Cell>
              <Cell className="tabular-nums">{formatNumber(organisation.members, i18n.language)}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
};
