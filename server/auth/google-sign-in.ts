import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { GoogleAuthorization, LoginResult } from '../../src/contract/auth';
import type { Db } from '../db/client';
import { googleIdentities, oauthStates, users } from '../db/schema';
import type { Services } from '../deps';
import type { UserRow } from '../http/caller';
import { badRequest } from '../http/errors';
import { finishLogin, normalizeUsername } from '../services/auth';
import type { SignInOrigin } from '../services/sessions';
import { importAvatar } from '../services/avatar-import';
import { nicknameFromProvider } from '../services/users';
import type { GoogleConnector, GoogleProfile } from './google';
import { hashToken } from './tokens';

/** How long a person has on Google's page before the sign-in must be started again. */
export const GOOGLE_STATE_TTL_MS = 10 * 60 * 1000;
export const GOOGLE_STATE_USED = 'This Google sign-in has expired or was already used. Please start again.';
/** Accounts made by Google sign-in have no password: no scrypt hash, so no password ever matches. */
const NO_PASSWORD = '!google';

/** Issues a one-time state and answers Google's authorisation page carrying it. */
export async function startGoogleSignIn(services: Pick<Services, 'db' | 'clock'>, google: GoogleConnector): Promise<GoogleAuthorization> {
  const now = services.clock.now();
  const state = randomBytes(24).toString('base64url');
  await services.db.delete(oauthStates).where(lt(oauthStates.expiresAt, now));
  await services.db.insert(oauthStates).values({
    stateHash: hashToken(state),
    provider: 'google',
    createdAt: now,
    expiresAt: new Date(now.getTime() + GOOGLE_STATE_TTL_MS),
  });
  return { url: google.authorizationUrl(state), state };
}

/** Uses up a state this server issued; false when it is unknown, expired or already used. */
async function consumeState(db: Db, state: string, now: Date): Promise<boolean> {
  const used = await db
    .delete(oauthStates)
    .where(and(eq(oauthStates.stateHash, hashToken(state)), eq(oauthStates.provider, 'google'), gt(oauthStates.expiresAt, now)))
    .returning({ stateHash: oauthStates.stateHash });
  return used.length === 1;
}

async function linkedUser(db: Db, sub: string): Promise<UserRow | undefined> {
  const [linked] = await db
    .select({ user: users })
    .from(googleIdentities)
    .innerJoin(users, eq(users.id, googleIdentities.userId))
    .where(eq(googleIdentities.sub, sub))
    .limit(1);
  return linked?.user;
}

/**
 * The account a Google user signs in as: the one linked to their Google subject id; else the
 * account whose username is the e-mail address Google has verified for them (accounts are made by
 * operators, never by self-service sign-up, so nobody can claim someone else's address first, see
 * docs/decisions/007); else a new account with Google's name and picture.
 */
export async function userForGoogleProfile(services: Pick<Services, 'db' | 'clock'>, profile: GoogleProfile): Promise<UserRow> {
  const { db } = services;
  const now = services.clock.now();
  const link = { sub: profile.sub, email: profile.email ?? null, name: profile.name, picture: profile.picture, createdAt: now, updatedAt: now };
  const known = await linkedUser(db, profile.sub);
  if (known) {
    await db.update(googleIdentities).set({ email: link.email, name: link.name, picture: link.picture, updatedAt: now }).where(eq(googleIdentities.sub, profile.sub));
    return known;
  }
  try {
    return await db.transaction(async (tx) => {
      const [byEmail] =
        profile.email && profile.emailVerified
          ? await tx.select().from(users).where(eq(users.username, normalizeUsername(profile.email))).limit(1)
          : [];
      const user =
        byEmail ??
        (
          await tx
            .insert(users)
            .values({
              id: randomUUID(),
              username: `google-${profile.sub}`,
              passwordHash: NO_PASSWORD,
              nickname: nicknameFromProvider(profile.name),
              avatar: profile.picture,
              createdAt: now,
              updatedAt: now,
            })
            .returning()
        )[0]!;
      await tx.insert(googleIdentities).values({ ...link, userId: user.id });
      return user;
    });
  } catch (error) {
    // Two first sign-ins of the same person at once: the other one linked the account.
    const raced = await linkedUser(db, profile.sub);
    if (raced) return raced;
    throw error;
  }
}

/** Finishes a Google sign-in: the state must be one this server issued, then the code is exchanged. */
export async function googleLogin(
  services: Services,
  google: GoogleConnector,
  input: { code: string; state: string; visitorId?: string; origin: SignInOrigin },
): Promise<LoginResult> {
  if (!(await consumeState(services.db, input.state, services.clock.now()))) throw badRequest(GOOGLE_STATE_USED);
  const profile = await google.profileForCode(input.code);
  const user = await importAvatar(services, await userForGoogleProfile(services, profile), { provider: 'google', url: profile.picture });
  return finishLogin(services, user, input.visitorId, input.origin);
}
