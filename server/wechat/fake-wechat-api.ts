import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pngOf } from '../test/png';

export type FakeWechatUser = { openid: string; unionid?: string; nickname: string; headimgurl: string };

/**
 * A local fake of WeChat's API on 127.0.0.1 for tests, speaking WeChat's wire format: the four
 * calls the server makes, errcode answers, and counters of each call so caching shows.
 */
export async function startFakeWechatApi(options: { appId: string; appSecret: string; miniProgram?: { appId: string; appSecret: string } }) {
  const calls: Record<string, number> = {};
  const codes = new Map<string, FakeWechatUser>();
  /** wx.login() codes of the mini program; `highRisk` users are refused as WeChat does (40226). */
  const miniProgramCodes = new Map<string, { openid: string; unionid?: string; highRisk?: boolean }>();
  const userTokens = new Map<string, FakeWechatUser>();
  let accessToken = '';
  let ticket = '';
  let serial = 0;
  const state = {
    /** The next answers of getticket say the access token is stale (errcode 40001). */
    staleTokenAnswers: 0,
    expiresIn: 7200,
    /** Answer every call with HTTP 500 and no JSON. */
    broken: false,
  };

  const send = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\//, '');
    const q = (name: string) => url.searchParams.get(name) ?? '';
    calls[path] = (calls[path] ?? 0) + 1;
    if (state.broken) {
      res.writeHead(500);
      res.end('oops');
      return;
    }
    switch (path) {
      case 'headimg/132':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(pngOf(8, [7, 193, 96]));
        return;
      case 'cgi-bin/token':
        if (q('grant_type') !== 'client_credential' || q('appid') !== options.appId || q('secret') !== options.appSecret) {
          return send(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        }
        accessToken = `AT${++serial}`;
        return send(res, { access_token: accessToken, expires_in: state.expiresIn });
      case 'cgi-bin/ticket/getticket':
        if (state.staleTokenAnswers > 0) {
          state.staleTokenAnswers -= 1;
          return send(res, { errcode: 40001, errmsg: 'invalid credential, access_token is invalid or not latest' });
        }
        if (q('access_token') !== accessToken || q('type') !== 'jsapi') return send(res, { errcode: 40001, errmsg: 'invalid credential' });
        ticket = `TICKET${++serial}`;
        return send(res, { errcode: 0, errmsg: 'ok', ticket, expires_in: state.expiresIn });
      case 'sns/oauth2/access_token': {
        if (q('appid') !== options.appId || q('secret') !== options.appSecret || q('grant_type') !== 'authorization_code') {
          return send(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        }
        const user = codes.get(q('code'));
        if (!user) return send(res, { errcode: 40029, errmsg: 'invalid code' });
        codes.delete(q('code'));
        const token = `UAT${++serial}`;
        userTokens.set(token, user);
        return send(res, {
          access_token: token,
          expires_in: 7200,
          refresh_token: `RT${serial}`,
          openid: user.openid,
          scope: 'snsapi_userinfo',
          ...(user.unionid ? { unionid: user.unionid } : {}),
        });
      }
      case 'sns/jscode2session': {
        const app = options.miniProgram;
        if (!app || q('appid') !== app.appId || q('secret') !== app.appSecret || q('grant_type') !== 'authorization_code') {
          return send(res, { errcode: 40125, errmsg: 'invalid appsecret' });
        }
        const user = miniProgramCodes.get(q('js_code'));
        if (!user) return send(res, { errcode: 40029, errmsg: 'invalid code' });
        miniProgramCodes.delete(q('js_code'));
        if (user.highRisk) return send(res, { errcode: 40226, errmsg: 'code blocked' });
        return send(res, { openid: user.openid, session_key: `SK${++serial}`, ...(user.unionid ? { unionid: user.unionid } : {}) });
      }
      case 'sns/userinfo': {
        const user = userTokens.get(q('access_token'));
        if (!user || user.openid !== q('openid')) return send(res, { errcode: 40003, errmsg: 'invalid openid' });
        return send(res, { ...user, sex: 0, province: '', city: '', country: '', privilege: [] });
      }
      default:
        res.writeHead(404);
        res.end();
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    state,
    /** A head image this fake serves (a small PNG), as WeChat's headimgurl does. */
    headImageUrl: `http://127.0.0.1:${port}/headimg/132`,
    currentTicket: () => ticket,
    /** What WeChat does when the person taps "allow": a one-time code for them. */
    issueCode(user: FakeWechatUser): string {
      const code = `CODE${++serial}`;
      codes.set(code, user);
      return code;
    },
    /** What wx.login() gives the mini program: a one-time code for this person. */
    issueMiniProgramCode(user: { openid: string; unionid?: string; highRisk?: boolean }): string {
      const code = `JSCODE${++serial}`;
      miniProgramCodes.set(code, user);
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
