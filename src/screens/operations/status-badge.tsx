import { useTranslation } from 'react-i18next';
import type { TaskStatus } from '../../contract/tasks';
import { STATUS_TONE } from './task-labels';

export const StatusBadge = ({ status }: { status: TaskStatus }) => {
  const { t } = useTranslation();
  return (
    <span data-badge data-testid="task-status" data-status={status} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[status]}`}>
      {t(`operations.status.${status}`)}
    </span>
  );
};
