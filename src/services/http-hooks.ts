import type { ApiError } from './api-error';

/**
 * How the HTTP client reports to the running app. Kept apart from the client itself, so the app
 * can wire it at start without loading the client before its first call.
 */
export type HttpHooks = {
  /** Where the API lives when it is not this page's origin (default: same origin). */
  baseURL?: string;
  /** A failed request on a non-quiet page: show it (the app shows a toast in the person's words). */
  onRequestError?: (error: ApiError) => void;
  /** The server refused the token (HTTP 401). */
  onUnauthorized?: (error: ApiError) => void;
  /** The server knows the person and refused what they asked (HTTP 403): their role may have changed. */
  onForbidden?: (error: ApiError) => void;
  /** The sentence for a request the server never answered, in the reader's language. */
  unreachableMessage?: () => string;
  /** The current page's path, to decide whether a failure is announced. */
  currentPath?: () => string;
  /** The language the person reads the product in, sent as Accept-Language (answers the server writes follow it). */
  language?: () => string | undefined;
};

let hooks: HttpHooks = {};

/** Wires the client to the running app; tests set their own hooks. */
export const configureHttp = (next: HttpHooks): void => {
  hooks = next;
};

export const httpHooks = (): HttpHooks => hooks;
