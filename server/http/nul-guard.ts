import type { MiddlewareHandler } from 'hono';
import { badRequest } from './errors';

/**
 * PostgreSQL cannot store U+0000 in text, so a NUL anywhere in the input used to end in a 500.
 * Refused at the edge instead, naming where it was.
 */
const nulIn = (where: string) => badRequest(`Invalid request: ${where}: must not contain the NUL character (U+0000).`);

/** The dot path of the first string holding a NUL in a parsed JSON value, or null. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\0') ? path || 'body' : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return path || 'body';
    const found = findNul(item, path ? `${path}.${key}` : key);
    if (found) return found;
  }
  return null;
}

/** Throws a 400 naming the field when a JSON body or a query holds a NUL. */
export function refuseNul(value: unknown): void {
  const where = findNul(value);
  if (where) throw nulIn(where);
}

/** The path and every query parameter of a request: for all routes, those of the contract or not. */
export const nulGuard: MiddlewareHandler = async (c, next) => {
  const url = new URL(c.req.url);
  if (/%00/i.test(url.pathname) || url.pathname.includes('\0')) throw nulIn('the path');
  for (const [name, value] of url.searchParams) {
    if (name.includes('\0') || value.includes('\0')) throw nulIn(name.replace(/\0/g, '') || 'query');
  }
  await next();
};
