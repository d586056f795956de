import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { PublishMode } from '../../contract/tasks';
import { formatDateTime } from '../../i18n/format';
import { taskEditorView, type taskEditorMachine, type TransitionAction } from '../../machines/task-editor.machine';
import { ExportPanel } from './export-panel';
import { StatusBadge } from './status-badge';

const pad = (value: number) => String(value).padStart(2, '0');
/** A `datetime-local` value in the browser's time zone. */
export const localInputValue = (date: Date) =>
  `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

type PublishPanelProps = {
  editor: ActorRefFrom<typeof taskEditorMachine>;
  mode: PublishMode;
  exportText: string;
};

/** A time typed in the browser's time zone, as the server takes it ('' when it is no time at all). */
const isoOf = (value: string): string => {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : '';
};

/** Where the task stands and what can happen next: approve, schedule, publish by hand, export. */
export const PublishPanel = ({ editor, mode, exportText }: PublishPanelProps) => {
  const { t, i18n } = useTranslation();
  const [when, setWhen] = useState(() => localInputValue(new Date(Date.now() + 3600_000)));
  const [postUrl, setPostUrl] = useState('');
  const task = useSelector(editor, (state) => state.context.saved);
  const unsaved = useSelector(editor, taskEditorView.unsaved);
  const offered = useSelector(editor, taskEditorView.actionsOffered);
  const scheduleAt: TransitionAction = { action: 'schedule', scheduledAt: isoOf(when) };
  /** "Publish now" asks with the time the panel opened; the click sends the time of the click. */
  const [nowIso] = useState(() => new Date().toISOString());
  const can = {
    markReady: useSelector(editor, (state) => state.can({ type: 'transition', action: { action: 'markReady' } })),
    unschedule: useSelector(editor, (state) => state.can({ type: 'transition', action: { action: 'unschedule' } })),
    backToDraft: useSelector(editor, (state) => state.can({ type: 'transition', action: { action: 'backToDraft' } })),
    scheduleAt: useSelector(editor, (state) => state.can({ type: 'transition', action: scheduleAt })),
    scheduleNow: useSelector(editor, (state) => state.can({ type: 'transition', action: { action: 'schedule', scheduledAt: nowIso } })),
    markPublished: useSelector(editor, (state) => state.can({ type: 'transition', action: { action: 'markPublished', postUrl: '' } })),
  };
  const onTransition = (action: TransitionAction) => editor.send({ type: 'transition', action });
  if (!task) {
    return (
      <section aria-labelledby="publish-title" className="rounded-xl border border-line p-4">
        <h2 id="publish-title" className="mb-2 text-base font-semibold">{t('operations.publish.title')}</h2>
        <p className="text-sm text-muted">{t('operations.publish.saveFirst')}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby="publish-title" className="flex flex-col gap-3 rounded-xl border border-line p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id="publish-title" className="text-base font-semibold">{t('operations.publish.title')}</h2>
        <StatusBadge status={task.status} />
      </div>
      <p className="text-xs text-muted">{t(`operations.publish.mode.${mode}.${task.platform}`)}</p>
      {task.scheduledAt && ['scheduled', 'publishing', 'due'].includes(task.status) && (
        <p className="text-sm" data-testid="scheduled-at">{t('operations.publish.scheduledFor', { time: formatDateTime(task.scheduledAt, i18n.language) })}</p>
      )}
      {task.status === 'due' && <p className="rounded-lg bg-danger/10 p-2 text-sm text-danger">{t('operations.publish.dueHint')}</p>}
      {task.status === 'failed' && task.failureReason && (
        <p role="alert" className="rounded-lg bg-danger/10 p-2 text-sm text-danger">{t('operations.publish.failedBecause', { reason: task.failureReason })}</p>
      )}
      {task.status === 'published' && (
        <p className="text-sm text-success">
          {t('operations.publish.publishedAt', { time: task.publishedAt ? formatDateTime(task.publishedAt, i18n.language) : '' })}{' '}
          {task.externalUrl && (
            <a href={task.externalUrl} target="_blank" rel="noreferrer noopener" className="underline">
              {t('operations.publish.openPost')}
            </a>
          )}
        </p>
      )}
      {unsaved && offered.length > 0 && <p className="text-xs text-muted">{t('operations.publish.savesFirst')}</p>}

      <div className="flex flex-wrap gap-2">
        {offered.includes('markReady') && (
          <button type="button" className="btn-primary" disabled={!can.markReady} onClick={() => onTransition({ action: 'markReady' })}>
            {t('operations.publish.markReady')}
          </button>
        )}
        {offered.includes('unschedule') && (
          <button type="button" className="btn-outline" disabled={!can.unschedule} onClick={() => onTransition({ action: 'unschedule' })}>
            {t('operations.publish.unschedule')}
          </button>
        )}
        {offered.includes('backToDraft') && (
          <button type="button" className="btn-ghost" disabled={!can.backToDraft} onClick={() => onTransition({ action: 'backToDraft' })}>
            {t('operations.publish.backToDraft')}
          </button>
        )}
      </div>

      {offered.includes('schedule') && (
        <div className="flex flex-col gap-2 border-t border-line pt-3">
          <label className="flex flex-col gap-1 text-sm">
            {t('operations.publish.when')}
            <input type="datetime-local" className="field" value={when} min={localInputValue(new Date())} onChange={(event) => setWhen(event.target.value)} />
          </label>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-primary" disabled={!can.scheduleAt} onClick={() => onTransition(scheduleAt)}>
              <span className="i-lucide-calendar-clock" aria-hidden="true" />
              {task.status === 'scheduled' ? t('operations.publish.reschedule') : t('operations.publish.schedule')}
            </button>
            <button type="button" className="btn-outline" disabled={!can.scheduleNow} onClick={() => onTransition({ action: 'schedule', scheduledAt: new Date().toISOString() })}>
              {mode === 'api' ? t('operations.publish.publishNow') : t('operations.publish.dueNow')}
            </button>
          </div>
        </div>
      )}

      {offered.includes('markPublished') && (
        <div className="flex flex-col gap-2 border-t border-line pt-3">
          <label className="flex flex-col gap-1 text-sm">
            {t('operations.publish.postUrl')}
            <input type="url" className="field" value={postUrl} placeholder="https://" onChange={(event) => setPostUrl(event.target.value)} />
          </label>
          <button type="button" className="btn-primary self-start" disabled={!can.markPublished} onClick={() => onTransition({ action: 'markPublished', postUrl: postUrl.trim() })}>
            {t('operations.publish.markPublished')}
          </button>
        </div>
      )}

      {(mode === 'export' || task.status === 'due' || task.status === 'failed') && <ExportPanel text={exportText} images={task.images} />}

      <details className="border-t border-line pt-3 text-sm">
        <summary className="cursor-pointer font-medium">{t('operations.history.title', { count: task.history.length })}</summary>
        <ol className="mt-2 flex flex-col gap-1" data-testid="history">
          {[...task.history].reverse().map((entry, index) => (
            <li key={index} className="flex flex-col text-xs">
              <span>
                {entry.from ? t('operations.history.change', { from: t(`operations.status.${entry.from}`), to: t(`operations.status.${entry.to}`) }) : t('operations.history.created')}
                {' · '}
                {t(`operations.history.by.${entry.by}`)}
              </span>
              <span className="text-muted">{formatDateTime(entry.at, i18n.language)}</span>
              {entry.note && entry.to === 'failed' && <span className="text-danger">{entry.note}</span>}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
};
