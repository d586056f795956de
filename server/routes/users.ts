import type { Hono } from 'hono';
import type { Services } from '../deps';
import type { Caller, UserRow } from '../http/caller';
import { unauthorized } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { confirmScanTicket, toUserInfo, updateUser } from '../services/users';

const userOf = (caller: Caller): UserRow => {
  if (caller.kind !== 'user') throw unauthorized();
  return caller.user;
};

export function userRoutes(app: Hono<AppEnv>, services: Services) {
  defineRoute(app, services, 'userInfo', async ({ caller }) => toUserInfo(userOf(caller)));
  defineRoute(app, services, 'userUpdate', ({ input, caller }) => updateUser(services.db, services.clock, userOf(caller), input));
  defineRoute(app, services, 'userUpdateScanId', async ({ input, caller }) => {
    await confirmScanTicket(services.db, services.clock, userOf(caller), input.scanid);
    return null;
  });
}
