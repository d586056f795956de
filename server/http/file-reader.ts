import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { TOKEN_COOKIE, VISITOR_COOKIE } from '../../src/contract/cookie';
import type { Services } from '../deps';
import { callerOfToken, resolveCaller, VISITOR_ID } from './caller';

/** Who asks for a file: an account (and its organisation), a visitor, both, or neither. */
export type FileReader = { userId: string | null; companyId: string | null; visitorId: string | null };

const TOKEN = /^[A-Za-z0-9_-]{20,200}$/;

/**
 * The reader of a file, from the headers an API client sends or, since <img>, <audio> and links
 * cannot send headers, from the SPA's own cookies: its session token and its visitor id. The
 * cookies are SameSite=Lax, so another site's page cannot fetch a file with them; and they only
 * ever let someone read what they could already read through the API.
 */
export async function fileReaderOf(c: Context, services: Services): Promise<FileReader> {
  const caller = await resolveCaller(c, services);
  if (caller.kind === 'user') return { userId: caller.user.id, companyId: caller.user.companyId, visitorId: null };
  const token = getCookie(c, TOKEN_COOKIE);
  const user = token && TOKEN.test(token) ? await callerOfToken(services, token).catch(() => null) : null;
  const cookieVisitor = getCookie(c, VISITOR_COOKIE);
  const visitorId = caller.kind === 'visitor' ? caller.visitorId : cookieVisitor && VISITOR_ID.test(cookieVisitor) ? cookieVisitor : null;
  return { userId: user?.user.id ?? null, companyId: user?.user.companyId ?? null, visitorId };
}
