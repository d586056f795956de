import { and, asc, count, eq } from 'drizzle-orm';
import type { Page } from '../../src/contract/paging';
import { STUDIO_ERRORS, type AgentVersion } from '../../src/contract/studio';
import { agents, agentVersions } from '../db/schema';
import type { Services } from '../deps';
import { refusedWith } from '../http/errors';
import { liveColumns } from './agent-content';
import { toVersion } from './agent-studio';
import { audit, type Actor } from './audit';

type ReviewServices = Pick<Services, 'db' | 'clock'>;

const NOT_PENDING = 'This version is not waiting for approval any more (approved, refused, or replaced by a newer one).';

/** Versions sent to the public market and waiting for an admin, oldest first. */
export async function listPending(services: ReviewServices, input: { current: number; pageSize: number }): Promise<Page<AgentVersion>> {
  const where = eq(agentVersions.status, 'pending');
  const [rows, [total]] = await Promise.all([
    services.db
      .select()
      .from(agentVersions)
      .where(where)
      .orderBy(asc(agentVersions.seq))
      .limit(input.pageSize)
      .offset((input.current - 1) * input.pageSize),
    services.db.select({ value: count() }).from(agentVersions).where(where),
  ]);
  return { list: rows.map((row) => toVersion(row, false)), total: total?.value ?? 0, current: input.current, pageSize: input.pageSize };
}

/** Approves a waiting version: it becomes the agent's live version, on the public market. */
export async function approveVersion(services: ReviewServices, actor: Actor, versionId: string): Promise<AgentVersion> {
  const now = services.clock.now();
  const approved = await services.db.transaction(async (tx) => {
    const [version] = await tx
      .update(agentVersions)
      .set({ status: 'published', reviewedAt: now, reviewedBy: actor.id, reviewedByName: actor.name })
      .where(and(eq(agentVersions.id, versionId), eq(agentVersions.status, 'pending')))
      .returning();
    if (!version) throw refusedWith(409, STUDIO_ERRORS.notPending, NOT_PENDING);
    const [agent] = await tx.select({ companyId: agents.companyId }).from(agents).where(eq(agents.id, version.agentId));
    await tx
      .update(agents)
      .set({ ...liveColumns(version.content, agent?.companyId ?? null), versionId: version.id, updateBy: version.createdBy, updateByName: version.createdByName, updatedAt: now })
      .where(eq(agents.id, version.agentId));
    return version;
  });
  await audit(services.db, now, actor, 'agent.approve', approved.agentId, { versionId: approved.id, name: approved.content.name });
  return toVersion(approved, true);
}

/** Refuses a waiting version with a reason its author reads; the agent keeps what it had live. */
export async function rejectVersion(services: ReviewServices, actor: Actor, input: { versionId: string; reason: string }): Promise<AgentVersion> {
  const now = services.clock.now();
  const [version] = await services.db
    .update(agentVersions)
    .set({ status: 'rejected', reviewedAt: now, reviewedBy: actor.id, reviewedByName: actor.name, reviewNote: input.reason })
    .where(and(eq(agentVersions.id, input.versionId), eq(agentVersions.status, 'pending')))
    .returning();
  if (!version) throw refusedWith(409, STUDIO_ERRORS.notPending, NOT_PENDING);
  await audit(services.db, now, actor, 'agent.reject', version.agentId, { versionId: version.id, name: version.content.name });
  return toVersion(version, false);
}
