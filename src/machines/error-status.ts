/** The HTTP status an error carries (an ApiError does), read without importing the client. */
export const statusOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'status' in error ? (error as { status?: number }).status : undefined;
