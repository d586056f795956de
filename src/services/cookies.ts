import { TOKEN_COOKIE } from '../contract/cookie';

const readCookie = (name: string): string | null => {
  const prefix = `${name}=`;
  for (const part of document.cookie.split(';')) {
    const item = part.trim();
    if (item.startsWith(prefix)) return decodeURIComponent(item.slice(prefix.length));
  }
  return null;
};

export const getToken = (): string | null => readCookie(TOKEN_COOKIE) || null;

/** The token lives in a first-party cookie; the API itself only ever trusts the Authorization header. */
export const setToken = (token: string, maxAgeSeconds = 7 * 24 * 3600): void => {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
};

export const clearToken = (): void => {
  document.cookie = `${TOKEN_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
};
