import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { passwordProblem } from '../../src/contract/accounts';
import type { LoginResult } from '../../src/contract/auth';
import type { UserInfo } from '../../src/contract/users';
import type { ResponderLanguage } from '../agents/runtime';
import { hashPassword, verifyPassword } from '../auth/password';
import { hashToken, newToken } from '../auth/tokens';
import type { Db } from '../db/client';
import { companies, conversations, invitations, messages, passwordResets, shares, tasks, uploads, users } from '../db/schema';
import type { Services } from '../deps';
import type { Caller, UserRow } from '../http/caller';
import { badRequest, conflict, forbidden, gone, notFound } from '../http/errors';
import { actorOf, audit, type Actor } from './audit';
import { finishLogin, normalizeUsername } from './auth';
import { revokeSessions, type SignInOrigin } from './sessions';
import { describeUser } from './users';

type SignedIn = Extract<Caller, { kind: 'user' }>;

export const SIGNUP_CLOSED = 'Sign-up is closed on this server; ask an admin for an account.';
export const SIGNUP_BY_INVITATION = 'Sign-up on this server is by invitation only.';
export const ACCOUNT_TAKEN = 'An account with this name exists already; log in instead.';
export const LINK_UNKNOWN = 'This link is not valid.';
export const LINK_GONE = 'This link has expired or was used already.';
export const WRONG_PASSWORD = 'The current password is wrong.';
export const LAST_ADMIN = 'This is the last admin account: make another account admin first.';

/** Refuses a password the policy does not accept, naming the rule (a key the SPA translates). */
export function checkNewPassword(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem) throw badRequest(`Invalid request: password: ${problem}`);
}

type InvitationRow = typeof invitations.$inferSelect;

/** The invitation of a link while it can still be used; 404 unknown, 410 used, revoked or expired. */
async function usableInvitation(db: Db, token: string, now: Date): Promise<InvitationRow & { companyName: string }> {
  const [row] = await db
    .select({ invitation: invitations, companyName: companies.name })
    .from(invitations)
    .innerJoin(companies, eq(companies.id, invitations.companyId))
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw notFound('Invitation');
  const { invitation } = row;
  if (invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now) throw gone(LINK_GONE);
  return { ...invitation, companyName: row.companyName };
}

export async function previewInvitation(services: Pick<Services, 'db' | 'clock'>, token: string) {
  const invitation = await usableInvitation(services.db, token, services.clock.now());
  return { companyName: invitation.companyName, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() };
}

/** Uses the invitation once (the update is its own check: two at once, one wins) and moves the account in. */
async function redeem(db: Db, invitation: InvitationRow, userId: string, now: Date): Promise<void> {
  const taken = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id });
  if (taken.length === 0) throw gone(LINK_GONE);
  await db.update(users).set({ companyId: invitation.companyId, role: invitation.role, updatedAt: now }).where(eq(users.id, userId));
}

/** A new account with a password, as the server's sign-up policy allows; answers as a login does. */
export async function signup(
  services: Services,
  input: { username: string; password: string; nickname?: string; invitation?: string },
  origin: SignInOrigin,
  visitorId: string | undefined,
): Promise<LoginResult> {
  const { db, clock, config } = services;
  if (config.signup === 'closed') throw forbidden(SIGNUP_CLOSED);
  const now = clock.now();
  const invitation = input.invitation ? await usableInvitation(db, input.invitation, now) : null;
  if (config.signup === 'invite' && !invitation) throw forbidden(SIGNUP_BY_INVITATION);
  const username = normalizeUsername(input.username);
  checkNewPassword(input.password, username);
  const [created] = await db
    .insert(users)
    .values({
      id: randomUUID(),
      username,
      passwordHash: await hashPassword(input.password),
      nickname: input.nickname ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: users.username })
    .returning();
  if (!created) throw conflict(ACCOUNT_TAKEN);
  let user = created;
  if (invitation) {
    await redeem(db, invitation, user.id, now);
    user = { ...user, companyId: invitation.companyId, role: invitation.role };
  }
  await audit(db, now, { id: user.id, name: user.nickname || user.username, sessionId: null, companyId: user.companyId }, 'account.signup', user.id, {
    ...(invitation ? { invitation: invitation.id, role: invitation.role, companyId: invitation.companyId } : {}),
  });
  const result = await finishLogin(services, user, visitorId, origin);
  return { ...result, userInfo: await describeUser(db, user) };
}

/** A signed-in account takes an invitation: it joins the invitation's company with its role. */
export async function acceptInvitation(services: Pick<Services, 'db' | 'clock'>, caller: SignedIn, token: string): Promise<UserInfo> {
  const { db, clock } = services;
  const now = clock.now();
  const invitation = await usableInvitation(db, token, now);
  if (caller.user.role === 'admin' && invitation.role !== 'admin') await keepAnAdmin(db, caller.user.id);
  await redeem(db, invitation, caller.user.id, now);
  await audit(db, now, actorOf(caller), 'invitation.accept', caller.user.id, { invitation: invitation.id, role: invitation.role, companyId: invitation.companyId });
  const [row] = await db.select().from(users).where(eq(users.id, caller.user.id)).limit(1);
  return describeUser(db, row!);
}

/** Refuses to take the admin role from the last account that has it. */
export async function keepAnAdmin(db: Db, leavingUserId: string): Promise<void> {
  const [others] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, 'admin'), ne(users.id, leavingUserId), isNull(users.disabledAt)));
  if ((others?.n ?? 0) === 0) throw conflict(LAST_ADMIN);
}

export async function changePassword(
  services: Pick<Services, 'db' | 'clock'>,
  caller: SignedIn,
  input: { currentPassword: string; newPassword: string },
): Promise<{ revoked: number }> {
  const { db, clock } = services;
  if (!(await verifyPassword(input.currentPassword, caller.user.passwordHash))) throw forbidden(WRONG_PASSWORD);
  checkNewPassword(input.newPassword, caller.user.username);
  await db.update(users).set({ passwordHash: await hashPassword(input.newPassword), updatedAt: clock.now() }).where(eq(users.id, caller.user.id));
  const revoked = await revokeSessions(services, caller.user.id, caller.sessionId);
  await audit(db, clock.now(), actorOf(caller), 'account.password', caller.user.id, { sessionsEnded: String(revoked) });
  return { revoked };
}

/** A one-time link for the account to choose a new password; only the token's hash is kept. */
export async function issueResetLink(services: Pick<Services, 'db' | 'clock' | 'config'>, userId: string, actor: Actor) {
  const { db, clock, config } = services;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('User');
  const token = newToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + config.resetLinkTtlMs);
  await db.insert(passwordResets).values({ tokenHash: hashToken(token), userId, createdAt: now, expiresAt });
  await audit(db, now, actor, 'user.resetLink', userId);
  return { path: `/reset-password?token=${token}`, expiresAt: expiresAt.toISOString(), token };
}

/** Reset links one account may be mailed in an hour, whoever asks: no one fills a person's inbox. */
export const RESET_MAILS_PER_ACCOUNT = 3;

/** Mails a reset link to an e-mail account, when the server sends mail and the account exists. */
export async function mailResetLink(services: Services, username: string, language: ResponderLanguage): Promise<void> {
  const { db, mailer, counters } = services;
  const address = normalizeUsername(username);
  if (!mailer || !address.includes('@')) return;
  const [user] = await db.select({ id: users.id, disabledAt: users.disabledAt }).from(users).where(eq(users.username, address)).limit(1);
  if (!user || user.disabledAt) return;
  const tally = (await counters.add([{ key: `reset-mail-account:${user.id}`, windowMs: 3600_000 }])).get(`reset-mail-account:${user.id}`)!;
  if (tally.count > RESET_MAILS_PER_ACCOUNT) return;
  const link = await issueResetLink(services, user.id, { id: user.id, name: address, sessionId: null, companyId: null });
  await mailer.sendResetLink(address, link.path, language, new Date(link.expiresAt));
}

async function usableReset(db: Db, token: string, now: Date) {
  const [row] = await db
    .select({ reset: passwordResets, username: users.username })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.tokenHash, hashToken(token)))
    .limit(1);
  if (!row) throw notFound('Reset link');
  if (row.reset.usedAt || row.reset.expiresAt <= now) throw gone(LINK_GONE);
  return row;
}

export async function previewReset(services: Pick<Services, 'db' | 'clock'>, token: string) {
  const { reset, username } = await usableReset(services.db, token, services.clock.now());
  return { username, expiresAt: reset.expiresAt.toISOString() };
}

/** Sets the new password once per link, and signs the account out everywhere. */
export async function resetPassword(services: Pick<Services, 'db' | 'clock'>, token: string, newPassword: string): Promise<void> {
  const { db, clock } = services;
  const now = clock.now();
  const { reset, username } = await usableReset(db, token, now);
  checkNewPassword(newPassword, username);
  const used = await db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.tokenHash, reset.tokenHash), isNull(passwordResets.usedAt)))
    .returning({ userId: passwordResets.userId });
  if (used.length === 0) throw gone(LINK_GONE);
  await db.update(users).set({ passwordHash: await hashPassword(newPassword), updatedAt: now }).where(eq(users.id, reset.userId));
  await revokeSessions(services, reset.userId);
  await audit(db, now, { id: reset.userId, name: username, sessionId: null, companyId: null }, 'account.passwordReset', reset.userId);
}

/** Everything the account holds, for the person to keep before leaving. */
export async function exportAccount(db: Db, user: UserRow, now: Date) {
  const owned = await db.select().from(conversations).where(eq(conversations.ownerUserId, user.id)).orderBy(asc(conversations.createdAt));
  const ids = owned.map((conversation) => conversation.id);
  const allMessages = ids.length ? await db.select().from(messages).where(inArray(messages.conversationId, ids)).orderBy(asc(messages.seq)) : [];
  const byConversation = new Map<string, typeof allMessages>();
  for (const message of allMessages) byConversation.set(message.conversationId, [...(byConversation.get(message.conversationId) ?? []), message]);
  const [files, links] = await Promise.all([
    db.select().from(uploads).where(eq(uploads.ownerUserId, user.id)),
    db.select().from(shares).where(eq(shares.ownerUserId, user.id)),
  ]);
  return {
    exportedAt: now.toISOString(),
    user: {
      id: user.id,
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar,
      wechatId: user.wechatId,
      companyId: user.companyId,
      role: user.role,
      createdAt: user.createdAt.toISOString(),
    },
    conversations: owned.map((conversation) => ({
      id: conversation.id,
      title: conversation.title,
      source: conversation.source,
      sourceId: conversation.sourceId,
      createdAt: conversation.createdAt.toISOString(),
      messages: (byConversation.get(conversation.id) ?? []).map((message) => ({
        id: message.id,
        role: message.role,
        content: message.content,
        status: message.status,
        parentId: message.parentId,
        files: message.files,
        createdAt: message.createdAt.toISOString(),
      })),
    })),
    uploads: files.map((file) => ({ id: file.id, name: file.name, kind: file.kind, mimeType: file.mimeType, size: file.size, url: `/api/media/file/${file.id}`, createdAt: file.createdAt.toISOString() })),
    shares: links.map((share) => ({ id: share.id, conversationId: share.conversationId, title: share.title, path: `/share/${share.token}`, createdAt: share.createdAt.toISOString() })),
  };
}

/**
 * Deletes the account: its conversations, uploads (their bytes too), shares and sessions go with
 * it. Images used by a task of the company stay, as the company's; the tasks stay the company's.
 */
export async function deleteAccount(services: Pick<Services, 'db' | 'clock' | 'storage' | 'log'>, caller: SignedIn, confirm: string): Promise<void> {
  const { db, clock, storage } = services;
  const { user } = caller;
  if (normalizeUsername(confirm) !== user.username) throw badRequest('Invalid request: confirm: type your account name to delete the account.');
  if (user.role === 'admin') await keepAnAdmin(db, user.id);
  const taskImages = user.companyId
    ? (await db.select({ images: tasks.images }).from(tasks).where(eq(tasks.companyId, user.companyId))).flatMap((task) => task.images.map((image) => image.fileId))
    : [];
  const kept = new Set(taskImages);
  const files = await db.select({ id: uploads.id, storageKey: uploads.storageKey }).from(uploads).where(eq(uploads.ownerUserId, user.id));
  const keptIds = files.filter((file) => kept.has(file.id)).map((file) => file.id);
  await db.transaction(async (tx) => {
    if (keptIds.length) await tx.update(uploads).set({ ownerUserId: null }).where(inArray(uploads.id, keptIds));
    await tx.delete(users).where(eq(users.id, user.id));
  });
  await audit(db, clock.now(), actorOf(caller), 'account.delete', user.id);
  for (const file of files) {
    if (kept.has(file.id)) continue;
    await storage.delete(file.storageKey).catch((error: unknown) => services.log(`account deletion: the file ${file.id} could not be removed: ${(error as Error).message}`));
  }
}
