import { WECHAT_AUTHORIZE_URL } from '../contract/constants';
import { miniProgramEnv, type Environment } from './env';
import { toSafeRedirectPath } from './redirect';

/** The query parameters WeChat's authorisation adds when it sends a person back. */
export const OAUTH_RETURN_PARAMS = ['code', 'state'] as const;

/** A page address as a same-origin path (path, query, fragment) without the named parameters. */
export const pathWithout = (href: string, names: readonly string[]): string => {
  const url = new URL(href);
  for (const name of names) url.searchParams.delete(name);
  return `${url.pathname}${url.search}${url.hash}`;
};

/** The page URL the JS-SDK config is signed for: the address without its fragment. */
export const pageUrlForSignature = (href: string): string => href.split('#')[0]!;

/**
 * WeChat's authorisation URL for this page (scope: user info). The parameters go in WeChat's own
 * order and `#wechat_redirect` ends it, as WeChat requires. `authorizeUrl` (from the server's
 * config) may be WeChat's page or a simulator's consent page on this site; anything else falls
 * back to WeChat's page.
 */
export const authorizationUrl = (input: { appId: string; authorizeUrl?: string; href: string; state: string }): string => {
  const current = new URL(input.href);
  const base = trustedAuthorizeBase(input.authorizeUrl, current.origin);
  const redirectUri = new URL(input.href);
  for (const name of OAUTH_RETURN_PARAMS) redirectUri.searchParams.delete(name);
  redirectUri.hash = '';
  return (
    `${base}?appid=${encodeURIComponent(input.appId)}&redirect_uri=${encodeURIComponent(redirectUri.href)}` +
    `&response_type=code&scope=snsapi_userinfo&state=${encodeURIComponent(input.state)}#wechat_redirect`
  );
};

const trustedAuthorizeBase = (value: string | undefined, origin: string): string => {
  if (!value) return WECHAT_AUTHORIZE_URL;
  try {
    const url = new URL(value, origin);
    const sameSite = url.origin === origin;
    const wechat = url.protocol === 'https:' && url.hostname === 'open.weixin.qq.com';
    return sameSite || wechat ? `${url.origin}${url.pathname}` : WECHAT_AUTHORIZE_URL;
  } catch {
    return WECHAT_AUTHORIZE_URL;
  }
};

/** Where to be once WeChat signed someone in: the same page without code and state, or, from the login page, where it was asked to go. */
export const addressAfterWechatSignIn = (href: string): string => {
  const url = new URL(href);
  if (url.pathname === '/login') return toSafeRedirectPath(url.searchParams.get('redirect_url'), url.origin) ?? '/';
  return pathWithout(href, OAUTH_RETURN_PARAMS);
};

/** A WeChat mini program that can confirm scan logins (its page reads the `scanid` query). */
export type MiniProgram = { appId: string; path: string };

/**
 * What the scan-login QR code holds: the mini program's deep link (release, trial or develop
 * build by environment) when there is one, else this site's entry page with `?scanid=`.
 */
export const scanLoginLink = (input: { origin: string; scanId: string; environment: Environment; miniProgram: MiniProgram | null }): string => {
  if (input.miniProgram) {
    const query = encodeURIComponent(`scanid=${input.scanId}`);
    return (
      `weixin://dl/business/?appid=${encodeURIComponent(input.miniProgram.appId)}&path=${encodeURIComponent(input.miniProgram.path)}` +
      `&query=${query}&env_version=${miniProgramEnv(input.environment)}`
    );
  }
  return `${input.origin}/?scanid=${encodeURIComponent(input.scanId)}`;
};
