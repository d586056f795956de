import { ApiError, badRequest } from '../http/errors';

/** The Google OAuth client this server is registered as (Google Cloud console, "OAuth client ID"). */
export type GoogleConfig = {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** Overridable for tests; Google's endpoints by default. */
  authorizeEndpoint: string;
  tokenEndpoint: string;
  userInfoEndpoint: string;
};

export const GOOGLE_NOT_CONFIGURED = 'Google login is not configured on this server.';
export const GOOGLE_INVALID_CODE = 'The Google authorisation code is invalid or expired. Please sign in with Google again.';
export const GOOGLE_UNREACHABLE = 'Google could not be reached. Please try again in a moment.';

/** Null unless GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI are all set. */
export function googleConfigFromEnv(env: NodeJS.ProcessEnv): GoogleConfig | null {
  const clientId = env.GOOGLE_CLIENT_ID?.trim();
  const clientSecret = env.GOOGLE_CLIENT_SECRET?.trim();
  const redirectUri = env.GOOGLE_REDIRECT_URI?.trim();
  const given = [clientId, clientSecret, redirectUri].filter(Boolean).length;
  if (given === 0) return null;
  if (!clientId || !clientSecret || !redirectUri) {
    throw new Error('Set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REDIRECT_URI together, or none of them.');
  }
  try {
    new URL(redirectUri);
  } catch {
    throw new Error(`GOOGLE_REDIRECT_URI must be an absolute URL, got "${redirectUri}"`);
  }
  return {
    clientId,
    clientSecret,
    redirectUri,
    authorizeEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    userInfoEndpoint: 'https://openidconnect.googleapis.com/v1/userinfo',
  };
}

export type GoogleProfile = { sub: string; email?: string; emailVerified: boolean; name: string; picture: string };

/**
 * The Google OAuth connector: the authorisation URL to send a person to, and the exchange of the
 * code Google sends back for that person's profile (OpenID Connect user info).
 */
export function createGoogleConnector(config: GoogleConfig, fetchImpl: typeof fetch = fetch) {
  return {
    authorizationUrl(state: string): string {
      const url = new URL(config.authorizeEndpoint);
      url.search = new URLSearchParams({
        client_id: config.clientId,
        redirect_uri: config.redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
      }).toString();
      return url.href;
    },
    async profileForCode(code: string): Promise<GoogleProfile> {
      const tokenResponse = await fetchImpl(config.tokenEndpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          code,
          client_id: config.clientId,
          client_secret: config.clientSecret,
          redirect_uri: config.redirectUri,
          grant_type: 'authorization_code',
        }),
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      if (!tokenResponse || tokenResponse.status >= 500) throw new ApiError(502, GOOGLE_UNREACHABLE);
      const grant = (await tokenResponse.json().catch(() => ({}))) as { access_token?: string };
      if (!tokenResponse.ok || !grant.access_token) throw badRequest(GOOGLE_INVALID_CODE);
      const infoResponse = await fetchImpl(config.userInfoEndpoint, {
        headers: { authorization: `Bearer ${grant.access_token}` },
        signal: AbortSignal.timeout(10_000),
      }).catch(() => null);
      const info = infoResponse?.ok ? ((await infoResponse.json().catch(() => null)) as Record<string, unknown> | null) : null;
      if (!info || typeof info.sub !== 'string') throw new ApiError(502, 'Google did not answer who signed in. Please try again.');
      return {
        sub: info.sub,
        ...(typeof info.email === 'string' ? { email: info.email } : {}),
        emailVerified: info.email_verified === true,
        name: typeof info.name === 'string' ? info.name : '',
        picture: typeof info.picture === 'string' ? info.picture : '',
      };
    },
  };
}

export type GoogleConnector = ReturnType<typeof createGoogleConnector>;
