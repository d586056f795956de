import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import type { Page } from '@playwright/test';
import type { AgentRuntime } from '../../server/agents/runtime';
import { endpoints } from '../../src/contract/endpoints';
import { expect, test, useEnglish } from './fixtures';
import { heldAnswers } from './held-answers';

/**
 * Answers outlive the page that asked: leaving a conversation, reloading, a second tab, a Stop
 * pressed in another tab and a lost network all leave the answer whole, and what the page shows
 * in the end is what the server stored. The worker's server answers here with a runtime the test
 * holds (`answers.writeWith`, see fixtures.ts): words keep coming until the test lets the answer end, so every
 * step lands mid-answer however long a busy machine takes to open a tab or reload a page.
 */

/**
 * Every test here follows answers written slowly on purpose, across reloads, tabs and lost
 * networks: on a busy two-core machine, with the two workers' servers and browsers sharing it,
 * they took up to 25 s, too close to the 30 s default to fail only when something is wrong.
 */
test.describe.configure({ timeout: 60_000 });

/** An answer's first words: it has begun. */
const FIRST_WORDS = 'Held answer begins.';
/** An answer's last sentence: it arrived whole. */
const LAST_WORDS = 'The test let this answer end.';
const answers = heldAnswers({ first: FIRST_WORDS, last: LAST_WORDS, gapMs: 60 });

/**
 * A line between the browser and the server that the test can cut: every connection through it
 * is dropped at once, as a lost network drops them (Chromium's offline mode fails new requests
 * but leaves a stream already open untouched).
 */
async function cuttableLine(target: URL) {
  const open = new Set<Socket>();
  const line = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    open.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => line.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(line.address() as AddressInfo).port}`,
    cut: () => {
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        line.close(() => resolve());
      }),
  };
}

test.beforeEach(async ({ page, answers: worker }) => {
  test.setTimeout(90_000);
  // The worker's server, its answers written by the runtime held here (put back after each test).
  worker.writeWith(answers.runtime);
  answers.hold();
  await useEnglish(page);
});

test.afterEach(() => answers.release());

const box = (page: Page) => page.getByRole('textbox', { name: /Ask anything/ });
const reply = (page: Page) => page.locator('li[data-role="assistant"]').last();
const answerText = (page: Page) => reply(page).getByTestId('answer').innerText();
const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop generating' });

/** Asks a question and waits until the answer has begun; returns the conversation's address. */
async function askAndWaitForWords(page: Page, question: string): Promise<string> {
  answers.hold();
  await page.goto('/chat');
  await box(page).fill(question);
  await box(page).press('Enter');
  await expect(page).toHaveURL(/\/chat\/[^/?]+$/);
  await expect(reply(page).getByTestId('answer')).toContainText(FIRST_WORDS);
  return page.url();
}

/** The answer's text grows while the page looks at it: it is followed live. */
async function expectLive(page: Page) {
  await expect(reply(page)).toHaveAttribute('data-status', 'streaming');
  const before = (await answerText(page)).length;
  await expect.poll(async () => (await answerText(page)).length).toBeGreaterThan(before);
}

/** The test lets the answer end; the page shows it whole. */
async function expectWhole(page: Page) {
  answers.release();
  await expect(reply(page)).toHaveAttribute('data-status', 'complete', { timeout: 40_000 });
  await expect(reply(page).getByTestId('answer')).toContainText(LAST_WORDS);
}

/** After a reload the page shows what the server stored: the same text, the same status. */
async function expectStoredAsShown(page: Page) {
  const shown = await answerText(page);
  const status = await reply(page).getAttribute('data-status');
  await page.reload();
  await expect(reply(page)).toHaveAttribute('data-status', status!);
  await expect.poll(() => answerText(page)).toBe(shown);
  await expect(page.getByTestId('question')).toHaveCount(1);
}

/**
 * The scrolling box of the conversation, scrolled to `top` when given: how far its view is from
 * the end, and how much it overflows.
 */
const scrollOf = (page: Page, top?: number) =>
  reply(page).evaluate((item, scrollTo) => {
    let box = item.parentElement;
    while (box && getComputedStyle(box).overflowY !== 'auto') box = box.parentElement;
    if (!box) throw new Error('no scrolling box around the answer');
    if (scrollTo !== undefined) box.scrollTo({ top: scrollTo });
    return { fromEnd: box.scrollHeight - box.scrollTop - box.clientHeight, overflow: box.scrollHeight - box.clientHeight, top: box.scrollTop };
  }, top);

test('the view follows an answer as it grows, lets go when the reader scrolls up, and Jump to latest brings the end back', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 420 });
  await askAndWaitForWords(page, 'Follow the end');
  // The answer outgrows the view, which keeps showing its end while it grows.
  await expect.poll(async () => (await scrollOf(page)).overflow, { timeout: 30_000 }).toBeGreaterThan(150);
  const grown = (await answerText(page)).length;
  await expect.poll(async () => (await answerText(page)).length).toBeGreaterThan(grown + 40);
  await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeLessThanOrEqual(2);

  // Scrolled up to read, the reader stays where they are while the answer goes on.
  await scrollOf(page, 0);
  const jump = page.getByRole('button', { name: 'Jump to latest' });
  await expect(jump).toBeVisible();
  const read = (await answerText(page)).length;
  await expect.poll(async () => (await answerText(page)).length).toBeGreaterThan(read + 40);
  expect((await scrollOf(page)).top).toBe(0);

  await jump.click();
  await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeLessThanOrEqual(2);
  await expect(jump).toBeHidden();
  const followed = (await answerText(page)).length;
  await expect.poll(async () => (await answerText(page)).length).toBeGreaterThan(followed + 40);
  await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeLessThanOrEqual(2);
});

test('leaving a conversation mid-answer and coming back finds the answer still being written, then whole', async ({ page }) => {
  const question = 'Leave and come back';
  const address = await askAndWaitForWords(page, question);
  await page.getByTestId('new-chat').click();
  await expect(page).toHaveURL(/^http:\/\/[^/]+\/chat$/);
  await expect(page.getByTestId('answer')).toHaveCount(0);

  await page.getByRole('link', { name: question }).click();
  await expect(page).toHaveURL(address);
  await expectLive(page);
  await expectWhole(page);
  await expectStoredAsShown(page);
});

test('a reload mid-answer attaches to the answer and follows it to its end', async ({ page }) => {
  await askAndWaitForWords(page, 'Reload in the middle');
  await page.reload();
  await expectLive(page);
  await expect(stopButton(page)).toBeVisible();
  await expectWhole(page);
  await expect(page.getByTestId('question')).toHaveCount(1);
  await expectStoredAsShown(page);
});

test('two tabs on one conversation both see the answer live, and the same answer in the end', async ({ page, context }) => {
  const address = await askAndWaitForWords(page, 'Two tabs please');
  const other = await context.newPage();
  await other.goto(address);
  await expectLive(other);
  await expectLive(page);
  await expectWhole(other);
  await expectWhole(page);
  expect(await answerText(other)).toBe(await answerText(page));
});

test('Stop in another tab stops the answer in both, each showing exactly what was stored; Retry after a reload answers again', async ({ page, context }) => {
  const address = await askAndWaitForWords(page, 'Stop me from elsewhere');
  const other = await context.newPage();
  await other.goto(address);
  await expectLive(other);
  await stopButton(other).click();

  for (const tab of [other, page]) {
    await expect(reply(tab)).toHaveAttribute('data-status', 'incomplete');
    await expect(reply(tab).getByRole('status')).toContainText('The answer is incomplete');
    await expect(stopButton(tab)).toHaveCount(0);
  }
  const stopped = await answerText(other);
  expect(stopped).not.toContain(LAST_WORDS);
  await expect.poll(() => answerText(page)).toBe(stopped);
  // nothing more arrives after the stop
  await expectStoredAsShown(page);
  expect(await answerText(page)).toBe(stopped);

  // After the reload the stopped answer still offers Retry; it answers the stored question again.
  await reply(page).getByRole('button', { name: 'Retry' }).click();
  await expectWhole(page);
  await expect(page.getByTestId('question')).toHaveCount(1);
});

test('a lost network mid-answer says so, and the answer goes on from where it was once the network is back', async ({ page, context, baseURL }) => {
  const line = await cuttableLine(new URL(baseURL!));
  try {
    await page.goto(`${line.url}/chat`);
    await box(page).fill('Survive a network drop');
    await box(page).press('Enter');
    await expect(reply(page).getByTestId('answer')).toContainText(FIRST_WORDS);
    await context.setOffline(true);
    line.cut();
    await expect(page.getByRole('status').filter({ hasText: 'Connection lost' })).toBeVisible();
    await expect(reply(page)).toHaveAttribute('data-status', 'incomplete');

    await context.setOffline(false);
    await expect(page.getByRole('status').filter({ hasText: 'Connection lost' })).toHaveCount(0);
    await expectWhole(page);
    // read again from where it was: the beginning is not repeated
    expect((await answerText(page)).split(FIRST_WORDS)).toHaveLength(2);
    await expect(page.getByTestId('question')).toHaveCount(1);
    await expectStoredAsShown(page);
  } finally {
    await line.close();
  }
});

/**
 * From now on the page's chat POSTs reach the server, which stores what was sent and starts its
 * answer; the page's connection is then reset before it hears a byte of it (a proxy or a mobile
 * network cutting in). Returns how many POSTs went.
 */
async function loseEveryStart(page: Page): Promise<() => number> {
  let posts = 0;
  await page.route(`**${endpoints.chat.path}`, async (route) => {
    posts += 1;
    const request = route.request();
    const headers = Object.fromEntries(Object.entries(await request.allHeaders()).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)));
    const response = await fetch(request.url(), { method: 'POST', headers, body: request.postData() ?? '' });
    const events = response.body!.getReader();
    // up to the start event: what was sent is stored, and its answer is being written
    let read = '';
    while (!read.includes('"type":"start"')) {
      const { value, done } = await events.read();
      if (done) throw new Error(`the server closed the answer before its start: ${read}`);
      read += new TextDecoder().decode(value);
    }
    await events.cancel();
    await route.abort('connectionreset');
  });
  return () => posts;
}

test('a question whose acceptance is lost on the way back is found in the conversation and its answer followed live; it is never asked twice', async ({ page }) => {
  const posts = await loseEveryStart(page);
  await page.goto('/chat');
  await box(page).fill('Lost on the way back');
  await box(page).press('Enter');

  // the page looked: the question is the stored one, not given back to be asked again
  await expect(page.locator('li[data-role="user"]')).toHaveAttribute('data-status', 'complete');
  await expect(page.getByTestId('question')).toHaveText(['Lost on the way back']);
  await expect(box(page)).toHaveValue('');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectLive(page);
  await expectWhole(page);
  expect((await answerText(page)).split(FIRST_WORDS)).toHaveLength(2);
  expect(posts()).toBe(1);
  await expectStoredAsShown(page);
});

test('a new answer whose acceptance is lost on the way back is found as the newest version and followed live; no third version is asked', async ({ page }) => {
  await askAndWaitForWords(page, 'Answer me again, quietly');
  await expectWhole(page);
  answers.hold();
  const posts = await loseEveryStart(page);
  await reply(page).getByRole('button', { name: 'New answer' }).click();

  // the page looked: the new answer is being written, not the old one put back with an alert
  await expectLive(page);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectWhole(page);
  expect(posts()).toBe(1);
  await expect(reply(page).getByRole('group', { name: 'Versions' })).toHaveText(/2 \/ 2/);
  await expectStoredAsShown(page);
  await expect(reply(page).getByRole('group', { name: 'Versions' })).toHaveText(/2 \/ 2/);
});

test('a new answer outlives a reload as its own version, and no other version is asked while it is written', async ({ page }) => {
  await askAndWaitForWords(page, 'Answer me twice');
  await expectWhole(page);
  answers.hold();
  await reply(page).getByRole('button', { name: 'New answer' }).click();
  await expect(reply(page).getByTestId('answer')).toContainText(FIRST_WORDS);
  const question = page.locator('li[data-role="user"]').last();
  await expect(question.getByRole('button', { name: 'Edit' })).toBeDisabled();

  await page.reload();
  await expectLive(page);
  // read again after the reload, the new answer is still being written: nothing else can be asked of it
  await expect(question.getByRole('button', { name: 'Edit' })).toBeDisabled();
  await expectWhole(page);
  await expect(reply(page).getByRole('group', { name: 'Versions' })).toHaveText(/2 \/ 2/);
  await expect(reply(page).getByRole('button', { name: 'New answer' })).toBeEnabled();
  await expect(question.getByRole('button', { name: 'Edit' })).toBeEnabled();
  await expectStoredAsShown(page);
});

/**
 * Issue 43: a long markdown answer (headings every 400 tokens, lists, bold, inline code; 20,000
 * tokens) written as fast as the server can send it. `halfway` holds it after its first half
 * until the test lets it go on, so the reader can scroll up once in the middle.
 */
function fastLongAnswer() {
  const PARTS = 50;
  const PIECE = 2_000;
  /** Between two pieces: less than a frame, so pieces land between every two of the page's frames. */
  const GAP_MS = 5;
  const part = (n: number) =>
    `## Part ${n}\n\n` +
    `Part ${n} opens with **bold words** and \`inline code\`, then goes on: ${'token '.repeat(300)}\n\n` +
    `- first point of part ${n}\n- second point with **emphasis**\n- third point with \`code\`\n\n` +
    `${'more '.repeat(60)}end of part ${n}.\n\n`;
  const text = Array.from({ length: PARTS }, (_, index) => part(index + 1)).join('') + 'The last words of the long answer.';
  const middle = text.indexOf('## Part 26');
  let goOn = () => {};
  let halfway: Promise<void> = Promise.resolve();
  const runtime: AgentRuntime = {
    label: 'fast long answer (browser tests)',
    async *streamAnswer({ signal }) {
      // As a model behind a buffering proxy sends: a screen or more at a time.
      for (let at = 0; at < text.length && !signal.aborted; at += PIECE) {
        if (at <= middle && middle < at + PIECE) {
          yield text.slice(at, middle);
          await halfway;
          yield text.slice(middle, at + PIECE);
        } else {
          yield text.slice(at, at + PIECE);
        }
        await new Promise((resolve) => setTimeout(resolve, GAP_MS));
      }
    },
  };
  return {
    runtime,
    holdHalfway: () => {
      halfway = new Promise((resolve) => (goOn = resolve));
    },
    goOn: () => goOn(),
  };
}

/**
 * Where the reader is: the first block of the answer at the top of the view (its part, its first
 * words) and how far above the view it starts. Space kept for text not yet painted is not read.
 */
const readingAt = (page: Page) =>
  reply(page).evaluate((item) => {
    let box = item.parentElement;
    while (box && getComputedStyle(box).overflowY !== 'auto') box = box.parentElement;
    const top = box!.getBoundingClientRect().top;
    const blocks = [...item.querySelectorAll('[data-markdown] > :not([data-unpainted])')];
    const first = blocks.find((block) => block.getBoundingClientRect().bottom > top);
    if (!first) return null;
    const words = first.textContent ?? '';
    return { part: `Part ${/part (\d+)/i.exec(words)?.[1]}`, words: words.slice(0, 60), offset: Math.round(top - first.getBoundingClientRect().top) };
  });

test('a long answer sent as fast as the server can is followed to its last words, unless the reader scrolls up once in the middle', async ({ page, answers: worker }) => {
  const long = fastLongAnswer();
  worker.writeWith(long.runtime);
  // A phone's view: each piece of the answer is several screens.
  await page.setViewportSize({ width: 390, height: 640 });
  const lastWords = () => reply(page).getByText('The last words of the long answer.');
  const jump = page.getByRole('button', { name: 'Jump to latest' });

  // Nobody touches the page: the view is at the end when each answer ends, its last words on screen.
  await page.goto('/chat');
  for (const question of ['Write a long answer', 'And another one']) {
    await box(page).fill(question);
    await box(page).press('Enter');
    await expect(page.getByTestId('question').last()).toHaveText(question);
    await expect(reply(page)).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    await expect(lastWords()).toBeInViewport();
    await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeLessThanOrEqual(2);
    await expect(jump).toBeHidden();
  }

  // The reader turns the wheel up once in the middle: the view stays where they left it to the
  // answer's end, and Jump to latest brings its last words.
  long.holdHalfway();
  await page.goto('/chat');
  await box(page).fill('Write it again');
  await box(page).press('Enter');
  await expect(reply(page).getByText('end of part 25.')).toBeInViewport();
  const scroller = await reply(page).evaluate((item) => item.closest('[class*="overflow-y-auto"]')!.getBoundingClientRect());
  await page.mouse.move(scroller.x + scroller.width / 2, scroller.y + scroller.height / 2);
  await page.mouse.wheel(0, -900);
  await expect(jump).toBeVisible();
  await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeGreaterThan(600);
  const reading = await readingAt(page);
  expect(reading?.part).toMatch(/^Part 2\d$/);
  long.goOn();
  await expect(reply(page)).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
  const after = await readingAt(page);
  expect(after?.part).toBe(reading?.part);
  expect(after?.words).toBe(reading?.words);
  expect(Math.abs(after!.offset - reading!.offset)).toBeLessThanOrEqual(4);
  await expect(lastWords()).not.toBeInViewport();
  await expect(jump).toBeVisible();
  await jump.click();
  await expect(lastWords()).toBeInViewport();
  await expect.poll(async () => (await scrollOf(page)).fromEnd).toBeLessThanOrEqual(2);
  await expect(jump).toBeHidden();
});
