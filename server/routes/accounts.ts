import type { Hono } from 'hono';
import type { Services } from '../deps';
import { signedIn, visitorIdOf } from '../http/caller';
import { addressLimitKey, clientAddress } from '../http/client-address';
import { defineRoute, type AppEnv } from '../http/route';
import { countAttempt } from '../limits/quotas';
import { acceptInvitation, changePassword, deleteAccount, exportAccount, mailResetLink, previewInvitation, previewReset, resetPassword, signup } from '../services/accounts';
import { preferredLanguage } from '../http/language';
import { signInOriginOf } from '../services/sessions';

/** Accounts one address may make in an hour, and password changes one account may try in 15 minutes. */
export const SIGNUPS_PER_HOUR = 10;
export const PASSWORD_CHANGES_PER_WINDOW = 10;
/** Reset links one address may ask to be mailed in an hour (one account: see mailResetLink). */
export const RESET_MAILS_PER_HOUR = 5;

/** Making, joining, securing and leaving an account. */
export function accountRoutes(app: Hono<AppEnv>, services: Services) {
  const { counters, clock } = services;

  defineRoute(app, services, 'signup', async ({ input, c }) => {
    const address = addressLimitKey(clientAddress(c, services.config.trustProxy));
    await countAttempt(counters, { key: `signup:${address}`, limit: SIGNUPS_PER_HOUR, windowMs: 3600_000 }, 'Too many accounts made from this address.', clock.now());
    return signup(services, input, signInOriginOf(c, services, 'password'), visitorIdOf(c));
  });
  defineRoute(app, services, 'invitationPreview', ({ input }) => previewInvitation(services, input.token));
  defineRoute(app, services, 'invitationAccept', ({ input, caller }) => acceptInvitation(services, signedIn(caller), input.token));

  defineRoute(app, services, 'passwordChange', async ({ input, caller }) => {
    const user = signedIn(caller);
    await countAttempt(
      counters,
      { key: `password-change:${user.user.id}`, limit: PASSWORD_CHANGES_PER_WINDOW, windowMs: 15 * 60_000 },
      'Too many password changes tried.',
      clock.now(),
    );
    return changePassword(services, user, input);
  });
  defineRoute(app, services, 'passwordResetPreview', ({ input }) => previewReset(services, input.token));
  defineRoute(app, services, 'passwordReset', async ({ input }) => {
    await resetPassword(services, input.token, input.newPassword);
    return null;
  });
  defineRoute(app, services, 'passwordResetByMail', async ({ input, c }) => {
    const address = addressLimitKey(clientAddress(c, services.config.trustProxy));
    await countAttempt(counters, { key: `reset-mail:${address}`, limit: RESET_MAILS_PER_HOUR, windowMs: 3600_000 }, 'Too many reset links asked for.', clock.now());
    // Answered at once and the same whether the account exists or not (its sending, when it
    // does, goes on after the answer), so neither the words nor the time tell who has an account.
    void mailResetLink(services, input.username, preferredLanguage(c.req.header('accept-language')) ?? 'zh-CN').catch((error: unknown) =>
      services.log(`mail: a reset link could not be sent: ${(error as Error).message}`),
    );
    return null;
  });

  defineRoute(app, services, 'accountExport', ({ caller }) => exportAccount(services.db, signedIn(caller).user, clock.now()));
  defineRoute(app, services, 'accountDelete', async ({ input, caller }) => {
    await deleteAccount(services, signedIn(caller), input.confirm);
    return null;
  });
}
