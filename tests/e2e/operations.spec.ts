import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test as base, type Page } from '@playwright/test';
import { startFakeLinkedIn } from '../../server/publishing/linkedin-fake';
import { startServer, type RunningServer } from '../../server/start';
import { holdableAnswers } from './held-answers';

/**
 * The operations area end to end, on a server of its own: a writer agent that answers with
 * drafts (no language model here) and a local fake of LinkedIn's Posts API behind the real
 * LinkedIn connector.
 */
const OPERATOR = { username: 'ops-e2e@kraken.local', password: 'ops-Password-2026' };
const LINKEDIN_TOKEN = 'e2e-linkedin-token';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAAOAQH/fNU2VQAAAABJRU5ErkJggg==',
  'base64',
);

const XHS_ANSWER = [
  '[[DRAFT]]\n周末露营新手清单⛺\n第一次露营不用买太多，帐篷、睡袋、防潮垫就够了。\n#露营 #周末去哪儿\n',
  '[[DRAFT]]\n露营装备省钱攻略\n租比买划算，三百块就能搞定一晚。\n#露营装备 #省钱\n',
  '[[DRAFT]]\n城市近郊露营地推荐\n开车一小时就能到的三个营地。\n#近郊游 #露营\n',
].join('\n');
const LINKEDIN_ANSWER = [
  '[[DRAFT]]\nWe cut our release cycle from 6 weeks to 6 days.\n\nHere is what changed. #engineering #devops\n',
  '[[DRAFT]]\nShipping weekly is not about speed. It is about trust.\n\nThree lessons from our team. #leadership\n',
].join('\n');

/**
 * Streams its drafts in small pieces with a pause, like a model would. A test that must see the
 * drafts arriving (the Stop button) holds them at the end of their first line: at 15 ms a piece,
 * three drafts are otherwise written in about half a second, before a busy machine's first look.
 */
const writer = holdableAnswers({
  label: 'scripted writer for browser tests',
  async *streamAnswer({ agent, signal }) {
    const answer = agent.id === 'xhs-note-writer' ? XHS_ANSWER : LINKEDIN_ANSWER;
    for (let index = 0; index < answer.length; index += 6) {
      if (signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 15));
      yield answer.slice(index, index + 6);
    }
  },
});

type OpsWorld = { server: RunningServer; linkedin: Awaited<ReturnType<typeof startFakeLinkedIn>> };
let linkedin: OpsWorld['linkedin'];

/** One server and one fake LinkedIn for this file's tests, started before the first of them. */
const test = base.extend<object, { ops: OpsWorld }>({
  ops: [
    async ({}, use) => {
      const fake = await startFakeLinkedIn({ token: LINKEDIN_TOKEN });
      const dataDir = mkdtempSync(join(tmpdir(), 'kraken-ops-e2e-'));
      const server = await startServer({
        port: 0,
        dataDir,
        env: {
          ...process.env,
          LLM_BASE_URL: '',
          DATABASE_URL: '',
          LINKEDIN_ACCESS_TOKEN: LINKEDIN_TOKEN,
          LINKEDIN_AUTHOR_URN: 'urn:li:organization:424242',
          LINKEDIN_API_BASE: fake.url,
          PUBLISH_INTERVAL_SECONDS: '2',
        },
        runtime: writer.runtime,
        demo: OPERATOR,
        ...(process.env.E2E_SPA_DIR ? { spaDir: process.env.E2E_SPA_DIR } : {}),
        log: () => undefined,
      });
      linkedin = fake;
      await use({ server, linkedin: fake });
      await server.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    // an embedded database's first start can take long on a busy machine
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ ops }, use) => use(ops.server.url),
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
});
// a test that failed while holding the drafts does not leave the next one's waiting
test.afterEach(() => writer.release());

const logIn = async (page: Page) => {
  await page.getByLabel('Phone number or e-mail').fill(OPERATOR.username);
  await page.getByLabel('Password').fill(OPERATOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();
};

const signedIn = async (page: Page) => {
  await page.goto('/login');
  await logIn(page);
  await expect(page).toHaveURL(/\/$/);
};

test('the area sends a visitor to login and brings them back to the exact overview', async ({ page }) => {
  await page.goto('/kraken-operation?status=scheduled');
  await expect(page).toHaveURL(`/login?source=kraken&redirect_url=${encodeURIComponent('/kraken-operation?status=scheduled')}`);
  await logIn(page);
  await expect(page).toHaveURL(/\/kraken-operation\?status=scheduled$/);
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Scheduled/ })).toHaveAttribute('aria-pressed', 'true');
});

test('a forged or expired token is sent to login by the session check', async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: 'ai-chat-ops-token', value: 'forged-token-forged-token-0000', url: baseURL! }]);
  await page.goto('/kraken-operation/task/linkedin');
  await expect(page).toHaveURL(`/login?source=kraken&redirect_url=${encodeURIComponent('/kraken-operation/task/linkedin')}`);
  await expect(page.getByRole('heading', { name: 'LinkedIn task' })).toHaveCount(0);
});

test('a Xiaohongshu note: brief, streamed drafts, pick and edit, images, save, schedule, on the overview', async ({ page }) => {
  await signedIn(page);
  await page.goto('/kraken-operation');
  await page.getByRole('link', { name: 'New Xiaohongshu task' }).click();
  await expect(page.getByRole('heading', { name: 'Xiaohongshu task' })).toBeVisible();

  await page.getByLabel('Topic').fill('新手周末露营');
  await page.getByLabel('Audience').fill('上班族');
  await page.getByLabel('Keywords').fill('露营, 装备');
  writer.hold();
  await page.getByRole('button', { name: 'Generate drafts' }).click();

  // The drafts stream in: the stop button shows while they arrive, then three cards.
  await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
  writer.release();
  const drafts = page.getByTestId('draft');
  await expect(drafts).toHaveCount(3, { timeout: 15_000 });
  await expect(page.getByTestId('drafting-status')).toHaveAttribute('data-phase', 'done');

  await page.getByRole('button', { name: 'Use draft 2' }).click();
  await expect(page.getByLabel('Note title')).toHaveValue('露营装备省钱攻略');
  await expect(page.getByLabel('Note text')).toHaveValue(/租比买划算/);
  await page.getByLabel('Note text').fill('租比买划算，三百块就能搞定一晚，帐篷睡袋都能租到。\n#露营装备 #省钱');
  await expect(page.getByTestId('body-counter')).toHaveText(/^\d+\/1000$/);
  await expect(page.getByTestId('xiaohongshu-preview').getByTestId('preview-title')).toHaveText('露营装备省钱攻略');

  // Over the limit the counter turns red and saving is refused before it reaches the server.
  await page.getByLabel('Note title').fill('这是一个明显超过二十个字的小红书标题，太长了');
  await expect(page.getByText('The title is longer than 20 characters.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.getByLabel('Note title').fill('露营装备省钱攻略');

  await page.locator('input[type=file]').setInputFiles({ name: 'tent.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'tent.png' }).first()).toBeVisible();

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/kraken-operation\/task\/edit\/[0-9a-f-]+$/);
  await expect(page.getByTestId('unsaved')).toHaveCount(0);
  // The drafts stayed through the move to the edit address.
  await expect(drafts).toHaveCount(3);

  await page.getByRole('button', { name: 'Mark as ready' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Ready');
  await page.getByLabel('Publish at').fill('2099-06-01T09:30');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Scheduled');
  await expect(page.getByTestId('scheduled-at')).toContainText('2099');

  // Reloading shows the stored task: drafts, the chosen one, the edited text, the history.
  await page.reload();
  await expect(page.getByLabel('Note text')).toHaveValue(/帐篷睡袋都能租到/);
  await expect(page.getByRole('button', { name: 'Use draft 2' })).toHaveText('In use');
  await page.getByText(/^History/).click();
  await expect(page.getByTestId('history').locator('li')).toHaveCount(3);

  await page.getByRole('link', { name: 'Back to all tasks' }).click();
  await expect(page).toHaveURL(/\/kraken-operation$/);
  const row = page.getByTestId('task-row').filter({ hasText: '露营装备省钱攻略' });
  await expect(row).toContainText('Xiaohongshu');
  await expect(row.getByTestId('task-status')).toHaveText('Scheduled');
  await expect(row).toContainText('2099');
  await expect(page.getByTestId('count-scheduled')).toContainText('1');
  await page.getByRole('button', { name: /^Draft/ }).click();
  await expect(page.getByTestId('task-row')).toHaveCount(0);
  await page.getByRole('button', { name: /^All/ }).click();
  await page.getByLabel('Search by title').fill('省钱');
  await expect(page.getByTestId('task-row')).toHaveCount(1);
});

test('a LinkedIn post: drafts, "see more" preview, a failed save keeps the text, published through the Posts API', async ({ page }) => {
  await signedIn(page);
  await page.goto('/kraken-operation/task/linkedin');
  await expect(page.getByRole('heading', { name: 'LinkedIn task' })).toBeVisible();
  await expect(page.getByText('LinkedIn posts are published automatically at their time.')).toHaveCount(0);

  await page.getByLabel('Topic').fill('Shipping weekly');
  // The post is written in the interface's language unless the operator picks another.
  await expect(page.getByLabel('Language of the post')).toHaveValue('en-US');
  await page.getByLabel('Number of drafts').selectOption('2');
  await page.getByRole('button', { name: 'Generate drafts' }).click();
  await expect(page.getByTestId('draft')).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByTestId('drafting-status')).toHaveAttribute('data-phase', 'done');
  await page.getByRole('button', { name: 'Use draft 1' }).click();
  // The draft names the task (its first line); the operator may rename it.
  await expect(page.getByLabel('Title (for your team only)')).not.toHaveValue('');
  await page.getByLabel('Title (for your team only)').fill('Release cycle story');
  const long = `We cut our release cycle from 6 weeks to 6 days. ${'Every team can do it with small steps and honest reviews. '.repeat(5)}#engineering`;
  await page.getByLabel('Post text').fill(long);
  const preview = page.getByTestId('linkedin-preview');
  await expect(preview.getByRole('button', { name: 'see more' })).toBeVisible();
  await preview.getByRole('button', { name: 'see more' }).click();
  await expect(preview.getByTestId('preview-body')).toContainText('#engineering');

  // A failed save keeps every change and says so.
  await page.route('**/api/kraken/task/create', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 1, msg: 'Something went wrong on the server. Please try again.', data: null }) }), { times: 1 });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Not saved; your changes are still here.' })).toBeVisible();
  await expect(page.getByLabel('Post text')).toHaveValue(long);
  await expect(page).toHaveURL(/\/task\/linkedin$/);

  // Leaving with unsaved changes asks first.
  await page.getByRole('link', { name: 'Back to all tasks' }).click();
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/task\/linkedin$/);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/task\/edit\//);
  await expect(page.getByText('LinkedIn posts are published automatically at their time.')).toBeVisible();
  await page.getByRole('button', { name: 'Mark as ready' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Ready');
  await page.getByRole('button', { name: 'Publish now' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Published', { timeout: 15_000 });
  await expect(page.getByRole('link', { name: 'Open the post' })).toHaveAttribute('href', /^https:\/\/www\.linkedin\.com\/feed\/update\/urn:li:share:/);

  const posts = linkedin.posts();
  expect(posts).toHaveLength(1);
  expect(posts[0]).toMatchObject({ author: 'urn:li:organization:424242', visibility: 'PUBLIC', lifecycleState: 'PUBLISHED' });
  expect(String(posts[0]!.commentary)).toContain('{hashtag|\\#|engineering}');

  await page.getByRole('link', { name: 'Back to all tasks' }).click();
  const row = page.getByTestId('task-row').filter({ hasText: 'Release cycle story' });
  await expect(row.getByTestId('task-status')).toHaveText('Published');
});

test('a Xiaohongshu note due now is exported by hand: copy the text, download the images, mark it published', async ({ page, context, baseURL }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await signedIn(page);
  await page.goto('/kraken-operation/task/xiaohongshu');
  await page.getByLabel('Note title').fill('三步搞定早餐');
  await page.getByLabel('Note text').fill('燕麦、酸奶、水果，五分钟搞定。\n#早餐 #快手菜');
  await page.locator('input[type=file]').setInputFiles({ name: 'breakfast.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('img', { name: 'breakfast.png' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/task\/edit\//);
  await page.getByRole('button', { name: 'Mark as ready' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Ready');

  await page.getByRole('button', { name: 'Export now' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Post by hand', { timeout: 15_000 });
  await expect(page.getByText('It is time: copy the text, download the images, post them, then mark the task as published.')).toBeVisible();

  await page.getByRole('button', { name: 'Copy text' }).click();
  await expect(page.getByText('Text copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('三步搞定早餐\n\n燕麦、酸奶、水果，五分钟搞定。\n#早餐 #快手菜');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Image 1: breakfast.png' }).click();
  expect((await download).suggestedFilename()).toBe('breakfast.png');

  await page.getByLabel('Link to the post (optional)').fill('https://www.xiaohongshu.com/explore/66aa');
  await page.getByRole('button', { name: 'Mark as published' }).click();
  await expect(page.getByTestId('task-status').first()).toHaveText('Published');
  await expect(page.getByRole('link', { name: 'Open the post' })).toHaveAttribute('href', 'https://www.xiaohongshu.com/explore/66aa');
  await expect(page.getByLabel('Note text')).toBeDisabled();
});

test('an unknown task id, or another operator\'s, says not found', async ({ page }) => {
  await signedIn(page);
  await page.goto('/kraken-operation/task/edit/00000000-0000-0000-0000-000000000000');
  await expect(page.getByRole('heading', { name: 'Task not found' })).toBeVisible();
  await expect(page.getByText('This task does not exist, or it belongs to someone else.')).toBeVisible();
});
