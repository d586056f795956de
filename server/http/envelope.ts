import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { FAILURE, SUCCESS, type Envelope } from '../../src/contract/envelope';

export const okBody = <T>(data: T): Envelope<T> => ({ code: SUCCESS, msg: 'ok', data, success: true });
export const failBody = (msg: string): Envelope<null> => ({ code: FAILURE, msg, data: null, success: false });

export const fail = (c: Context, status: ContentfulStatusCode, msg: string) => c.json(failBody(msg), status);
