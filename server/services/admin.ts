import { randomBytes, randomUUID } from 'node:crypto';
import { and, count, desc, eq, gte, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AdminUser, Connector, Invitation, Organisation, Usage } from '../../src/contract/admin';
import type { Page } from '../../src/contract/paging';
import type { Role } from '../../src/contract/users';
import { hashToken, newToken } from '../auth/tokens';
import type { Db } from '../db/client';
import { agents, companies, connectors, conversations, invitations, messages, sessions, users } from '../db/schema';
import type { Services } from '../deps';
import { badRequest, conflict, notFound } from '../http/errors';
import { DEFAULT_COMPANY_ID } from '../publishing/directory';
import { linkedInConfigFromEnv } from '../publishing/linkedin';
import { keepAnAdmin } from './accounts';
import { revokeSessions } from './sessions';
import { audit, type Actor } from './audit';
import { containsPattern } from './visibility';

export const ORGANISATION_EXISTS = 'An organisation of this name exists already.';
export const NOT_YOURSELF = 'You cannot change your own role or disable your own account; ask another admin.';
export const OPERATOR_NEEDS_COMPANY = 'An operator works for an organisation: choose one.';
export const NO_CONNECTOR_KEY = 'Set CONNECTOR_KEY on the server (32 characters or more) before storing a connector: secrets are kept encrypted.';

const lastSeen = sql<Date | null>`(select max(coalesce(${sessions.lastUsedAt}, ${sessions.createdAt})) from ${sessions} where ${sessions.userId} = ${users.id})`;

function toAdminUser(row: { user: typeof users.$inferSelect; companyName: string | null; lastSeenAt: Date | string | null }): AdminUser {
  const { user } = row;
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname || user.username,
    role: user.role,
    companyId: user.companyId,
    companyName: row.companyName,
    disabled: user.disabledAt !== null,
    createdAt: user.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt ? new Date(row.lastSeenAt).toISOString() : null,
  };
}

const userColumns = { user: users, companyName: companies.name, lastSeenAt: lastSeen };

export async function listUsers(db: Db, query: { current: number; pageSize: number; keyword?: string; companyId?: string }): Promise<Page<AdminUser>> {
  const where = and(
    query.keyword ? or(ilike(users.username, containsPattern(query.keyword)), ilike(users.nickname, containsPattern(query.keyword))) : undefined,
    query.companyId ? eq(users.companyId, query.companyId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(userColumns)
      .from(users)
      .leftJoin(companies, eq(companies.id, users.companyId))
      .where(where)
      .orderBy(desc(users.createdAt), users.id)
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(users).where(where),
  ]);
  return { list: rows.map(toAdminUser), total: total?.value ?? 0, current: query.current, pageSize: query.pageSize };
}

async function adminUser(db: Db, id: string): Promise<AdminUser> {
  const [row] = await db.select(userColumns).from(users).leftJoin(companies, eq(companies.id, users.companyId)).where(eq(users.id, id)).limit(1);
  if (!row) throw notFound('User');
  return toAdminUser(row);
}

async function companyExists(db: Db, id: string): Promise<void> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).limit(1);
  if (!row) throw notFound('Organisation');
}

/** An admin changes another account's role, organisation or whether it may sign in. */
export async function updateUserAsAdmin(
  services: Pick<Services, 'db' | 'clock'>,
  actor: Actor,
  input: { id: string; role?: Role; companyId?: string | null; disabled?: boolean },
): Promise<AdminUser> {
  const { db, clock } = services;
  const [current] = await db.select().from(users).where(eq(users.id, input.id)).limit(1);
  if (!current) throw notFound('User');
  const roleChanges = input.role !== undefined && input.role !== current.role;
  const disabling = input.disabled === true && current.disabledAt === null;
  if (current.id === actor.id && (roleChanges || disabling)) throw conflict(NOT_YOURSELF);
  if (current.role === 'admin' && ((roleChanges && input.role !== 'admin') || disabling)) await keepAnAdmin(db, current.id);
  const companyId = input.companyId === undefined ? current.companyId : input.companyId;
  if (companyId && companyId !== current.companyId) await companyExists(db, companyId);
  const role = input.role ?? current.role;
  if (role === 'operator' && !companyId) throw badRequest(OPERATOR_NEEDS_COMPANY);
  const now = clock.now();
  const disabledAt = input.disabled === undefined ? current.disabledAt : input.disabled ? (current.disabledAt ?? now) : null;
  await db.update(users).set({ role, companyId, disabledAt, updatedAt: now }).where(eq(users.id, current.id));
  if (disabling) await revokeSessions(services, current.id);
  const details: Record<string, string> = {};
  if (roleChanges) Object.assign(details, { roleFrom: current.role, roleTo: role });
  if (companyId !== current.companyId) Object.assign(details, { companyFrom: current.companyId ?? '', companyTo: companyId ?? '' });
  if (input.disabled !== undefined && (current.disabledAt !== null) !== input.disabled) details.disabled = String(input.disabled);
  if (Object.keys(details).length > 0) await audit(db, now, actor, 'user.update', current.id, details);
  return adminUser(db, current.id);
}

export async function signOutEverywhere(services: Pick<Services, 'db' | 'clock'>, actor: Actor, userId: string): Promise<{ revoked: number }> {
  await adminUser(services.db, userId);
  const revoked = await revokeSessions(services, userId);
  await audit(services.db, services.clock.now(), actor, 'user.signOut', userId, { sessionsEnded: String(revoked) });
  return { revoked };
}

export async function listOrganisations(db: Db): Promise<Organisation[]> {
  const rows = await db
    .select({ id: companies.id, name: companies.name, members: sql<number>`(select count(*)::int from ${users} where ${users.companyId} = ${companies.id})` })
    .from(companies)
    .orderBy(companies.name);
  return rows.map((row) => ({ ...row, members: Number(row.members) }));
}

export async function createOrganisation(services: Pick<Services, 'db' | 'clock'>, actor: Actor, name: string): Promise<Organisation> {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  const id = `${slug || 'org'}-${randomBytes(3).toString('hex')}`;
  const [same] = await services.db.select({ id: companies.id }).from(companies).where(sql`lower(${companies.name}) = lower(${name})`).limit(1);
  if (same) throw conflict(ORGANISATION_EXISTS);
  await services.db.insert(companies).values({ id, name });
  await audit(services.db, services.clock.now(), actor, 'organisation.create', id, { name });
  return { id, name, members: 0 };
}

function toInvitation(row: { invitation: typeof invitations.$inferSelect; companyName: string }): Invitation {
  const { invitation } = row;
  return {
    id: invitation.id,
    companyId: invitation.companyId,
    companyName: row.companyName,
    role: invitation.role,
    note: invitation.note,
    createdByName: invitation.createdByName,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
    acceptedAt: invitation.acceptedAt?.toISOString() ?? null,
    revokedAt: invitation.revokedAt?.toISOString() ?? null,
  };
}

const invitationColumns = { invitation: invitations, companyName: companies.name };

export async function listInvitations(db: Db): Promise<Invitation[]> {
  const rows = await db
    .select(invitationColumns)
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .orderBy(desc(invitations.createdAt))
    .limit(200);
  return rows.map(toInvitation);
}

export async function createInvitation(
  services: Pick<Services, 'db' | 'clock' | 'config'>,
  actor: Actor,
  input: { companyId: string; role: Role; note?: string },
): Promise<{ invitation: Invitation; path: string }> {
  const { db, clock, config } = services;
  await companyExists(db, input.companyId);
  const token = newToken();
  const now = clock.now();
  const id = randomUUID();
  await db.insert(invitations).values({
    id,
    tokenHash: hashToken(token),
    companyId: input.companyId,
    role: input.role,
    note: input.note || null,
    createdBy: actor.id,
    createdByName: actor.name,
    createdAt: now,
    expiresAt: new Date(now.getTime() + config.invitationTtlMs),
  });
  await audit(db, now, actor, 'invitation.create', id, { companyId: input.companyId, role: input.role });
  const [row] = await db.select(invitationColumns).from(invitations).innerJoin(companies, eq(companies.id, invitations.companyId)).where(eq(invitations.id, id));
  return { invitation: toInvitation(row!), path: `/login?invitation=${token}` };
}

export async function revokeInvitation(services: Pick<Services, 'db' | 'clock'>, actor: Actor, id: string): Promise<void> {
  const now = services.clock.now();
  const revoked = await services.db
    .update(invitations)
    .set({ revokedAt: now })
    .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  if (revoked.length === 0) throw notFound('Unused invitation');
  await audit(services.db, now, actor, 'invitation.revoke', id);
}

export async function listConnectors(db: Db, env: NodeJS.ProcessEnv, companyId: string): Promise<Connector[]> {
  await companyExists(db, companyId);
  const [row] = await db
    .select({ connector: connectors, updatedByName: sql<string | null>`coalesce(${users.nickname}, ${users.username})` })
    .from(connectors)
    .leftJoin(users, eq(users.id, connectors.updatedBy))
    .where(and(eq(connectors.companyId, companyId), eq(connectors.platform, 'linkedin')))
    .limit(1);
  if (row) {
    return [
      {
        companyId,
        platform: 'linkedin',
        configured: true,
        source: 'console',
        authorUrn: row.connector.authorUrn,
        updatedAt: row.connector.updatedAt.toISOString(),
        updatedByName: row.updatedByName,
      },
    ];
  }
  const fromEnv = companyId === DEFAULT_COMPANY_ID ? linkedInConfigFromEnv(env) : null;
  return [
    {
      companyId,
      platform: 'linkedin',
      configured: fromEnv !== null,
      source: fromEnv ? 'environment' : 'none',
      authorUrn: fromEnv?.authorUrn ?? null,
      updatedAt: null,
      updatedByName: null,
    },
  ];
}

export async function setConnector(
  services: Pick<Services, 'db' | 'clock' | 'sealer'>,
  actor: Actor,
  env: NodeJS.ProcessEnv,
  input: { companyId: string; platform: 'linkedin'; accessToken: string; authorUrn: string },
): Promise<Connector> {
  const { db, clock, sealer } = services;
  if (!sealer) throw conflict(NO_CONNECTOR_KEY);
  await companyExists(db, input.companyId);
  const now = clock.now();
  const values = { sealedSecret: sealer.seal(input.accessToken), authorUrn: input.authorUrn, updatedAt: now, updatedBy: actor.id };
  await db
    .insert(connectors)
    .values({ companyId: input.companyId, platform: input.platform, ...values })
    .onConflictDoUpdate({ target: [connectors.companyId, connectors.platform], set: values });
  await audit(db, now, actor, 'connector.set', input.companyId, { platform: input.platform, authorUrn: input.authorUrn });
  return (await listConnectors(db, env, input.companyId))[0]!;
}

export async function clearConnector(services: Pick<Services, 'db' | 'clock'>, actor: Actor, input: { companyId: string; platform: 'linkedin' }): Promise<void> {
  const removed = await services.db
    .delete(connectors)
    .where(and(eq(connectors.companyId, input.companyId), eq(connectors.platform, input.platform)))
    .returning({ id: connectors.companyId });
  if (removed.length === 0) throw notFound('Connector');
  await audit(services.db, services.clock.now(), actor, 'connector.clear', input.companyId, { platform: input.platform });
}

const DAY_MS = 24 * 3600 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Questions asked (signed-in people's) and model tokens spent, by day, account and agent. */
export async function usage(db: Db, now: Date, days: number): Promise<Usage> {
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS);
  const day = sql<string>`to_char(${messages.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const questions = sql<number>`count(*) filter (where ${messages.role} = 'user')::int`;
  const tokens = sql<number>`coalesce(sum(coalesce(${messages.promptTokens}, 0) + coalesce(${messages.completionTokens}, 0)), 0)::int`;
  const scope: SQL = and(gte(messages.createdAt, since), sql`${conversations.ownerUserId} is not null`)!;
  const [byDay, byUser, byAgent] = await Promise.all([
    db
      .select({ day, questions, tokens })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .where(scope)
      .groupBy(day),
    db
      .select({ userId: users.id, name: sql<string>`coalesce(${users.nickname}, ${users.username})`, questions, tokens })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(users, eq(users.id, conversations.ownerUserId))
      .where(scope)
      .groupBy(users.id, users.nickname, users.username)
      .orderBy(desc(questions))
      .limit(50),
    db
      .select({ agentId: conversations.sourceId, name: sql<string>`coalesce(${agents.name}, ${conversations.sourceId})`, questions, tokens })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .leftJoin(agents, eq(agents.id, conversations.sourceId))
      .where(scope)
      .groupBy(conversations.sourceId, agents.name)
      .orderBy(desc(questions))
      .limit(50),
  ]);
  const perDay = new Map(byDay.map((row) => [row.day, row]));
  return {
    days: Array.from({ length: days }, (_, i) => {
      const key = dayOf(new Date(since.getTime() + i * DAY_MS));
      const row = perDay.get(key);
      return { day: key, questions: Number(row?.questions ?? 0), tokens: Number(row?.tokens ?? 0) };
    }),
    users: byUser.map((row) => ({ ...row, questions: Number(row.questions), tokens: Number(row.tokens) })),
    agents: byAgent.map((row) => ({ ...row, questions: Number(row.questions), tokens: Number(row.tokens) })),
  };
}
