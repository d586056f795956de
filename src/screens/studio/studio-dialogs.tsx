import { useLeaveRequests } from '../../components/use-leave-requests';
import { useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { ModalDialog } from '../../components/modal-dialog';
import { formatDateTime } from '../../i18n/format';
import { agentStudioView, type agentStudioMachine } from '../../machines/agent-studio.machine';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

type ConfirmationProps = { open: boolean; title: string; body: string[]; confirm: string; cancel?: string; danger: boolean; onConfirm: () => void; onCancel: () => void };

const Confirmation = ({ open, title, body, confirm, cancel, danger, onConfirm, onCancel }: ConfirmationProps) => {
  const { t } = useTranslation();
  return (
    <ModalDialog open={open} onClose={onCancel} label={title} className="w-[min(28rem,92vw)] rounded-xl">
      <div className="flex flex-col gap-3 p-5">
        <h2 className="m-0 text-lg font-semibold">{title}</h2>
        {body.map((line) => (
          <p key={line} className="m-0 text-sm text-muted">
            {line}
          </p>
        ))}
        <div className="flex flex-wrap justify-end gap-2 pt-1">
          <button type="button" className="btn-outline" onClick={onCancel}>
            {cancel ?? t('studio.confirm.cancel')}
          </button>
          <button type="button" className={danger ? 'btn-outline border-danger text-danger' : 'btn-primary'} onClick={onConfirm}>
            {confirm}
          </button>
        </div>
      </div>
    </ModalDialog>
  );
};

/** Retiring the agent and restoring a version each ask first; restoring says what it replaces. */
export const ConfirmDialogs = ({ editor }: { editor: Editor }) => {
  const { t, i18n } = useTranslation();
  const asking = useSelector(editor, (state) =>
    state.matches({ agent: { editing: 'askingRetire' } }) ? 'retire' : state.matches({ agent: { editing: 'askingRestore' } }) ? 'restore' : null,
  );
  const unsaved = useSelector(editor, agentStudioView.unsaved);
  const restoring = useSelector(editor, (state) => state.context.versions.list.find((version) => version.versionId === state.context.restoreId));
  const confirm = () => editor.send({ type: 'confirm' });
  const cancel = () => editor.send({ type: 'cancel' });
  return (
    <>
      <Confirmation
        open={asking === 'retire'}
        title={t('studio.confirm.retireTitle')}
        body={[t('studio.confirm.retireBody')]}
        confirm={t('studio.confirm.retire')}
        danger
        onConfirm={confirm}
        onCancel={cancel}
      />
      <Confirmation
        open={asking === 'restore'}
        title={t('studio.confirm.restoreTitle', { when: restoring ? formatDateTime(restoring.createdAt, i18n.language) : '' })}
        body={[t('studio.confirm.restoreBody'), ...(unsaved ? [t('studio.confirm.restoreUnsaved')] : [])]}
        confirm={t('studio.confirm.restore')}
        danger={false}
        onConfirm={confirm}
        onCancel={cancel}
      />
    </>
  );
};

/**
 * With unsaved changes, closing or reloading the tab gets the browser's own warning, and a click on
 * any link of the app asks the editor, which opens this confirmation.
 */
export const LeaveGuard = ({ editor }: { editor: Editor }) => {
  const { t } = useTranslation();
  const active = useSelector(editor, agentStudioView.mustAskBeforeLeaving);
  const asking = useSelector(editor, (state) => state.matches({ leaving: 'asking' }));

  const requestLeave = useCallback((to: string) => editor.send({ type: 'leave.request', to }), [editor]);
  useLeaveRequests(active, requestLeave);

  return (
    <Confirmation
      open={asking}
      title={t('studio.leave.title')}
      body={[t('studio.leave.body')]}
      confirm={t('studio.leave.leave')}
      cancel={t('studio.leave.stay')}
      danger
      onConfirm={() => editor.send({ type: 'leave.confirm' })}
      onCancel={() => editor.send({ type: 'leave.stay' })}
    />
  );
};
