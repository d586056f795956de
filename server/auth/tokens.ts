import { createHash, randomBytes } from 'node:crypto';

/** An opaque session token: 32 random bytes, base64url. Only its hash is stored. */
export const newToken = () => randomBytes(32).toString('base64url');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
