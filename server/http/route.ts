import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { endpoints, type Access, type EndpointData, type EndpointName } from '../../src/contract/endpoints';
import type { Services } from '../deps';
import { resolveCaller, type Caller } from './caller';
import { json, okBody } from './envelope';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { ApiError, badRequest, forbidden, unauthorized } from './errors';
import { refuseNul } from './nul-guard';

export type AppEnv = { Variables: { caller?: Caller } };

type RequestOf<N extends EndpointName> = (typeof endpoints)[N] extends { request: infer S extends v.GenericSchema }
  ? v.InferOutput<S>
  : undefined;

export type Handler<N extends EndpointName> = (ctx: {
  input: RequestOf<N>;
  caller: Caller;
  c: Context<AppEnv>;
}) => Promise<EndpointData<N> | Response>;

/** "username: Invalid length" style text from the first valibot issue. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const path = v.getDotPath(issue);
  return `Invalid request: ${path ? `${path}: ` : ''}${issue.message}`;
}

async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  if (nestsDeeperThan(text)) throw badRequest(`Invalid request: the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('Invalid request: the body is not valid JSON.');
  }
  // valibot's object schema lets arrays through; a request body is always one JSON object.
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Invalid request: the body must be a JSON object.');
  }
  return body;
}

async function readInput(c: Context, name: EndpointName): Promise<unknown> {
  const endpoint = endpoints[name];
  if (!('request' in endpoint)) return undefined;
  const raw = endpoint.input === 'query' ? c.req.query() : await readJson(c);
  refuseNul(raw);
  const result = v.safeParse(endpoint.request, raw);
  if (!result.success) throw badRequest(describeIssues(result.issues));
  return result.output;
}

export const OPERATIONS_FORBIDDEN = 'Your account does not have permission for the operations area. Ask an admin of your organisation.';
export const ADMIN_FORBIDDEN = 'Only an admin may do this.';

/** Whether the caller may operate: an operator or admin of an organisation. */
export const mayOperate = (caller: Caller): caller is Extract<Caller, { kind: 'user' }> =>
  caller.kind === 'user' && caller.user.companyId !== null && (caller.user.role === 'operator' || caller.user.role === 'admin');

/** The route's rule, before its input is even read: 401 for nobody, 403 for the wrong role. */
function checkAccess(access: Access, caller: Caller): void {
  if (access === 'public' || access === 'visitor') return;
  if (caller.kind !== 'user') throw unauthorized();
  if (access === 'operator' && !mayOperate(caller)) throw forbidden(OPERATIONS_FORBIDDEN);
  if (access === 'admin' && caller.user.role !== 'admin') throw forbidden(ADMIN_FORBIDDEN);
}

/**
 * Registers one endpoint of the contract table: its method and path, its access rule, its input
 * validated with the contract's schema, and its answer checked against the contract and enveloped.
 */
export function defineRoute<N extends EndpointName>(app: Hono<AppEnv>, services: Services, name: N, handler: Handler<N>) {
  const endpoint = endpoints[name];
  app.on(endpoint.method, endpoint.path, async (c) => {
    const caller = endpoint.access === 'public' ? ({ kind: 'anonymous' } as const) : await resolveCaller(c, services);
    checkAccess(endpoint.access, caller);
    c.set('caller', caller);
    const input = (await readInput(c, name)) as RequestOf<N>;
    const data = await handler({ input, caller, c });
    if (data instanceof Response) return data;
    if ('response' in endpoint) {
      const checked = v.safeParse(endpoint.response, data);
      if (!checked.success) {
        throw new Error(`${name} answered outside the contract: ${describeIssues(checked.issues)}`);
      }
    }
    return json(c, okBody(data ?? null));
  });
}

export { ApiError };
