import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import {
  ACTIONS_BY_STATUS,
  contentIssues,
  isEditable,
  TASK_STATUSES,
  type Brief,
  type ContentIssue,
  type Draft,
  type Platform,
  type StatusCounts,
  type Task,
  type TaskPage,
  type TaskStatus,
  type TaskSummary,
} from '../../src/contract/tasks';
import type { Clock } from '../config';
import type { Db } from '../db/client';
import { taskEvents, tasks } from '../db/schema';

import { badRequest, conflict, notFound } from '../http/errors';
import { resolveOwnFiles } from './uploads';
import { containsPattern } from './visibility';

export type TaskRow = typeof tasks.$inferSelect;

/** Who works on tasks: an operator (or admin) of a company, on that company's tasks only. */
export type Operator = { userId: string; companyId: string };
type EventRow = typeof taskEvents.$inferSelect;

const EXCERPT_LENGTH = 80;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const toTask = (row: TaskRow, events: EventRow[]): Task => ({
  id: row.id,
  platform: row.platform,
  title: row.title,
  brief: row.brief,
  drafts: row.drafts,
  chosenDraft: row.chosenDraft,
  body: row.body,
  images: row.images,
  status: row.status,
  scheduledAt: iso(row.scheduledAt),
  failureReason: row.failureReason,
  publishedAt: iso(row.publishedAt),
  externalId: row.externalId,
  externalUrl: row.externalUrl,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  history: events.map((event) => ({
    at: event.at.toISOString(),
    from: (event.fromStatus as TaskStatus | null) ?? null,
    to: event.toStatus as TaskStatus,
    by: event.by,
    note: event.note,
  })),
});

const toSummary = (row: TaskRow): TaskSummary => {
  const line = row.body.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return {
    id: row.id,
    platform: row.platform,
    title: row.title,
    excerpt: chars.length > EXCERPT_LENGTH ? `${chars.slice(0, EXCERPT_LENGTH).join('')}…` : line,
    status: row.status,
    scheduledAt: iso(row.scheduledAt),
    failureReason: row.failureReason,
    imageCount: row.images.length,
    updatedAt: row.updatedAt.toISOString(),
  };
};

const emptyBrief: Brief = { topic: '', audience: '', tone: '', keywords: [], language: 'zh-CN' };

const ISSUE_TEXT: Record<ContentIssue['kind'], (field: string, limit: number) => string> = {
  missing: (field) => `the ${field} is empty`,
  tooLong: (field, limit) => `the ${field} is longer than ${limit} characters`,
  tooFew: (_field, limit) => `at least ${limit} image${limit > 1 ? 's are' : ' is'} needed`,
  tooMany: (_field, limit) => `at most ${limit} images are allowed`,
};

const PLATFORM_NAMES: Record<Platform, string> = { xiaohongshu: 'Xiaohongshu', linkedin: 'LinkedIn' };

/** Refuses content beyond the platform's limits, and incomplete content for a task on its way out. */
function checkContent(platform: Platform, content: { title: string; body: string; imageCount: number }, publishable: boolean) {
  const issues = contentIssues(platform, content, publishable);
  if (issues.length === 0) return;
  const described = issues.map((issue) => ISSUE_TEXT[issue.kind](issue.field, issue.limit)).join('; ');
  throw badRequest(`This ${PLATFORM_NAMES[platform]} ${publishable ? 'post is not ready' : 'post does not fit'}: ${described}.`);
}

function checkChosenDraft(chosenDraft: number | null, drafts: Draft[]) {
  if (chosenDraft !== null && chosenDraft >= drafts.length) {
    throw badRequest(`Invalid request: chosenDraft: there is no draft number ${chosenDraft + 1}.`);
  }
}

/** Statuses whose content must stay publishable: they are approved or on their way out. */
const mustBePublishable = (status: TaskStatus) => status !== 'draft' && status !== 'failed';

async function eventsOf(db: Db, taskId: string): Promise<EventRow[]> {
  return db.select().from(taskEvents).where(eq(taskEvents.taskId, taskId)).orderBy(taskEvents.seq);
}

export async function recordEvent(
  db: Db,
  taskId: string,
  event: { at: Date; from: TaskStatus | null; to: TaskStatus; by: 'operator' | 'scheduler'; note?: string | null },
) {
  await db.insert(taskEvents).values({ taskId, at: event.at, fromStatus: event.from, toStatus: event.to, by: event.by, note: event.note ?? null });
}

/** The task when it is the operator's company's; 404 otherwise, whether it exists or not. */
export async function findOwnedTask(db: Db, operator: Operator, id: string): Promise<TaskRow> {
  const [row] = await db
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, id), eq(tasks.companyId, operator.companyId)))
    .limit(1);
  if (!row) throw notFound('Task');
  return row;
}

export async function getTask(db: Db, operator: Operator, id: string): Promise<Task> {
  const row = await findOwnedTask(db, operator, id);
  return toTask(row, await eventsOf(db, id));
}

export type ContentInput = {
  title?: string;
  brief?: Brief;
  drafts?: Draft[];
  chosenDraft?: number | null;
  body?: string;
  images?: { fileId: string }[];
};

export async function createTask(db: Db, clock: Clock, operator: Operator, input: ContentInput & { platform: Platform }): Promise<Task> {
  const images = await resolveOwnFiles(db, { userId: operator.userId }, input.images ?? []);
  const title = input.title ?? '';
  const body = input.body ?? '';
  const drafts = input.drafts ?? [];
  const chosenDraft = input.chosenDraft ?? null;
  checkContent(input.platform, { title, body, imageCount: images.length }, false);
  checkChosenDraft(chosenDraft, drafts);
  if (images.some((image) => image.kind !== 'image')) throw badRequest('Only images can be attached to a post.');
  const now = clock.now();
  const id = randomUUID();
  await db.transaction(async (tx) => {
    await tx.insert(tasks).values({
      id,
      ownerUserId: operator.userId,
      companyId: operator.companyId,
      platform: input.platform,
      title,
      brief: input.brief ?? emptyBrief,
      drafts,
      chosenDraft,
      body,
      images,
      status: 'draft',
      createdAt: now,
      updatedAt: now,
    });
    await recordEvent(tx as unknown as Db, id, { at: now, from: null, to: 'draft', by: 'operator' });
  });
  return getTask(db, operator, id);
}

/**
 * The images a task will hold: those it holds already stay (a colleague may have added them);
 * any other must be the operator's own upload.
 */
async function taskImages(db: Db, operator: Operator, current: TaskRow, wanted: { fileId: string }[]) {
  const held = new Map(current.images.map((image) => [image.fileId, image]));
  const added = await resolveOwnFiles(
    db,
    { userId: operator.userId },
    wanted.filter((image) => !held.has(image.fileId)),
  );
  const addedById = new Map(added.map((image) => [image.fileId, image]));
  return wanted.map((image) => held.get(image.fileId) ?? addedById.get(image.fileId)!);
}

export async function updateTask(db: Db, clock: Clock, operator: Operator, input: ContentInput & { id: string }): Promise<Task> {
  const current = await findOwnedTask(db, operator, input.id);
  if (!isEditable(current.status)) {
    throw conflict(current.status === 'published' ? 'This task is published; its content can no longer change.' : 'This task is being published right now; try again in a moment.');
  }
  const images = input.images ? await taskImages(db, operator, current, input.images) : current.images;
  if (images.some((image) => image.kind !== 'image')) throw badRequest('Only images can be attached to a post.');
  const next = {
    title: input.title ?? current.title,
    brief: input.brief ?? current.brief,
    drafts: input.drafts ?? current.drafts,
    chosenDraft: input.chosenDraft === undefined ? current.chosenDraft : input.chosenDraft,
    body: input.body ?? current.body,
    images,
  };
  checkContent(current.platform, { title: next.title, body: next.body, imageCount: images.length }, mustBePublishable(current.status));
  checkChosenDraft(next.chosenDraft, next.drafts);
  const [row] = await db
    .update(tasks)
    .set({ ...next, updatedAt: clock.now() })
    .where(and(eq(tasks.id, current.id), eq(tasks.status, current.status)))
    .returning();
  if (!row) throw conflict('This task changed status while you were saving; reload it and try again.');
  return toTask(row, await eventsOf(db, row.id));
}

export async function deleteTask(db: Db, operator: Operator, id: string): Promise<void> {
  const current = await findOwnedTask(db, operator, id);
  if (current.status === 'publishing') throw conflict('This task is being published right now; it cannot be deleted.');
  await db.delete(tasks).where(eq(tasks.id, current.id));
}

export async function listTasks(
  db: Db,
  operator: Operator,
  query: { current: number; pageSize: number; platform?: Platform; status?: TaskStatus; keyword?: string },
): Promise<TaskPage> {
  const scope: (SQL | undefined)[] = [
    eq(tasks.companyId, operator.companyId),
    query.platform ? eq(tasks.platform, query.platform) : undefined,
    query.keyword ? ilike(tasks.title, containsPattern(query.keyword)) : undefined,
  ];
  const where = and(...scope, query.status ? eq(tasks.status, query.status) : undefined);
  const [rows, [total], perStatus] = await Promise.all([
    db
      .select()
      .from(tasks)
      .where(where)
      .orderBy(desc(tasks.updatedAt), tasks.id)
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(tasks).where(where),
    db.select({ status: tasks.status, value: count() }).from(tasks).where(and(...scope)).groupBy(tasks.status),
  ]);
  const counts = Object.fromEntries(TASK_STATUSES.map((status) => [status, 0])) as StatusCounts;
  for (const entry of perStatus) counts[entry.status] = entry.value;
  return { list: rows.map(toSummary), total: total?.value ?? 0, current: query.current, pageSize: query.pageSize, counts };
}

export type TransitionInput =
  | { id: string; action: 'markReady' | 'backToDraft' | 'unschedule' }
  | { id: string; action: 'schedule'; scheduledAt: string }
  | { id: string; action: 'markPublished'; postUrl?: string };

/** How far in the past a schedule time may be (the form's minute rounding, a slow click): it means "now". */
export const SCHEDULE_GRACE_MS = 5 * 60 * 1000;

/** Moves a task on as the operator asked, when its status allows it; answers the task and whether it is due now. */
export async function transitionTask(db: Db, clock: Clock, operator: Operator, input: TransitionInput): Promise<Task> {
  const current = await findOwnedTask(db, operator, input.id);
  if (!ACTIONS_BY_STATUS[current.status].includes(input.action)) {
    throw conflict(`A ${current.status} task cannot be moved on with "${input.action}".`);
  }
  const now = clock.now();
  const content = { title: current.title, body: current.body, imageCount: current.images.length };
  let changes: Partial<TaskRow> & { status: TaskStatus };
  let note: string | null = null;
  switch (input.action) {
    case 'markReady':
      checkContent(current.platform, content, true);
      changes = { status: 'ready' };
      break;
    case 'backToDraft':
      changes = { status: 'draft', scheduledAt: null, failureReason: null };
      break;
    case 'unschedule':
      changes = { status: 'ready', scheduledAt: null };
      break;
    case 'schedule': {
      checkContent(current.platform, content, true);
      const when = new Date(input.scheduledAt);
      if (when.getTime() < now.getTime() - SCHEDULE_GRACE_MS) throw badRequest('The scheduled time is in the past; pick a time from now on.');
      changes = { status: 'scheduled', scheduledAt: when, failureReason: null };
      note = when.toISOString();
      break;
    }
    case 'markPublished':
      changes = { status: 'published', publishedAt: now, externalUrl: input.postUrl || null, failureReason: null };
      note = input.postUrl || null;
      break;
  }
  const [row] = await db
    .update(tasks)
    .set({ ...changes, updatedAt: now })
    .where(and(eq(tasks.id, current.id), eq(tasks.status, current.status)))
    .returning();
  if (!row) throw conflict('This task changed status in the meantime; reload it and try again.');
  await recordEvent(db, row.id, { at: now, from: current.status, to: row.status, by: 'operator', note });
  return toTask(row, await eventsOf(db, row.id));
}

