import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { TaskSummary } from '../../contract/tasks';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import { StatusBadge } from './status-badge';
import { PLATFORM_ICON } from './task-labels';

/**
 * The overview's tasks on a narrow screen: one card per task, the title on its own line at full
 * width, where a table's five columns would squeeze it to a few characters per line.
 */
export const TaskCards = ({ items, busy }: { items: TaskSummary[]; busy: boolean }) => {
  const { t, i18n } = useTranslation();
  return (
    <ul className="m-0 flex list-none flex-col gap-3 p-0" aria-busy={busy} aria-label={t('operations.overview.tasks')}>
      {items.map((task) => (
        <li key={task.id} data-testid="task-row" className="flex flex-col gap-2 rounded-lg border border-line bg-surface p-3 text-sm">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-muted">
              <span className={PLATFORM_ICON[task.platform]} aria-hidden="true" /> {t(`operations.platform.${task.platform}`)}
            </span>
            <StatusBadge status={task.status} />
          </div>
          <Link href={`/kraken-operation/task/edit/${task.id}`} className="text-base font-medium text-accent hover:underline">
            {task.title || t('operations.untitled')}
          </Link>
          {task.excerpt && <p className="m-0 line-clamp-2 text-muted">{task.excerpt}</p>}
          {task.status === 'failed' && task.failureReason && <p className="m-0 text-danger">{task.failureReason}</p>}
          <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
            {task.scheduledAt && (
              <>
                <dt className="text-muted">{t('operations.overview.columns.scheduled')}</dt>
                <dd className="m-0">{formatDateTime(task.scheduledAt, i18n.language)}</dd>
              </>
            )}
            <dt className="text-muted">{t('operations.overview.columns.updated')}</dt>
            <dd className="m-0" title={formatDateTime(task.updatedAt, i18n.language)}>
              {formatRelativeTime(task.updatedAt, i18n.language)}
            </dd>
          </dl>
        </li>
      ))}
    </ul>
  );
};
