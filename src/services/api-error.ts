/** A call that failed: what the server answered (status, envelope code, its words), or that nothing answered. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly code: number | undefined;
  /** What the server answered, as a person may read it: its `msg`, or the raw body. */
  readonly description: string;
  /** For a 429: when the server says to try again (its Retry-After), if it said. */
  readonly retryAfterSeconds: number | undefined;
  /** No answer came: the server is down, the network is gone, or a gateway says the server is. */
  readonly unreachable: boolean;
  constructor(
    message: string,
    options: { status?: number; code?: number; description?: string; retryAfterSeconds?: number; cause?: unknown; unreachable?: boolean },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.description = options.description ?? message;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.unreachable = options.unreachable ?? false;
  }
  get unauthorized(): boolean {
    return this.status === 401;
  }
}
