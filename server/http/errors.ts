import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** An error whose message is meant for a person, answered as `{code: 1, msg}` with this status. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    /** Answered as Retry-After: when a refused caller may try again. */
    readonly retryAfterSeconds?: number,
    /** Answered as the envelope's `reason`: a fixed word a client can act on (src/contract/studio.ts, models.ts). */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (msg: string) => new ApiError(400, msg);
export const unauthorized = (msg = 'Please log in first.') => new ApiError(401, msg);
/** Signed in, but the account's role does not allow this. */
export const forbidden = (msg = 'Your account does not have permission for this.') => new ApiError(403, msg);
export const gone = (msg: string) => new ApiError(410, msg);
/** Also used for things that exist but belong to someone else, so existence is not revealed. */
export const notFound = (what: string) => new ApiError(404, `${what} not found`);
export const conflict = (msg: string) => new ApiError(409, msg);
export const tooLarge = (msg: string) => new ApiError(413, msg);
/** The server cannot store what it was sent: its disk is full. */
export const insufficientStorage = (msg: string) => new ApiError(507, msg);
export const tooManyRequests = (msg: string, retryAfterSeconds: number) => new ApiError(429, msg, retryAfterSeconds);
/** An error a client may tell apart by its `reason` (the contract's MODEL_ERRORS, STUDIO_ERRORS). */
export const refusedWith = (status: ContentfulStatusCode, reason: string, msg: string) => new ApiError(status, msg, undefined, reason);
