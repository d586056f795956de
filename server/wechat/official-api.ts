import type { Clock } from '../config';
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
type Cached = { value: string; expiresAt: number };
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
 * WeChat's real API (official account): the access token and the jsapi ticket are cached until
 * shortly before they expire (WeChat limits how often they may be fetched), and concurrent
 * requests share one fetch. The app secret travels only in the query of calls to WeChat and is
 * never logged.
 */
export function createOfficialApi(
  credentials: Credentials,
  options: { clock: Clock; log: (line: string) => void; fetch?: typeof fetch },
): WechatProvider {
  const fetchImpl = options.fetch ?? fetch;
  const now = () => options.clock.now().getTime();

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

  /** A value cached until its expiry, fetched once however many callers wait for it. */
  function cachedValue(fetchFresh: () => Promise<{ value: string; expiresInSeconds: number }>) {
    let cached: Cached | null = null;
    let pending: Promise<string> | null = null;
    return {
      get(): Promise<string> {
        if (cached && now() < cached.expiresAt) return Promise.resolve(cached.value);
        pending ??= fetchFresh()
          .then(({ value, expiresInSeconds }) => {
            cached = { value, expiresAt: now() + Math.max(0, expiresInSeconds * 1000 - EXPIRY_MARGIN_MS) };
            return value;
          })
          .finally(() => {
            pending = null;
          });
        return pending;
      },
      forget() {
        cached = null;
      },
    };
  }

  const stringField = (body: WechatAnswer, name: string): string => {
    const value = body[name];
    if (typeof value !== 'string' || value === '') {
      options.log(`wechat: answer without ${name}`);
      throw new ApiError(502, WECHAT_UNREACHABLE_MSG);
    }
    return value;
  };
  const expiresIn = (body: WechatAnswer) => (typeof body.expires_in === 'number' ? body.expires_in : 7200);

  const accessToken = cachedValue(async () => {
    const body = await request('cgi-bin/token', {
      grant_type: 'client_credential',
      appid: credentials.appId,
      secret: credentials.appSecret,
    }).catch(refused);
    return { value: stringField(body, 'access_token'), expiresInSeconds: expiresIn(body) };
  });

  const fetchTicket = async () => {
    const body = await request('cgi-bin/ticket/getticket', { access_token: await accessToken.get(), type: 'jsapi' });
    return { value: stringField(body, 'ticket'), expiresInSeconds: expiresIn(body) };
  };
  const ticket = cachedValue(async () => {
    try {
      return await fetchTicket();
    } catch (error) {
      // The cached access token may have been replaced elsewhere (WeChat keeps only the newest).
      if (!(error instanceof WechatRefusal) || !STALE_TOKEN_ERRCODES.has(error.errcode)) return refused(error);
      accessToken.forget();
      return fetchTicket().catch(refused);
    }
  });

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
    jsapiTicket: () => ticket.get(),
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
