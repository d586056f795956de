/* Kept in a .tsx file so UnoCSS finds the class names below when it scans the sources. */
import type { TaskStatus } from '../../contract/tasks';

/** Colours of the status badges, by status. */
export const STATUS_TONE: Record<TaskStatus, string> = {
  draft: 'bg-raised text-muted',
  ready: 'bg-accent/15 text-accent',
  scheduled: 'bg-warn/15 text-warn',
  publishing: 'bg-warn/15 text-warn',
  due: 'bg-danger/10 text-danger',
  published: 'bg-success/15 text-success',
  failed: 'bg-danger/15 text-danger',
};

export const PLATFORM_ICON = { xiaohongshu: 'i-lucide-book-heart text-[#ff2442]', linkedin: 'i-lucide-linkedin text-[#0a66c2]' } as const;
