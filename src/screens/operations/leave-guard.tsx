import { useLeaveRequests } from '../../components/use-leave-requests';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { taskEditorView, type taskEditorMachine } from '../../machines/task-editor.machine';

/**
 * When the editor says leaving must ask first, closing or reloading the tab gets the browser's own
 * warning, and a click on any link of the app asks the editor, which opens this confirmation.
 */
export const LeaveGuard = ({ editor }: { editor: ActorRefFrom<typeof taskEditorMachine> }) => {
  const { t } = useTranslation();
  const active = useSelector(editor, taskEditorView.mustAskBeforeLeaving);
  const pending = useSelector(editor, (state) => (state.matches({ leaving: 'asking' }) ? state.context.leaveTo : null));
  const dialog = useRef<HTMLDialogElement>(null);

  const requestLeave = useCallback((to: string) => editor.send({ type: 'leave.request', to }), [editor]);
  useLeaveRequests(active, requestLeave);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (pending && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!pending && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [pending]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="leave-title"
      className="max-w-sm rounded-xl border border-line bg-surface p-5 text-fg shadow-xl backdrop:bg-black/40"
      onCancel={(event) => {
        event.preventDefault();
        editor.send({ type: 'leave.stay' });
      }}
    >
      {pending && (
        <>
          <h2 id="leave-title" className="mb-2 text-lg font-semibold">
            {t('operations.leave.title')}
          </h2>
          <p className="mb-4 text-sm text-muted">{t('operations.leave.body')}</p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-primary" onClick={() => editor.send({ type: 'leave.stay' })}>
              {t('operations.leave.stay')}
            </button>
            <button
              type="button"
              className="btn-outline text-danger"
              onClick={() => editor.send({ type: 'leave.confirm' })}
            >
              {t('operations.leave.leave')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
};
