import { randomInt } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { escapeHtml } from '../http/escape-html';
import { preferredLanguage } from '../http/language';
import type { AppEnv } from '../http/route';
import { CONSENT_WORDS, type ConsentWords } from './consent-words';
import { SIMULATOR_APP_ID, SIMULATOR_AUTHORIZE_PATH, type WechatSimulator } from './simulator';

const SCOPES = new Set(['snsapi_userinfo', 'snsapi_base']);
const STATE = /^[A-Za-z0-9._~-]{0,128}$/;
const NAME_MAX = 32;
/** A development server (Vite on another port) runs on the same machine. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const STYLE = `body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;background:#ededed;margin:0;color:#111}
main{max-width:420px;margin:0 auto;padding:32px 20px}section{background:#fff;border-radius:12px;padding:24px}
h1{font-size:20px;margin:0 0 8px}p{color:#555;line-height:1.5}label{display:block;font-weight:600;margin:16px 0 6px}
input{width:100%;box-sizing:border-box;font-size:16px;padding:10px;border:1px solid #ccc;border-radius:8px}
button{margin-top:20px;width:100%;font-size:17px;padding:12px;border:0;border-radius:8px;background:#07c160;color:#fff;font-weight:600}
button.cancel{margin-top:10px;background:#f2f2f2;color:#111}a{color:#576b95}
button:focus-visible,input:focus-visible{outline:3px solid #10aeff;outline-offset:2px}.note{font-size:13px;color:#888}`;

/** The person's language among the product's (Accept-Language), English otherwise. */
const languageOf = (c: Context) => preferredLanguage(c.req.header('accept-language')) ?? 'en-US';

const page = (c: Context, title: string, body: string) => {
  const language = languageOf(c);
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main><section>${body}</section>` +
    `<p class="note">${escapeHtml(CONSENT_WORDS[language].simulator)}</p></main></body></html>`
  );
};

const wordsFor = (c: Context): ConsentWords => CONSENT_WORDS[languageOf(c)];

/** A refusal of a malformed request: its title in the person's language, the detail (for developers) as written. */
const refusal = (c: Context, message: string) => {
  const { failedTitle } = wordsFor(c);
  return c.html(page(c, failedTitle, `<h1>${escapeHtml(failedTitle)}</h1><p role="alert">${escapeHtml(message)}</p>`), 400);
};

/** A redirect_uri the simulator may send a code to: an absolute http(s) URL without credentials. */
const parseRedirect = (value: string | undefined): URL | null => {
  if (!value || value.length > 2000) return null;
  try {
    const url = new URL(value);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
};

/**
 * The simulator's stand-in for WeChat's authorisation page: the same query as WeChat's
 * (appid, redirect_uri, response_type=code, scope, state), a consent form naming the simulated
 * WeChat user, and on consent a 303 back to redirect_uri with `code` and `state`. Like WeChat,
 * which only returns to the domain registered for the app, it only returns to this site (or a
 * development server on this machine), so it is no open redirect.
 */
export function consentPageRoutes(app: Hono<AppEnv>, simulator: WechatSimulator) {
  app.get(SIMULATOR_AUTHORIZE_PATH, (c) => {
    const query = c.req.query();
    if (query.appid !== SIMULATOR_APP_ID) return refusal(c, `Unknown appid: this simulator only knows "${SIMULATOR_APP_ID}".`);
    if (query.response_type !== 'code') return refusal(c, 'response_type must be "code".');
    if (!SCOPES.has(query.scope ?? '')) return refusal(c, 'scope must be snsapi_userinfo or snsapi_base.');
    if (!STATE.test(query.state ?? '')) return refusal(c, 'state must be at most 128 letters, digits, dots, dashes or underscores.');
    const redirect = parseRedirect(query.redirect_uri);
    if (!redirect) return refusal(c, 'redirect_uri must be an absolute http or https URL.');
    const words = wordsFor(c);
    const suggested = words.suggested(randomInt(1000, 10000));
    return c.html(
      page(
        c,
        words.title,
        `<h1>${escapeHtml(words.title)}</h1>` +
          // the sentences are this file's own; only the host comes from the request, escaped
          `<p>${words.asks(`<strong>${escapeHtml(redirect.host)}</strong>`)}</p>` +
          `<form method="post" action="${SIMULATOR_AUTHORIZE_PATH}">` +
          `<input type="hidden" name="redirect_uri" value="${escapeHtml(redirect.href)}">` +
          `<input type="hidden" name="state" value="${escapeHtml(query.state ?? '')}">` +
          `<label for="name">${escapeHtml(words.userLabel)}</label>` +
          `<input id="name" name="name" required maxlength="${NAME_MAX}" value="${escapeHtml(suggested)}">` +
          `<p class="note">${escapeHtml(words.sameName)}</p>` +
          `<button type="submit">${escapeHtml(words.allow)}</button>` +
          `<button type="submit" class="cancel" name="decision" value="cancel" formnovalidate>${escapeHtml(words.cancel)}</button></form>`,
      ),
    );
  });

  app.post(SIMULATOR_AUTHORIZE_PATH, async (c) => {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      return refusal(c, 'The form could not be read.');
    }
    const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    const redirect = parseRedirect(text('redirect_uri'));
    if (!redirect) return refusal(c, 'redirect_uri must be an absolute http or https URL.');
    if (redirect.origin !== new URL(c.req.url).origin && !LOOPBACK.has(redirect.hostname)) {
      return refusal(c, 'redirect_uri must be on this site (or on this machine, for a development server).');
    }
    if (text('decision') === 'cancel') {
      // Like WeChat, a refusal sends nothing back to the site: the person may return to it.
      const words = wordsFor(c);
      const home = new URL('/', redirect.origin).href;
      return c.html(
        page(
          c,
          words.cancelledTitle,
          `<h1>${escapeHtml(words.cancelledTitle)}</h1><p>${escapeHtml(words.cancelledText)}</p>` +
            `<p><a href="${escapeHtml(home)}">${escapeHtml(words.backTo(redirect.host))}</a></p>`,
        ),
      );
    }
    const state = text('state');
    if (!STATE.test(state)) return refusal(c, 'state must be at most 128 letters, digits, dots, dashes or underscores.');
    const name = text('name').trim();
    if (!name || [...name].length > NAME_MAX) return refusal(c, `Give the simulated WeChat user a name of 1 to ${NAME_MAX} characters.`);
    redirect.searchParams.delete('code');
    redirect.searchParams.delete('state');
    redirect.searchParams.set('code', await simulator.issueCode(name));
    redirect.searchParams.set('state', state);
    redirect.hash = '';
    return c.redirect(redirect.href, 303);
  });
}
