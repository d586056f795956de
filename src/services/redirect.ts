/**
 * Turns an untrusted `redirect_url` into a same-origin path (path + query + hash), or null when
 * it would leave the site. The value is resolved the way the browser would resolve it, so
 * protocol-relative, backslash, tab/newline and scheme tricks are judged by where they really go.
 */
export const toSafeRedirectPath = (value: string | null | undefined, origin: string): string | null => {
  if (!value) return null;
  // Browsers strip ASCII tab and newline from URLs, and treat "\" as "/": judge the same string they would follow.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  let resolved: URL;
  try {
    resolved = new URL(value, origin);
  } catch {
    return null;
  }
  if (resolved.origin !== new URL(origin).origin) return null;
  if (resolved.username || resolved.password) return null;
  const path = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // A path that decodes into control characters or another "//host" could be re-resolved
  // elsewhere by whatever follows it next (a server redirect, a proxy): refuse it outright.
  const decoded = safeDecode(resolved.pathname);
  // eslint-disable-next-line no-control-regex -- see above
  if (/[\u0000-\u001f\u007f]/.test(decoded)) return null;
  if (/^[\\/]{2}/.test(decoded.replace(/\s/g, '')) || path.startsWith('//')) return null;
  return path;
};

const safeDecode = (value: string): string => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

export const OPERATIONS_PREFIX = '/kraken-operation';
/** Where Google returns after its consent page: `GOOGLE_REDIRECT_URI` is this path on the site. */
export const GOOGLE_RETURN_PATH = '/login/google';

/** Where a scan link sends a person: the page that asks before anything is approved. */
export const SCAN_APPROVAL_PATH = '/scan-approval';
export const scanApprovalPath = (scanId: string) => `${SCAN_APPROVAL_PATH}?scanid=${encodeURIComponent(scanId)}`;

/** The login page that comes back to the approval of this scan code. */
export const loginToApprove = (scanId: string) => `/login?redirect_url=${encodeURIComponent(scanApprovalPath(scanId))}`;

export const isOperationsPath = (pathname: string): boolean =>
  pathname === OPERATIONS_PREFIX || pathname.startsWith(`${OPERATIONS_PREFIX}/`);

/**
 * The login page that brings the person back to where they asked to log in (the header's link):
 * the page itself, not the home page, unless they were there or on a login page already.
 */
export const loginReturningTo = (pathname: string, search: string): string =>
  pathname === '/' || pathname === '/login' || pathname.startsWith('/login/') ? '/login' : `/login?redirect_url=${encodeURIComponent(`${pathname}${search}`)}`;

/** Where the operations guard sends someone without a valid session, so login can bring them back. */
export const loginUrlFor = (pathname: string, search: string): string =>
  `/login?source=kraken&redirect_url=${encodeURIComponent(`${pathname}${search}`)}`;

/** The agents market, under the chat's address but the same for everyone. */
const CHAT_MARKET_PATH = '/chat/agents';

/** The address of one stored conversation (`/chat/<id>`), not the agents market under it. */
export const isConversationPath = (pathname: string): boolean =>
  pathname.startsWith('/chat/') && pathname !== CHAT_MARKET_PATH && pathname.length > '/chat/'.length;

/**
 * Pages that show one person's own things: a stored conversation, the account. Signing out leaves
 * them for the home page (the operations area has its own door, which sends to login).
 */
export const isPersonalPath = (pathname: string): boolean => pathname === '/account' || isConversationPath(pathname);
