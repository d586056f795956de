import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { startServer, type RunningServer } from '../../server/start';
import { pngOf } from '../../server/test/png';
import { expect, test, useEnglish } from './fixtures';

/**
 * The chat against the real server and an OpenAI-compatible model endpoint faked on loopback,
 * which keeps every request: an attached image reaches the model as an image part, the tokens
 * it reports show under the answer, and an answer can be rated and commented on.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ANSWER = 'I see a red square.';

type Part = { type: string; text?: string; image_url?: { url: string } };
type Request = { messages: { role: string; content: string | Part[] }[] };

let server: RunningServer;
let model: Server;
let dataDir: string;
const requests: Request[] = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  model = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      // The questions' requests only: a new chat's first answer is followed by one naming it.
      const sent = JSON.parse(body) as Request & { stream?: boolean };
      if (sent.stream) requests.push(sent);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: ANSWER }, finish_reason: 'stop' }] })}\n\n`);
      res.write(`data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 1234, completion_tokens: 56 } })}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  dataDir = mkdtempSync(join(tmpdir(), 'kraken-model-attachments-'));
  server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    env: {
      ...process.env,
      DATABASE_URL: '',
      LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      LLM_MODEL: 'fake-vision',
      MODEL_ACCEPTS_IMAGES: 'on',
    },
    demo: { username: 'model-attachments@kraken.local', password: 'model-Attachments-2026' },
    spaDir: process.env.E2E_SPA_DIR ?? join(REPO, 'dist'),
    log: () => undefined,
  });
});

test.afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => model?.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

test.beforeEach(async ({ page }) => {
  test.setTimeout(60_000);
  await useEnglish(page);
});

const box = (page: Page) => page.getByRole('textbox', { name: /Ask anything/ });
const reply = (page: Page) => page.locator('li[data-role="assistant"]').last();

async function askWithImage(page: Page, png: Buffer) {
  await page.goto(`${server.url}/chat`);
  await page.getByTestId('attach-input').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('attachment')).toHaveAttribute('data-state', 'done');
  await box(page).fill('What colour is this?');
  await box(page).press('Enter');
  await expect(reply(page)).toHaveAttribute('data-status', 'complete');
  await expect(reply(page).getByTestId('answer')).toHaveText(ANSWER);
}

test('an attached image reaches the model as an image part, and the tokens it reports show under the answer', async ({ page }) => {
  const png = pngOf(4, [255, 0, 0]);
  await askWithImage(page, png);
  const question = requests.at(-1)!.messages.filter((message) => message.role === 'user').at(-1)!;
  expect(question.content).toEqual([
    { type: 'text', text: expect.stringContaining('What colour is this?') },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
  ]);
  // This agent sees images: no note says otherwise.
  await expect(page.getByTestId('images-unseen')).toHaveCount(0);

  await expect(reply(page).getByTestId('token-usage')).toHaveText('1,234 tokens in · 56 tokens out');
  await page.reload();
  await expect(reply(page).getByTestId('token-usage')).toHaveText('1,234 tokens in · 56 tokens out');
});

test('an answer is rated up, then down with a comment, and keeps its rating after a reload', async ({ page }) => {
  // An image uploaded and read by the model, two ratings and a reload: up to 24 s on a busy two-core machine.
  test.setTimeout(60_000);
  await askWithImage(page, pngOf(4, [200, 0, 0]));
  const up = reply(page).getByRole('button', { name: 'Good answer' });
  const down = reply(page).getByRole('button', { name: 'Bad answer' });
  await expect(up).toHaveAttribute('aria-pressed', 'false');
  await up.click();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(up).toHaveAttribute('aria-pressed', 'true');
  await expect(down).toHaveAttribute('aria-pressed', 'false');

  await reply(page).getByRole('button', { name: 'Comment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tell us about this answer' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Bad answer' }).click();
  await dialog.getByLabel('Comment (optional)').fill('The square is crimson, not red.');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toBeHidden();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await expect(up).toHaveAttribute('aria-pressed', 'false');

  await page.reload();
  await expect(down).toHaveAttribute('aria-pressed', 'true');
  await reply(page).getByRole('button', { name: 'Comment' }).click();
  await expect(dialog.getByLabel('Comment (optional)')).toHaveValue('The square is crimson, not red.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // Pressing the pressed thumb takes the rating back.
  await down.click();
  await expect(down).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(down).toHaveAttribute('aria-pressed', 'false');
});
