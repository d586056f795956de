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
};

export const isSuccess = (body: { code?: unknown; success?: unknown }): boolean =>
  body.code === SUCCESS || (body.code === undefined && body.success === true);
