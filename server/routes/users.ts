import type { Hono } from 'hono';
import type { Services } from '../deps';
import { signedIn } from '../http/caller';
import { defineRoute, type AppEnv } from '../http/route';
import { listSessions, revokeOtherSessions, revokeSessionById } from '../services/sessions';
import { describeUser, updateUser } from '../services/users';
import { decideScanTicket, describeScanTicket } from '../wechat/scan-tickets';

/** The signed-in person's own account: details, scan-login approvals and sessions. */
export function userRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'userInfo', ({ caller }) => describeUser(services.db, signedIn(caller).user));
  defineRoute(app, services, 'userUpdate', ({ input, caller }) => updateUser(services.db, services.clock, signedIn(caller).user, input));

  defineRoute(app, services, 'userScanTicket', ({ input, caller }) => describeScanTicket(services, signedIn(caller).user, input.scanid));
  defineRoute(app, services, 'userUpdateScanId', async ({ input, caller }) => {
    await decideScanTicket(services, signedIn(caller), input.scanid, 'confirmed');
    return null;
  });
  defineRoute(app, services, 'userDenyScanId', async ({ input, caller }) => {
    await decideScanTicket(services, signedIn(caller), input.scanid, 'denied');
    return null;
  });

  defineRoute(app, services, 'sessionList', ({ caller }) => {
    const { user, sessionId } = signedIn(caller);
    return listSessions(services, user.id, sessionId);
  });
  defineRoute(app, services, 'sessionRevoke', async ({ input, caller }) => {
    await revokeSessionById(services, signedIn(caller).user.id, input.id);
    return null;
  });
  defineRoute(app, services, 'sessionRevokeOthers', async ({ caller }) => {
    const { user, sessionId } = signedIn(caller);
    return { revoked: await revokeOtherSessions(services, user.id, sessionId) };
  });
}
