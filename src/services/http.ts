import { FetchError, ofetch } from 'ofetch';
import { isSuccess, type Envelope } from '../contract/envelope';
import type { EndpointData, EndpointName } from '../contract/endpoints';
import { routes } from '../contract/routes';
import { getToken } from './cookies';
import { httpHooks } from './http-hooks';
import { retryAfterSeconds } from './retry-after';
import { getVisitorId } from './visitor';
import { ApiError } from './api-error';

/** Pages where a failed request is not announced by the generic toast (the page says it itself). */
const QUIET_PAGES = new Set(['/', '/login', '/download']);

export { ApiError };

export { configureHttp, type HttpHooks } from './http-hooks';

/** A 401 met outside `call` (the chat stream): the session has ended, as for any other call. */
export const reportUnauthorized = (description: string): void => {
  httpHooks().onUnauthorized?.(new ApiError(description || 'Unauthorized', { status: 401, description }));
};

export type CallOptions = {
  /** Opt out of the generic failure toast (the caller shows its own message). */
  silent?: boolean;
  signal?: AbortSignal;
  /** Sent even as the page is left (fetch's `keepalive`): a deletion the person already made. */
  keepalive?: boolean;
};

/** The absolute or same-origin address of an API path. */
export const apiUrl = (path: string): string => {
  const { baseURL } = httpHooks();
  return baseURL ? new URL(path, baseURL).href : path;
};

export const authHeaders = (): Record<string, string> => {
  const token = getToken();
  const headers: Record<string, string> = { 'X-Visitor-Id': getVisitorId() };
  if (token) headers.Authorization = `Bearer ${token}`;
  const language = httpHooks().language?.();
  if (language) headers['Accept-Language'] = language;
  return headers;
};

export const client = ofetch.create({
  retry: 0,
  onRequest({ options }) {
    for (const [name, value] of Object.entries(authHeaders())) options.headers.set(name, value);
  },
});

const describeBody = (body: unknown): string => {
  if (body == null) return '';
  if (typeof body === 'string') return body;
  if (typeof body === 'object' && 'msg' in body && typeof (body as { msg: unknown }).msg === 'string') {
    return (body as { msg: string }).msg;
  }
  try {
    return JSON.stringify(body);
  } catch {
    return String(body);
  }
};

/** A gateway in front of the server answers these when the server behind it is down. */
const GATEWAY_DOWN = new Set([502, 503, 504]);

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/**
 * The request got no answer from the server. Its message is the sentence the app gives for it
 * (in the reader's language), never the client's own text ("[POST] …: <no response> Failed to fetch").
 */
const unreachableError = (cause: unknown, status?: number): ApiError => {
  const sentence = httpHooks().unreachableMessage?.() ?? 'The server cannot be reached.';
  return new ApiError(sentence, { status, description: sentence, cause, unreachable: true });
};

const toApiError = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError && !error.response && !isAbort(error.cause)) return unreachableError(error);
  if (error instanceof FetchError && error.status !== undefined && GATEWAY_DOWN.has(error.status) && typeof error.data !== 'object') {
    return unreachableError(error, error.status);
  }
  if (error instanceof FetchError) {
    const body = error.data as Partial<Envelope<unknown>> | string | undefined;
    const description = describeBody(body) || error.statusText || error.message;
    return new ApiError(description, {
      status: error.status,
      code: typeof body === 'object' && body ? body.code : undefined,
      description,
      retryAfterSeconds: retryAfterSeconds(error.response?.headers.get('retry-after')),
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ApiError(message, { cause: error });
};

const report = (error: ApiError, options: CallOptions): void => {
  if (error.cause instanceof DOMException && error.cause.name === 'AbortError') return;
  const hooks = httpHooks();
  if (error.unauthorized) hooks.onUnauthorized?.(error);
  if (error.status === 403) hooks.onForbidden?.(error);
  if (options.silent) return;
  const path = hooks.currentPath?.() ?? (typeof location === 'undefined' ? '/' : location.pathname);
  if (!QUIET_PAGES.has(path)) hooks.onRequestError?.(error);
};

/** Unwraps the envelope: its data on success, an ApiError carrying `msg` otherwise. */
export const unwrap = <T>(body: Envelope<T>, status = 200): T => {
  if (!body || typeof body !== 'object') throw new ApiError('Malformed response', { status, description: String(body) });
  if (!isSuccess(body)) throw new ApiError(body.msg || 'Request failed', { status, code: body.code, description: body.msg });
  return body.data as T;
};

type Input = Record<string, unknown> | FormData | undefined;

/**
 * The answer schemas are a chunk of their own: the first call starts loading them while its
 * request is in flight, so a page that calls nothing (the home page for a visitor) never loads
 * them, and no call waits longer for them than for its own answer.
 */
let contract: Promise<typeof import('../contract/endpoints')> | null = null;
const loadContract = () => {
  contract ??= import('../contract/endpoints').catch((error: unknown) => {
    // Not kept: once the server is back, the next call loads the schemas again.
    contract = null;
    throw unreachableError(error);
  });
  // The call's own failure is the one reported; this one is only awaited on success.
  contract.catch(() => undefined);
  return contract;
};

/**
 * Calls one endpoint of the contract by name: builds the request from the route's method and
 * input location, unwraps the envelope and validates the answer against the contract's schema.
 */
export const call = async <N extends EndpointName>(
  name: N,
  input?: Input,
  options: CallOptions = {},
): Promise<EndpointData<N>> => {
  const route = routes[name];
  const schemas = loadContract();
  try {
    const body = await client<Envelope<unknown>>(route.path, {
      baseURL: httpHooks().baseURL,
      method: route.method,
      signal: options.signal,
      ...(options.keepalive ? { keepalive: true } : {}),
      ...(route.input === 'query' ? { query: input as Record<string, unknown> } : {}),
      ...(route.input === 'body' ? { body: (input ?? {}) as Record<string, unknown> } : {}),
      ...(route.input === 'multipart' ? { body: input as FormData } : {}),
    });
    const data = unwrap(body);
    const checked = (await schemas).checkAnswer(name, data);
    if (!checked.valid) {
      throw new ApiError(`Unexpected answer from ${route.path}`, { description: checked.issues });
    }
    return checked.data as EndpointData<N>;
  } catch (caught) {
    const error = toApiError(caught);
    report(error, options);
    throw error;
  }
};
