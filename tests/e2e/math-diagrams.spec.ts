import type { AgentRuntime } from '../../server/agents/runtime';
import { withoutSanitizerReports } from './csp-reports';
import { expect, test, useEnglish } from './fixtures';

/** Formulas and diagrams in a real browser: typeset, drawn, streamed, and read again from history. */

const ANSWERS: Record<string, string> = {
  formulas: 'Euler wrote $e^{i\\pi} + 1 = 0$, and the area is\n\n$$\n\\int_0^1 x^2\\,dx = \\frac{1}{3}\n$$\n\nwhich costs $5 or $10.',
  diagram: 'The flow:\n\n```mermaid\ngraph TD\n  Ask[Ask a question] --> Think{Known?}\n  Think -->|yes| Answer[Answer]\n  Think -->|no| Search[Search]\n```\n\nThat is all.',
  broken: '```mermaid\ngraph TD\n  A -->\n  this is not a diagram ((\n```\n\nEnd.',
  hostile:
    '```mermaid\n%%{init: {"securityLevel": "loose", "htmlLabels": true, "flowchart": {"htmlLabels": true}}}%%\ngraph TD\n  A["<img src=x onerror=window.__pwned=1>"] --> B[Next]\n  click A call window.eval("window.__pwned=1")\n  click B "javascript:window.__pwned=1" "Go"\n```\n\nAfter.',
};

/** Answers with the text named in the question, a few characters at a time. */
const replayRuntime: AgentRuntime = {
  label: 'replay',
  async *streamAnswer({ history, signal }) {
    const text = ANSWERS[history.at(-1)?.content.trim() ?? ''] ?? 'unknown';
    for (let at = 0; at < text.length && !signal.aborted; at += 5) {
      yield text.slice(at, at + 5);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  },
};


// The worker's server, its answers replayed from the texts above.
test.beforeEach(({ answers }) => answers.writeWith(replayRuntime));

test('formulas are typeset and diagrams drawn, live and from history; a broken diagram stays code; a hostile one runs nothing', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await useEnglish(page);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const foreign: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== new URL(baseURL!).origin) foreign.push(request.url());
  });
  await page.addInitScript(() => {
    const found = window as { __violations?: Array<{ directive: string; source: string }> };
    found.__violations = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      found.__violations!.push({ directive: event.effectiveDirective, source: event.blockedURI === 'inline' ? event.sourceFile : event.blockedURI }),
    );
  });
  await page.goto('/chat');
  const box = page.getByRole('textbox', { name: /Ask anything/ });
  const answers = page.locator('li[data-role="assistant"][data-status="complete"]');
  for (const [index, question] of ['formulas', 'diagram', 'broken', 'hostile'].entries()) {
    await box.fill(question);
    await box.press('Enter');
    await expect(answers).toHaveCount(index + 1);
  }

  const check = async () => {
    const formulas = answers.nth(0);
    await expect(formulas.locator('[data-math="inline"] .katex')).toHaveCount(1);
    await expect(formulas.locator('[data-math="display"] .katex-display')).toHaveCount(1);
    await expect(formulas).toContainText('costs $5 or $10');
    // KaTeX's fonts arrived with it.
    expect(await page.evaluate(() => document.fonts.check('16px KaTeX_Main'))).toBe(true);

    const drawn = answers.nth(1).getByRole('img', { name: /Diagram drawn from the answer/ });
    await expect(drawn).toBeVisible();
    await expect(drawn).toHaveAttribute('src', /^blob:/);
    expect(await drawn.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(50);

    await expect(answers.nth(2).locator('figure[data-language="mermaid"] code')).toContainText('this is not a diagram');
    await expect(answers.nth(2).getByRole('img')).toHaveCount(0);

    const hostile = answers.nth(3);
    await expect(hostile.getByRole('img', { name: /Diagram drawn from the answer/ })).toBeVisible();
    await expect(hostile.locator('a, svg, foreignObject, script')).toHaveCount(0);
    await hostile.getByRole('img').click();
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned ?? null)).toBeNull();
  };

  await check();
  await page.reload();
  await expect(answers).toHaveCount(4);
  await check();
  const violations = await page.evaluate(() => (window as { __violations?: Array<{ directive: string; source: string }> }).__violations ?? []);
  expect(await withoutSanitizerReports(page, violations)).toEqual([]);
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  // Mermaid measured its drawing in the page and left nothing behind.
  await expect(page.locator('body > [id^="danswer-diagram"], body > div > svg[id^="answer-diagram"]')).toHaveCount(0);
});
