import { http, HttpResponse, type HttpHandler } from 'msw';
import * as v from 'valibot';
import { endpoints, type EndpointData, type EndpointName } from '../../src/contract/endpoints';
import type { Page } from '../../src/contract/paging';
import { mayAdminister, mayOperate } from '../../src/contract/users';
import { db, publicUser, userOwner, visitorOwner } from './db';

/**
 * The fake API's plumbing, shared by its handler files: a handler per endpoint at the contract's
 * path, its input checked with the contract's request schema, its caller and role checked as the
 * route's `access` says, and every answer checked with the response schema, so the fake can only
 * say what the real server may say.
 */

export class FakeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const failBody = (msg: string) => ({ code: 1, msg, data: null, success: false });
export const fail = (status: number, msg: string) => HttpResponse.json(failBody(msg), { status });

export const ok = <N extends EndpointName>(name: N, data: EndpointData<N>) => {
  const endpoint = endpoints[name];
  // A fake that drifts from the contract would make the tests lie: refuse loudly.
  if ('response' in endpoint) v.parse(endpoint.response as v.GenericSchema, data);
  return HttpResponse.json({ code: 0, msg: 'ok', data: data ?? null, success: true });
};

export type Caller =
  | { kind: 'user'; userId: string; owner: string; token: string }
  | { kind: 'visitor'; owner: string }
  | { kind: 'anonymous' };

export const callerOf = (request: Request): Caller => {
  const header = request.headers.get('authorization');
  if (header) {
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const userId = token ? db.sessions.get(token) : undefined;
    if (!userId || !db.users.has(userId)) throw new FakeApiError(401, 'Your session has expired or was ended. Please log in again.');
    return { kind: 'user', userId, owner: userOwner(userId), token: token! };
  }
  const visitorId = request.headers.get('x-visitor-id');
  return visitorId ? { kind: 'visitor', owner: visitorOwner(visitorId) } : { kind: 'anonymous' };
};

export const ownerOf = (caller: Caller): string => {
  if (caller.kind === 'anonymous') throw new FakeApiError(401, 'Please log in first.');
  return caller.owner;
};

export const readInput = async (name: EndpointName, request: Request): Promise<unknown> => {
  const endpoint = endpoints[name];
  if (!('request' in endpoint)) return undefined;
  const raw =
    endpoint.input === 'query'
      ? Object.fromEntries(new URL(request.url).searchParams)
      : await request.text().then((text) => (text ? (JSON.parse(text) as unknown) : {}));
  const parsed = v.safeParse(endpoint.request as v.GenericSchema, raw);
  if (!parsed.success) throw new FakeApiError(400, `Invalid request: ${parsed.issues[0]?.message ?? ''}`);
  return parsed.output;
};

export type RequestOf<N extends EndpointName> = (typeof endpoints)[N] extends { request: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : undefined;

export type Resolver<N extends EndpointName> = (ctx: {
  input: RequestOf<N>;
  caller: Caller;
  request: Request;
}) => Promise<Response> | Response;

export const route = <N extends EndpointName>(name: N, resolve: Resolver<N>): HttpHandler => {
  const endpoint = endpoints[name];
  const method = endpoint.method === 'GET' ? http.get : http.post;
  return method(endpoint.path, async ({ request }) => {
    try {
      const caller = endpoint.access === 'public' ? ({ kind: 'anonymous' } as const) : callerOf(request);
      if (endpoint.access !== 'public' && endpoint.access !== 'visitor' && caller.kind !== 'user') throw new FakeApiError(401, 'Please log in first.');
      if (endpoint.access === 'operator' || endpoint.access === 'admin') {
        const user = caller.kind === 'user' ? db.users.get(caller.userId) : undefined;
        const allowed = user !== undefined && (endpoint.access === 'operator' ? mayOperate(user) : mayAdminister(user));
        if (!allowed) throw new FakeApiError(403, endpoint.access === 'operator' ? 'This is for the operators of an organisation.' : 'This is for admins.');
      }
      const input = (endpoint.input === 'multipart' ? undefined : await readInput(name, request)) as RequestOf<N>;
      return await resolve({ input, caller, request });
    } catch (error) {
      if (error instanceof FakeApiError) return fail(error.status, error.message);
      throw error;
    }
  });
};

export const page = <T>(items: T[], current: number, pageSize: number): Page<T> => ({
  list: items.slice((current - 1) * pageSize, current * pageSize),
  total: items.length,
  current,
  pageSize,
});


export const requireUser = (caller: Caller) => {
  if (caller.kind !== 'user') throw new FakeApiError(401, 'Please log in first.');
  const user = publicUser(caller.userId);
  if (!user) throw new FakeApiError(401, 'Please log in first.');
  return user;
};
