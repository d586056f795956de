import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether a given secret is the expected one, in the same time for every guess (both are hashed to one length first). */
export const sameToken = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export const bearerOf = (header: string | undefined) => /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
