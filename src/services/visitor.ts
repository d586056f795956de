import { VISITOR_COOKIE } from '../contract/cookie';

const VISITOR_KEY = 'ai-chat-ops:visitor-id';
/** Only the file route reads the cookie: no other request carries it. */
const COOKIE_PATH = '/api/media/file';

let cookieFor: string | null = null;

/** The id as a cookie too, so <img> and links can fetch the visitor's own files (they send no headers). */
function keepCookie(id: string): void {
  if (cookieFor === id || typeof document === 'undefined') return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${VISITOR_COOKIE}=${id}; Path=${COOKIE_PATH}; Max-Age=${400 * 24 * 3600}; SameSite=Lax${secure}`;
  cookieFor = id;
}

/**
 * A visitor who is not logged in still owns their conversations: a random id kept in this
 * browser and sent as `X-Visitor-Id`. Logging in hands those conversations to the account.
 */
export const getVisitorId = (): string => {
  try {
    const saved = localStorage.getItem(VISITOR_KEY);
    if (saved && /^[0-9a-f-]{36}$/.test(saved)) {
      keepCookie(saved);
      return saved;
    }
    const fresh = crypto.randomUUID();
    localStorage.setItem(VISITOR_KEY, fresh);
    keepCookie(fresh);
    return fresh;
  } catch {
    return crypto.randomUUID();
  }
};

/** After logout the old visitor's conversations belong to the account: start a new visitor. */
export const resetVisitorId = (): void => {
  try {
    localStorage.removeItem(VISITOR_KEY);
  } catch {
    // nothing stored, nothing to forget
  }
  if (typeof document !== 'undefined') document.cookie = `${VISITOR_COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; SameSite=Lax`;
  cookieFor = null;
};
