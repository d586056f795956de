import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { accountDataLogic } from '../../app/account-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { BusyButton } from '../../components/busy-button';
import { FailureAlert } from '../../components/failure-alert';
import { TextField } from '../../components/form-field';
import { ModalDialog } from '../../components/modal-dialog';
import { SubmitForm } from '../../components/submit-form';

/** The account's data: download all of it, or delete the account (after typing its name again). */
export const AccountDataPanel = () => {
  const { t } = useTranslation();
  const { app, toast } = useRuntime();
  const [, navigate] = useLocation();
  const username = useSelector(app, (state) => state.context.user?.username ?? '');
  const [logic] = useState(() => accountDataLogic({ app, toast, navigate }));
  const data = useScreenActor(logic, { input: { username } });
  const exporting = useSelector(data, (state) => state.matches({ download: 'exporting' }));
  const exportFailure = useSelector(data, (state) => state.context.exportFailure);
  const dialogOpen = useSelector(data, (state) => state.matches({ deletion: 'confirming' }) || state.matches({ deletion: 'deleting' }));
  const deleting = useSelector(data, (state) => state.matches({ deletion: 'deleting' }));
  const confirmText = useSelector(data, (state) => state.context.confirmText);
  const deleteFailure = useSelector(data, (state) => state.context.deleteFailure);

  const downloadButton = (label: string) => (
    <BusyButton className="btn-outline" disabled={exporting} busy={exporting} icon="i-lucide-download" label={label} busyLabel={label} onClick={() => data.send({ type: 'export' })} />
  );
  const exportAlert = exportFailure && <FailureAlert what={t('account.data.exportFailed')} why={t(exportFailure)} />;

  return (
    <section className="mt-6 rounded-xl border border-line bg-surface p-5 sm:p-6" aria-labelledby="account-data-title">
      <h2 id="account-data-title" className="m-0 text-lg font-semibold">
        {t('account.data.title')}
      </h2>
      <p className="mb-4 mt-0 text-sm text-muted">{t('account.data.subtitle')}</p>
      {!dialogOpen && exportAlert}
      <div className="mt-3 flex flex-wrap gap-2">
        {downloadButton(t('account.data.download'))}
        <button type="button" className="btn-outline border-danger text-danger" onClick={() => data.send({ type: 'delete.open' })}>
          <span className="i-lucide-trash-2" aria-hidden="true" />
          {t('account.data.delete')}
        </button>
      </div>
      <ModalDialog open={dialogOpen} onClose={() => data.send({ type: 'delete.cancel' })} label={t('account.data.deleteTitle')} className="w-[min(30rem,92vw)] rounded-xl">
        <SubmitForm noValidate className="flex flex-col gap-4 p-5" onSubmit={() => data.send({ type: 'delete.confirm' })}>
          <h2 className="m-0 text-lg font-semibold">{t('account.data.deleteTitle')}</h2>
          <p className="m-0 text-sm">{t('account.data.deleteWarning')}</p>
          <div className="flex flex-col items-start gap-2 rounded-lg bg-raised p-3 text-sm">
            <p className="m-0">{t('account.data.downloadFirst')}</p>
            {downloadButton(t('account.data.download'))}
          </div>
          {exportAlert}
          <TextField
            id="delete-confirm"
            label={t('account.data.typeName', { username })}
            error={deleteFailure ? t(deleteFailure) : null}
            autoComplete="off"
            spellCheck={false}
            value={confirmText}
            onValue={(value) => data.send({ type: 'confirm.change', value })}
          />
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-outline" disabled={deleting} onClick={() => data.send({ type: 'delete.cancel' })}>
              {t('account.data.cancel')}
            </button>
            <BusyButton type="submit" className="btn-primary bg-danger" disabled={deleting} busy={deleting} icon="i-lucide-trash-2" label={t('account.data.deleteForever')} busyLabel={t('account.data.deleting')} />
          </div>
        </SubmitForm>
      </ModalDialog>
    </section>
  );
};
