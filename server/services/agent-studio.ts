import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import type { Page } from '../../src/contract/paging';
import {
  AGENTS_PER_PERSON_MAX,
  STUDIO_ERRORS,
  VERSIONS_PER_AGENT_MAX,
  type AgentContent,
  type AgentVersion,
  type ApprovalState,
  type StudioAgent,
  type StudioAgentSummary,
} from '../../src/contract/studio';
import type { Db } from '../db/client';
import { agentDrafts, agents, agentVersions } from '../db/schema';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import { forbidden, notFound, refusedWith } from '../http/errors';
import { MODEL_ERRORS } from '../../src/contract/models';
import { usableModel } from '../models/registry';
import type { AgentRow } from './agents';
import {
  acceptContent,
  contentOfRow,
  findEditableAgent,
  liveColumns,
  refuseRetired,
  unpublishedColumns,
  visibilityNeedsApproval,
} from './agent-content';
import { containsPattern } from './visibility';

type StudioServices = Pick<Services, 'db' | 'clock' | 'models'>;
type Author = Extract<Caller, { kind: 'user' }>;
type VersionRow = typeof agentVersions.$inferSelect;
type DraftRow = typeof agentDrafts.$inferSelect;

const nameOf = (editor: Author) => editor.user.nickname || editor.user.username;

/** Where the agent's last publish stands: the newest version waiting for an admin, or refused by one. */
function approvalOf(newest: VersionRow | undefined): { approval: ApprovalState; pendingVersionId: string | null; rejectReason: string | null } {
  if (newest?.status === 'pending') return { approval: 'pending', pendingVersionId: newest.id, rejectReason: null };
  if (newest?.status === 'rejected') return { approval: 'rejected', pendingVersionId: null, rejectReason: newest.reviewNote };
  return { approval: 'none', pendingVersionId: null, rejectReason: null };
}

/** What the studio opens: the draft, else the newest version, else (an agent from before versions) its row. */
const shownContent = (row: AgentRow, draft: DraftRow | undefined, newest: VersionRow | undefined): AgentContent =>
  draft?.content ?? newest?.content ?? contentOfRow(row);

function stateOf(row: AgentRow, draft: DraftRow | undefined, newest: VersionRow | undefined) {
  return {
    agentId: row.id,
    isDraft: draft !== undefined,
    hasDraft: draft !== undefined,
    versionId: row.versionId || null,
    published: row.published,
    retired: row.retiredAt !== null,
    ...approvalOf(newest),
    companyId: row.companyId,
    createBy: row.createBy,
    createByName: row.createByName,
    updatedAt: (draft && draft.updatedAt > row.updatedAt ? draft.updatedAt : row.updatedAt).toISOString(),
  };
}

async function draftAndNewest(db: Db, agentIds: string[]): Promise<{ drafts: Map<string, DraftRow>; newest: Map<string, VersionRow> }> {
  if (agentIds.length === 0) return { drafts: new Map(), newest: new Map() };
  const [drafts, versions] = await Promise.all([
    db.select().from(agentDrafts).where(inArray(agentDrafts.agentId, agentIds)),
    db
      .selectDistinctOn([agentVersions.agentId])
      .from(agentVersions)
      .where(inArray(agentVersions.agentId, agentIds))
      .orderBy(agentVersions.agentId, desc(agentVersions.seq)),
  ]);
  return { drafts: new Map(drafts.map((d) => [d.agentId, d])), newest: new Map(versions.map((v) => [v.agentId, v])) };
}

/** The agent as the studio shows it to someone who may edit it. */
export async function studioAgent(db: Db, row: AgentRow): Promise<StudioAgent> {
  const { drafts, newest } = await draftAndNewest(db, [row.id]);
  const draft = drafts.get(row.id);
  const last = newest.get(row.id);
  return { ...stateOf(row, draft, last), content: shownContent(row, draft, last) };
}

export async function openAgent(services: StudioServices, caller: Caller, agentId: string): Promise<StudioAgent> {
  return studioAgent(services.db, await findEditableAgent(services.db, caller, agentId));
}

/** Makes a new agent of the caller's, as a draft nobody else sees: it is on no market until published. */
export async function createAgent(services: StudioServices, editor: Author, input: AgentContent): Promise<StudioAgent> {
  const { db, clock } = services;
  const companyId = editor.user.companyId;
  const content = await acceptContent(db, await services.models.current(), editor, { companyId, kept: [] }, input);
  const [owned] = await db.select({ n: count() }).from(agents).where(eq(agents.createBy, editor.user.id));
  if (Number(owned?.n ?? 0) >= AGENTS_PER_PERSON_MAX) {
    throw refusedWith(409, STUDIO_ERRORS.limitReached, `You have ${AGENTS_PER_PERSON_MAX} agents, the most one person may have.`);
  }
  const id = randomUUID();
  const now = clock.now();
  const by = { id: editor.user.id, name: nameOf(editor) };
  await db.transaction(async (tx) => {
    await tx.insert(agents).values({
      id,
      ...unpublishedColumns(content),
      companyId,
      createBy: by.id,
      createByName: by.name,
      updateBy: by.id,
      updateByName: by.name,
      versionId: '',
      createdAt: now,
      updatedAt: now,
    });
    await tx.insert(agentDrafts).values({ agentId: id, content, updatedAt: now, updatedBy: by.id, updatedByName: by.name });
  });
  return openAgent(services, editor, id);
}

/** Replaces the agent's draft with this content (makes one beside the live version when it has none). */
export async function saveDraft(services: StudioServices, caller: Caller, agentId: string, input: AgentContent): Promise<StudioAgent> {
  const { db, clock } = services;
  const row = await findEditableAgent(db, caller, agentId);
  refuseRetired(row);
  const [draft] = await db.select({ avatar: sql<string>`${agentDrafts.content}->>'avatar'` }).from(agentDrafts).where(eq(agentDrafts.agentId, row.id));
  const content = await acceptContent(db, await services.models.current(), row.editor, { companyId: row.companyId, kept: [row.avatar, draft?.avatar ?? ''].filter(Boolean) }, input);
  const now = clock.now();
  const values = { content, updatedAt: now, updatedBy: row.editor.user.id, updatedByName: nameOf(row.editor) };
  await db.insert(agentDrafts).values({ agentId: row.id, ...values }).onConflictDoUpdate({ target: agentDrafts.agentId, set: values });
  return studioAgent(db, row);
}

/** The agent row set to a version's content: what the market and every question read from now on. */
const goLive = (tx: Db, row: Pick<AgentRow, 'id' | 'companyId'>, version: { id: string; content: AgentContent }, by: { id: string; name: string }, now: Date) =>
  tx
    .update(agents)
    .set({ ...liveColumns(version.content, row.companyId), versionId: version.id, updateBy: by.id, updateByName: by.name, updatedAt: now })
    .where(eq(agents.id, row.id));

/**
 * Publishes the draft as a new version. For the public market, from anyone but an admin, the
 * version waits for an admin's approval (`pending`) and the agent keeps its live version (or
 * stays off the market); otherwise it goes live at once. An earlier version still waiting is
 * withdrawn: the newer one replaces it.
 */
export async function publishAgent(services: StudioServices, caller: Caller, agentId: string): Promise<StudioAgent> {
  const { db, clock } = services;
  const row = await findEditableAgent(db, caller, agentId);
  refuseRetired(row);
  const registry = await services.models.current();
  const now = clock.now();
  const by = { id: row.editor.user.id, name: nameOf(row.editor) };
  await db.transaction(async (tx) => {
    const [taken] = await tx.delete(agentDrafts).where(eq(agentDrafts.agentId, row.id)).returning();
    if (!taken) throw refusedWith(409, STUDIO_ERRORS.nothingToPublish, 'There is nothing new to publish: save a draft first.');
    const content = taken.content;
    if (content.modelId !== null && !usableModel(registry, content.modelId)) {
      throw refusedWith(400, MODEL_ERRORS.unknown, 'The draft’s model is no longer available: choose another one and save the draft again.');
    }
    const [versions] = await tx.select({ n: count() }).from(agentVersions).where(eq(agentVersions.agentId, row.id));
    if (Number(versions?.n ?? 0) >= VERSIONS_PER_AGENT_MAX) {
      throw refusedWith(409, STUDIO_ERRORS.limitReached, `This agent has ${VERSIONS_PER_AGENT_MAX} versions, the most one agent may have.`);
    }
    const pending = visibilityNeedsApproval(content.visibility, row.editor);
    const version = { id: randomUUID(), content };
    await tx.update(agentVersions).set({ status: 'withdrawn' }).where(and(eq(agentVersions.agentId, row.id), eq(agentVersions.status, 'pending')));
    await tx.insert(agentVersions).values({ ...version, agentId: row.id, status: pending ? 'pending' : 'published', createdAt: now, createdBy: by.id, createdByName: by.name });
    if (!pending) await goLive(tx, row, version, by, now);
  });
  return openAgent(services, caller, row.id);
}

/** Makes an earlier version's content the draft, to be published again. */
export async function restoreVersion(services: StudioServices, caller: Caller, agentId: string, versionId: string): Promise<StudioAgent> {
  const { db, clock } = services;
  const row = await findEditableAgent(db, caller, agentId);
  refuseRetired(row);
  const [version] = await db
    .select({ content: agentVersions.content })
    .from(agentVersions)
    .where(and(eq(agentVersions.id, versionId), eq(agentVersions.agentId, row.id)))
    .limit(1);
  if (!version) throw notFound('Version');
  const values = { content: version.content, updatedAt: clock.now(), updatedBy: row.editor.user.id, updatedByName: nameOf(row.editor) };
  await db.insert(agentDrafts).values({ agentId: row.id, ...values }).onConflictDoUpdate({ target: agentDrafts.agentId, set: values });
  return studioAgent(db, row);
}

/**
 * Retires the agent: off the market for good, its draft dropped, a version waiting for approval
 * withdrawn. Its conversations stay readable; a question in one answers 410 (AGENT_RETIRED).
 */
export async function retireAgent(services: StudioServices, caller: Caller, agentId: string): Promise<void> {
  const { db, clock } = services;
  const row = await findEditableAgent(db, caller, agentId);
  if (row.id === DEFAULT_AGENT_ID) throw refusedWith(409, STUDIO_ERRORS.defaultAgent, 'The default agent answers whoever has not chosen one: it cannot be retired.');
  if (row.retiredAt) return;
  const now = clock.now();
  await db.transaction(async (tx) => {
    await tx.update(agents).set({ published: false, isDraft: true, retiredAt: now, updatedAt: now }).where(eq(agents.id, row.id));
    await tx.delete(agentDrafts).where(eq(agentDrafts.agentId, row.id));
    await tx.update(agentVersions).set({ status: 'withdrawn' }).where(and(eq(agentVersions.agentId, row.id), eq(agentVersions.status, 'pending')));
  });
}

export const toVersion = (row: VersionRow, live: boolean): AgentVersion => ({
  versionId: row.id,
  agentId: row.agentId,
  status: row.status,
  live,
  createdAt: row.createdAt.toISOString(),
  createdByName: row.createdByName,
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
  reviewedByName: row.reviewedByName,
  reviewNote: row.reviewNote,
  content: row.content,
});

/** The agent's versions, newest first, paged. */
export async function listVersions(services: StudioServices, caller: Caller, input: { agentId: string; current: number; pageSize: number }): Promise<Page<AgentVersion>> {
  const { db } = services;
  const row = await findEditableAgent(db, caller, input.agentId);
  const where = eq(agentVersions.agentId, row.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agentVersions)
      .where(where)
      .orderBy(desc(agentVersions.seq))
      .limit(input.pageSize)
      .offset((input.current - 1) * input.pageSize),
    db.select({ value: count() }).from(agentVersions).where(where),
  ]);
  const live = row.published ? row.versionId : null;
  return { list: rows.map((version) => toVersion(version, version.id === live)), total: total?.value ?? 0, current: input.current, pageSize: input.pageSize };
}

/**
 * The caller's agents (an admin's `all`: everyone's), newest change first, drafts included, each
 * with what the studio lists: its draft's words when it has one, and where its approval stands.
 */
export async function listStudioAgents(
  services: StudioServices,
  caller: Author,
  input: { current: number; pageSize: number; scope: 'mine' | 'all'; keyword?: string },
): Promise<Page<StudioAgentSummary>> {
  const { db } = services;
  if (input.scope === 'all' && caller.user.role !== 'admin') throw forbidden('Only an admin may list every agent.');
  const changed = sql`greatest(${agents.updatedAt}, coalesce((select ${agentDrafts.updatedAt} from ${agentDrafts} where ${agentDrafts.agentId} = ${agents.id}), ${agents.updatedAt}))`;
  const where = and(
    input.scope === 'mine' ? eq(agents.createBy, caller.user.id) : undefined,
    input.keyword ? or(ilike(agents.name, containsPattern(input.keyword)), ilike(agents.intro, containsPattern(input.keyword))) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(agents)
      .where(where)
      .orderBy(desc(changed), agents.id)
      .limit(input.pageSize)
      .offset((input.current - 1) * input.pageSize),
    db.select({ value: count() }).from(agents).where(where),
  ]);
  const { drafts, newest } = await draftAndNewest(db, rows.map((row) => row.id));
  const list = rows.map((row): StudioAgentSummary => {
    const draft = drafts.get(row.id);
    const last = newest.get(row.id);
    const content = shownContent(row, draft, last);
    return {
      ...stateOf(row, draft, last),
      name: content.name,
      avatar: content.avatar,
      intro: content.intro,
      category: content.category,
      visibility: content.visibility,
    };
  });
  return { list, total: total?.value ?? 0, current: input.current, pageSize: input.pageSize };
}
