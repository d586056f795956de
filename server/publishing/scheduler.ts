import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { describeError } from '../http/log-line';
import { tasks } from '../db/schema';
import type { FileStorage } from '../media/storage';
import { leaseLapsed, leaseUntil } from '../services/answer-leases';
import { audit, SCHEDULER_ACTOR } from '../services/audit';
import { recordEvent, type TaskRow } from '../services/tasks';
import { PublishError } from './connector';
import type { ConnectorDirectory } from './directory';

export const DEFAULT_PUBLISH_INTERVAL_MS = 30_000;

export const INTERRUPTED_REASON =
  'The server stopped while this task was being published. Check the platform for the post before scheduling it again.';
/** The note of a task taken over before its server reached the platform: it is simply published again. */
export const RESUMED_NOTE = 'The server publishing this task stopped before reaching the platform; publishing it again.';
const EXPORT_NOTE = 'Time to publish: export the text and images and post them by hand.';
const UNEXPECTED_REASON = 'Publishing failed unexpectedly; the details are in the server log. Schedule the task again to retry.';

export type SchedulerOptions = {
  db: Db;
  clock: Clock;
  /** Each company's connectors: a task is published only with its own company's. */
  connectors: ConnectorDirectory;
  storage: FileStorage;
  log: (line: string) => void;
  intervalMs?: number;
  /** This server instance, as task leases name it. */
  instanceId?: string;
  /** How long a claimed task stays this instance's without a renewal, and how often it is renewed. */
  leaseMs?: number;
  leaseRenewMs?: number;
  /**
   * This instance owns the database alone (the embedded database): at start every task left
   * publishing was left by a server that stopped, whatever its lease says.
   */
  exclusive?: boolean;
};

export type Scheduler = {
  /** Publishes (or hands over for export) every scheduled task whose time has come; answers how many. */
  runDue(): Promise<number>;
  /** Runs `runDue` soon, once, outside the caller's request. */
  kick(): void;
  /** Takes over tasks left mid-publication by a stopped server, then runs due tasks and every interval after. */
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The due tasks live in the database, so nothing is lost when the server stops: on start and on
 * every tick the scheduler claims what is due (scheduled → publishing, atomically, so two servers
 * never post a task twice) with a lease it renews while it works, and moves each on to published,
 * failed or due (posted by hand). A task whose lease lapsed (its server is gone) is taken over:
 * published again if its server never called the platform (the attempt is written before the
 * call), failed with a reason if it may have, so no post ever goes out twice.
 */
export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, clock, connectors, storage, log } = options;
  const intervalMs = options.intervalMs ?? DEFAULT_PUBLISH_INTERVAL_MS;
  const instanceId = options.instanceId ?? randomUUID();
  const leaseMs = options.leaseMs ?? 15_000;
  const leaseRenewMs = options.leaseRenewMs ?? 5_000;
  const mine = (task: TaskRow) => and(eq(tasks.id, task.id), eq(tasks.status, 'publishing'), eq(tasks.leaseOwner, instanceId));
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<number> | null = null;
  let again = false;

  const finish = async (task: TaskRow, changes: Partial<TaskRow> & { status: TaskRow['status'] }, note: string | null) => {
    const now = clock.now();
    const finished = await db
      .update(tasks)
      .set({ ...changes, updatedAt: now, leaseOwner: null, leaseExpiresAt: null })
      .where(mine(task))
      .returning({ id: tasks.id });
    if (finished.length === 0) return;
    await recordEvent(db, task.id, { at: now, from: 'publishing', to: changes.status, by: 'scheduler', note });
    // What left for the platform, and with whose connector, is the audit log's too.
    await audit(db, now, { ...SCHEDULER_ACTOR, companyId: task.companyId }, `task.${changes.status === 'due' ? 'handedOver' : changes.status}`, task.id, {
      platform: task.platform,
      ...(changes.externalUrl ? { externalUrl: changes.externalUrl } : {}),
      ...(changes.failureReason ? { reason: changes.failureReason.slice(0, 200) } : {}),
    });
  };

  const publishOne = async (task: TaskRow) => {
    let connector;
    try {
      connector = (await connectors.forCompany(task.companyId))[task.platform];
    } catch (error) {
      log(`publishing: the connector of task ${task.id} could not be read: ${describeError(error)}`);
      await finish(task, { status: 'failed', failureReason: UNEXPECTED_REASON }, UNEXPECTED_REASON);
      return;
    }
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
      // Written before the platform is called: whoever takes the task over knows a post may exist.
      const attempting = await db.update(tasks).set({ publishAttemptedAt: clock.now() }).where(mine(task)).returning({ id: tasks.id });
      if (attempting.length === 0) return;
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
      .set({ status: 'publishing', updatedAt: now, leaseOwner: instanceId, leaseExpiresAt: leaseUntil(leaseMs), publishAttemptedAt: null })
      .where(and(eq(tasks.status, 'scheduled'), lte(tasks.scheduledAt, now)))
      .returning();
    for (const task of claimed) await recordEvent(db, task.id, { at: now, from: 'scheduled', to: 'publishing', by: 'scheduler' });
    return claimed;
  };

  /** Tasks left publishing by a server that is gone: published again if it never reached the platform. */
  const takeOver = async (everyOther: boolean) => {
    const now = clock.now();
    const attempted = sql`${tasks.publishAttemptedAt} is not null`;
    const taken = await db
      .update(tasks)
      .set({
        status: sql`case when ${attempted} then 'failed' else 'scheduled' end`,
        failureReason: sql`case when ${attempted} then ${INTERRUPTED_REASON} else null end`,
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: now,
      })
      .where(
        and(
          eq(tasks.status, 'publishing'),
          everyOther ? or(isNull(tasks.leaseOwner), ne(tasks.leaseOwner, instanceId)) : leaseLapsed(tasks.leaseExpiresAt),
        ),
      )
      .returning({ id: tasks.id, status: tasks.status });
    for (const { id, status } of taken) {
      const note = status === 'failed' ? INTERRUPTED_REASON : RESUMED_NOTE;
      await recordEvent(db, id, { at: now, from: 'publishing', to: status, by: 'scheduler', note });
    }
  };

  const renew = () =>
    void db
      .update(tasks)
      .set({ leaseExpiresAt: leaseUntil(leaseMs) })
      .where(and(eq(tasks.status, 'publishing'), eq(tasks.leaseOwner, instanceId)))
      .catch((error: unknown) => log(`publishing: renewing a lease failed: ${describeError(error)}`));

  const runOnce = async (): Promise<number> => {
    await takeOver(false);
    const due = await claimDue();
    for (const task of due) await publishOne(task);
    return due.length;
  };

  const runDue = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    const renewing = setInterval(renew, leaseRenewMs);
    renewing.unref?.();
    running = (async () => {
      let total = 0;
      do {
        again = false;
        total += await runOnce();
      } while (again);
      return total;
    })().finally(() => {
      clearInterval(renewing);
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
      await takeOver(options.exclusive ?? false);
      log(`publishing: each company's tasks with its own connectors; checking every ${Math.round(intervalMs / 1000)} s`);
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
