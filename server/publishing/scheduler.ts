import { and, eq, lte } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { describeError } from '../http/log-line';
import { tasks } from '../db/schema';
import type { FileStorage } from '../media/storage';
import { recordEvent, type TaskRow } from '../services/tasks';
import { modesOf, PublishError, type Connectors } from './connector';

export const DEFAULT_PUBLISH_INTERVAL_MS = 30_000;

export const INTERRUPTED_REASON =
  'The server stopped while this task was being published. Check the platform for the post before scheduling it again.';
const EXPORT_NOTE = 'Time to publish: export the text and images and post them by hand.';
const UNEXPECTED_REASON = 'Publishing failed unexpectedly; the details are in the server log. Schedule the task again to retry.';

export type SchedulerOptions = {
  db: Db;
  clock: Clock;
  connectors: Connectors;
  storage: FileStorage;
  log: (line: string) => void;
  intervalMs?: number;
};

export type Scheduler = {
  /** Publishes (or hands over for export) every scheduled task whose time has come; answers how many. */
  runDue(): Promise<number>;
  /** Runs `runDue` soon, once, outside the caller's request. */
  kick(): void;
  /** Marks tasks left mid-publication by a stopped server as failed, then runs due tasks and every interval after. */
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The due tasks live in the database, so nothing is lost when the server stops: on start and on
 * every tick the scheduler claims what is due (scheduled → publishing, atomically, so two servers
 * never post a task twice) and moves each on to published, failed or due (posted by hand).
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, clock, connectors, storage, log } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | null = null;
  let again = false;

  const finish = async (task: TaskRow, changes: Partial<TaskRow> & { status: TaskRow['status'] }, note: string | null) => {
    const now = clock.now();
    await db
      .update(tasks)
      .set({ ...changes, updatedAt: now })
      .where(and(eq(tasks.id, task.id), eq(tasks.status, 'publishing')));
    await recordEvent(db, task.id, { at: now, from: 'publishing', to: changes.status, by: 'scheduler', note });
  };

  const publishOne = async (task: TaskRow) => {
    const connector = connectors[task.platform];
    if (connector.mode === 'export') {
      await finish(task, { status: 'due' }, EXPORT_NOTE);
      return;
    }
    try {
      const images = [];
      for (const image of task.images) {
        const bytes = await storage.get(image.fileId);
        if (!bytes) throw new PublishError(`The image ${image.name} is no longer stored; remove it or upload it again.`);
        images.push({ ...image, bytes });
      }
      const result = await connector.publish({ taskId: task.id, title: task.title, body: task.body, images });
      await finish(
        task,
        { status: 'published', publishedAt: clock.now(), externalId: result.externalId, externalUrl: result.externalUrl, failureReason: null },
        result.externalUrl ?? result.externalId,
      );
    } catch (error) {
      const reason = error instanceof PublishError ? error.message : UNEXPECTED_REASON;
      if (!(error instanceof PublishError)) log(`publishing: task ${task.id} failed: ${describeError(error)}`);
      await finish(task, { status: 'failed', failureReason: reason }, reason);
    }
  };

  const claimDue = async (): Promise<TaskRow[]> => {
    const now = clock.now();
    const claimed = await db
      .update(tasks)
      .set({ status: 'publishing', updatedAt: now })
      .where(and(eq(tasks.status, 'scheduled'), lte(tasks.scheduledAt, now)))
      .returning();
    for (const task of claimed) await recordEvent(db, task.id, { at: now, from: 'scheduled', to: 'publishing', by: 'scheduler' });
    return claimed;
  };

  const runOnce = async (): Promise<number> => {
    const due = await claimDue();
    for (const task of due) await publishOne(task);
    return due.length;
  };

  const runDue = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await runOnce();
      } while (again);
      return total;
    })().finally(() => {
      running = null;
    });
    return running;
  };

  const safeRun = () =>
    void runDue().catch((error: unknown) => log(`publishing: the scheduler failed: ${describeError(error)}`));

  return {
    runDue,
    kick: () => setTimeout(safeRun, 0),
    async start() {
      const interrupted = await db
        .update(tasks)
        .set({ status: 'failed', failureReason: INTERRUPTED_REASON, updatedAt: clock.now() })
        .where(eq(tasks.status, 'publishing'))
        .returning({ id: tasks.id });
      for (const { id } of interrupted) {
        await recordEvent(db, id, { at: clock.now(), from: 'publishing', to: 'failed', by: 'scheduler', note: INTERRUPTED_REASON });
      }
      const modes = modesOf(connectors);
      log(`publishing: xiaohongshu by ${modes.xiaohongshu}, linkedin by ${modes.linkedin}; checking every ${Math.round(intervalMs / 1000)} s`);
      safeRun();
      timer = setInterval(safeRun, intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => 0);
    },
  };
}
