import type { Clock } from '../config';
import type { Db } from '../db/client';
import { sharedToken, type FreshToken } from '../db/shared-token';
import { ApiError } from '../http/errors';
import {
  HIGH_RISK_MSG,
  INVALID_CODE_MSG,
  INVALID_MINIPROGRAM_CODE_MSG,
  WECHAT_UNREACHABLE_MSG,
  type MiniProgramLogin,
  type WechatProfile,
  type WechatProvider,
} from './provider';
import type { MiniProgramCredentials } from './settings';
import { WECHAT_AUTHORIZE_URL } from './settings';

type Credentials = { appId: string; appSecret: string; apiBase: string; miniProgram?: MiniProgramCredentials };
type WechatAnswer = { errcode?: number; errmsg?: string } & Record<string, unknown>;

/** Codes WeChat answers for an authorisation code that is wrong, expired or used. */
const BAD_CODE_ERRCODES = new Set([40029, 40163, 41008, 40030]);
/** Codes WeChat answers when the access token it was given is no longer valid. */
const STALE_TOKEN_ERRCODES = new Set([40001, 40014, 42001]);
/** What code2session answers for a user WeChat has blocked as high-risk. */
const HIGH_RISK_ERRCODE = 40226;
/** Renew cached tokens this long before WeChat says they expire. */
const EXPIRY_MARGIN_MS = 5 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 10_000;

class WechatRefusal extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    super(`WeChat answered errcode ${errcode}: ${errmsg}`);
  }
}

/**
 * WeChat's real API (official account): the access token and the jsapi ticket are kept in the
 * database until shortly before they expire, shared by every instance (WeChat limits how often
 * they may be fetched and keeps only the newest token), and fetched by one instance at a time.
 * The app secret travels only in the query of calls to WeChat and is never logged.
 */
export function createOfficialApi(
  credentials: Credentials,
  options: { db: Db; clock: Clock; log: (line: string) => void; fetch?: typeof fetch },
): WechatProvider {
  const fetchImpl = options.fetch ?? fetch;

  async function request(path: string, query: Record<string, string>): Promise<WechatAnswer> {
    const url = `${credentials.apiBase}/${path}?${new URLSearchParams(query)}`;
    let response: Response;
    try {
      response = await fetchImpl(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (error) {
      options.log(`wechat: ${path} failed: ${error instanceof Error ? error.message : error}`);
      throw new ApiError(502, WECHAT_UNREACHABLE_MSG);
    }
    let body: WechatAnswer;
    try {
      body = (await response.json()) as WechatAnswer;
    } catch {
      options.log(`wechat: ${path} answered HTTP ${response.status} without JSON`);
      throw new ApiError(502, WECHAT_UNREACHABLE_MSG);
    }
    if (typeof body.errcode === 'number' && body.errcode !== 0) throw new WechatRefusal(body.errcode, String(body.errmsg ?? ''));
    if (!response.ok) {
      options.log(`wechat: ${path} answered HTTP ${response.status}`);
      throw new ApiError(502, WECHAT_UNREACHABLE_MSG);
    }
    return body;
  }

  const refused = (error: unknown): never => {
    if (error instanceof WechatRefusal) {
      options.log(`wechat: ${error.message}`);
      throw new ApiError(502, `WeChat refused the request (errcode ${error.errcode}). Please try again later.`);
    }
    throw error;
  };

  const stringField = (body: WechatAnswer, name: string): string => {
    const value = body[name];
    if (typeof value !== 'string' || value === '') {
      options.log(`wechat: answer without ${name}`);
      throw new ApiError(502, WECHAT_UNREACHABLE_MSG);
    }
    return value;
  };
  const expiresIn = (body: WechatAnswer) => (typeof body.expires_in === 'number' ? body.expires_in : 7200);

  const tokens = sharedToken(options.db, options.clock, `wechat:${credentials.appId}:access-token`, { expiryMarginMs: EXPIRY_MARGIN_MS });
  const tickets = sharedToken(options.db, options.clock, `wechat:${credentials.appId}:jsapi-ticket`, { expiryMarginMs: EXPIRY_MARGIN_MS });
  // Callers of this process wait for one refresh; other instances wait on the database's lock.
  const refreshing = new Map<string, Promise<string>>();
  const once = (key: string, refresh: () => Promise<string>): Promise<string> => {
    let pending = refreshing.get(key);
    if (!pending) {
      pending = refresh().finally(() => refreshing.delete(key));
      refreshing.set(key, pending);
    }
    return pending;
  };

  const fetchToken = async (): Promise<FreshToken> => {
    const body = await request('cgi-bin/token', {
      grant_type: 'client_credential',
      appid: credentials.appId,
      secret: credentials.appSecret,
    }).catch(refused);
    return { value: stringField(body, 'access_token'), expiresInSeconds: expiresIn(body) };
  };
  /** The shared access token; with `stale`, a new one unless another instance replaced `stale` already. */
  const accessToken = async (stale?: string): Promise<string> => {
    if (stale === undefined) {
      const stored = await tokens.read();
      if (stored) return stored;
    }
    return once(`token:${stale ?? ''}`, () => tokens.refresh(fetchToken, stale));
  };

  const fetchTicketWith = (token: string) => async (): Promise<FreshToken> => {
    const body = await request('cgi-bin/ticket/getticket', { access_token: token, type: 'jsapi' });
    return { value: stringField(body, 'ticket'), expiresInSeconds: expiresIn(body) };
  };
  const jsapiTicket = async (): Promise<string> => {
    const stored = await tickets.read();
    if (stored) return stored;
    return once('ticket', async () => {
      // The token is obtained before the ticket's lock is taken: a fetch under a lock never
      // waits for another lock, and on the embedded database never for its only connection.
      const token = await accessToken();
      try {
        return await tickets.refresh(fetchTicketWith(token));
      } catch (error) {
        // The stored token may have been replaced at WeChat by something else than this server.
        if (!(error instanceof WechatRefusal) || !STALE_TOKEN_ERRCODES.has(error.errcode)) return refused(error);
        const renewed = await accessToken(token);
        return tickets.refresh(fetchTicketWith(renewed)).catch(refused);
      }
    });
  };

  const unionidOf = (...answers: WechatAnswer[]): string | undefined =>
    answers.map((answer) => answer.unionid).find((value): value is string => typeof value === 'string' && value !== '');

  /** code2session: the session key it also answers stays here, never stored or logged. */
  const miniProgram = (app: MiniProgramCredentials): MiniProgramLogin => ({
    appId: app.appId,
    async profileForCode(code: string): Promise<WechatProfile> {
      try {
        const session = await request('sns/jscode2session', { appid: app.appId, secret: app.appSecret, js_code: code, grant_type: 'authorization_code' });
        const unionid = unionidOf(session);
        return { openid: stringField(session, 'openid'), ...(unionid ? { unionid } : {}), nickname: '', avatar: '' };
      } catch (error) {
        if (error instanceof WechatRefusal && BAD_CODE_ERRCODES.has(error.errcode)) throw new ApiError(400, INVALID_MINIPROGRAM_CODE_MSG);
        if (error instanceof WechatRefusal && error.errcode === HIGH_RISK_ERRCODE) throw new ApiError(403, HIGH_RISK_MSG);
        return refused(error);
      }
    },
  });

  return {
    kind: 'official',
    miniProgram: credentials.miniProgram ? miniProgram(credentials.miniProgram) : null,
    appId: credentials.appId,
    authorizeUrl: WECHAT_AUTHORIZE_URL,
    jsapiTicket,
    async profileForCode(code: string): Promise<WechatProfile> {
      try {
        const grant = await request('sns/oauth2/access_token', {
          appid: credentials.appId,
          secret: credentials.appSecret,
          code,
          grant_type: 'authorization_code',
        });
        const openid = stringField(grant, 'openid');
        const info = await request('sns/userinfo', { access_token: stringField(grant, 'access_token'), openid, lang: 'zh_CN' });
        const unionid = unionidOf(info, grant);
        return {
          openid,
          ...(unionid ? { unionid } : {}),
          nickname: typeof info.nickname === 'string' ? info.nickname : '',
          avatar: typeof info.headimgurl === 'string' ? info.headimgurl : '',
        };
      } catch (error) {
        if (error instanceof WechatRefusal && BAD_CODE_ERRCODES.has(error.errcode)) throw new ApiError(400, INVALID_CODE_MSG);
        return refused(error);
      }
    },
  };
}
