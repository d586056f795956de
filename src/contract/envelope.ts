/**
 * Every JSON answer of the API is wrapped in this envelope: `code` 0 is success, 1 is an error
 * whose `msg` is meant for a person. `success` mirrors `code === 0` for clients that read it.
 */
export const SUCCESS = 0;
export const FAILURE = 1;

export type Envelope<T> = {
  code: number;
  msg: string;
  data?: T | null;
  success?: boolean;
  /**
   * On some errors, what went wrong as a fixed word a client can act on (`MODEL_IN_USE`, ...):
   * the codes are listed where their calls are (`src/contract/studio.ts`, `models.ts`). Absent
   * on most errors, whose `msg` and status say enough.
   */
  reason?: string;
};

export const isSuccess = (body: { code?: unknown; success?: unknown }): boolean =>
  body.code === SUCCESS || (body.code === undefined && body.success === true);
