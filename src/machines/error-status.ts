/** The HTTP status an error carries (an ApiError does), read without importing the client. */
export const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error ? (error as { status?: number }).status : undefined;

/** Whether a call got no answer from the server (an ApiError marks it), read without importing the client. */
export const isUnreachable = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && 'unreachable' in error && (error as { unreachable?: unknown }).unreachable === true;
