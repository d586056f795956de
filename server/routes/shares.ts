import type { Hono } from 'hono';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import { unauthorized } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { shareQuotas } from '../limits/identity-quotas';
import { spendOnce } from '../limits/quotas';
import { createShare, listShares, readShare, revokeShare } from '../services/shares';

/** Sharing needs an account: a visitor's conversations could not be listed or revoked anywhere. */
const signedIn = (caller: Caller) => {
  if (caller.kind !== 'user') throw unauthorized('Sign in to share a conversation.');
  return caller.user;
};

/** Share links: made, listed and revoked by their owner; read by anyone holding the token. */
export function shareRoutes(app: Hono<AppEnv>, services: Services) {
  const { db, clock } = services;
  defineRoute(app, services, 'shareCreate', ({ input, caller }) => {
    const user = signedIn(caller);
    return spendOnce(services.counters, shareQuotas(services.config, { userId: user.id }), clock.now(), () => createShare(db, clock, user, input));
  });
  defineRoute(app, services, 'shareList', ({ input, caller }) => listShares(db, signedIn(caller), input.conversationId));
  defineRoute(app, services, 'shareRevoke', async ({ input, caller }) => {
    await revokeShare(db, signedIn(caller), input.shareId);
    return null;
  });
  defineRoute(app, services, 'sharedConversation', async ({ input, c }) => {
    // A shared page is for the people given the link, not for search engines.
    c.header('X-Robots-Tag', 'noindex, nofollow');
    c.header('Referrer-Policy', 'no-referrer');
    return readShare(db, input.token);
  });
}
