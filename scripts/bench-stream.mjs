// The streaming figure of `npm run bench` (d): a 100 kB markdown answer streamed at 2,500 tokens a
// second (a token is 4 characters, one SSE delta each) through the real chat path: the reference
// server started here on 127.0.0.1 with a scripted agent runtime, the built SPA it serves, and the
// chat screen in Chromium. Measured:
//   - the time from the server sending the last token to the page painting it    target ≤ 100 ms
//   - the longest main-thread task during the stream ('longtask' observer)      target ≤ 50 ms
//   - the raw baseline: the same bytes read by a plain fetch in a blank page of the same origin
// Times on both sides are performance.timeOrigin + performance.now() (epoch milliseconds, the same
// machine), with the page's offset to the server measured by a round trip and taken off.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tsImport } from 'tsx/esm/api';

export const ANSWER_BYTES = 100_000;
export const TOKENS_PER_SECOND = 2_500;
const TOKEN_CHARS = 4;
/** The answer's last piece: its own SSE delta, so both the page and the baseline can spot it. */
const MARKER = 'End of the bench answer 7f3a9c.';
const STREAM_TIMEOUT_MS = 60_000;
/** Runs of the relay figures (no browser) of which the median is shown. */
const RELAY_RUNS = 5;

const CHAT_PATH = '/api/workflow/sse/agent/chat';
const CREATE_PATH = '/api/workflow/im/conversation/create';
const AGENT = 'SpecialNoAgentFallback';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

const TOPICS = [
  ['Caching the catalogue', 'cache'],
  ['Migrating the orders table', 'migration'],
  ['Rate limiting the public API', 'limiter'],
  ['Search that tolerates typos', 'search'],
  ['Background jobs that survive restarts', 'jobs'],
  ['Uploading large files', 'upload'],
  ['Observability for the checkout', 'metrics'],
  ['Feature flags without regret', 'flags'],
];
const LANGUAGES = ['ts', 'python', 'bash', 'sql'];

const codeFor = (language, name, index) => {
  switch (language) {
    case 'python':
      return [
        `def ${name}_step_${index}(items, limit=100):`,
        `    """Process the ${name} items in batches of at most \`limit\`."""`,
        '    batch = []',
        '    for item in items:',
        '        if item.get("skip"):',
        '            continue',
        '        batch.append(item)',
        '        if len(batch) >= limit:',
        '            yield batch',
        '            batch = []',
        '    if batch:',
        '        yield batch',
      ].join('\n');
    case 'bash':
      return [
        'set -euo pipefail',
        `export ${name.toUpperCase()}_STEP=${index}`,
        `for file in ./data/${name}/*.json; do`,
        '  echo "processing $file"',
        `  jq -c '.items[] | select(.active)' "$file" >> /tmp/${name}-${index}.ndjson`,
        'done',
        `wc -l /tmp/${name}-${index}.ndjson`,
      ].join('\n');
    case 'sql':
      return [
        `-- step ${index} of the ${name} work`,
        `CREATE INDEX CONCURRENTLY IF NOT EXISTS idx_${name}_${index}_created`,
        `  ON ${name}_events (tenant_id, created_at DESC);`,
        '',
        `SELECT tenant_id, count(*) AS events, max(created_at) AS latest`,
        `  FROM ${name}_events`,
        ` WHERE created_at > now() - interval '7 days'`,
        ' GROUP BY tenant_id',
        ' ORDER BY events DESC',
        ' LIMIT 20;',
      ].join('\n');
    default:
      return [
        `export async function ${name}Step${index}(input: { id: string; retries?: number }): Promise<Result> {`,
        '  const retries = input.retries ?? 3;',
        '  for (let attempt = 0; attempt <= retries; attempt += 1) {',
        '    try {',
        `      const response = await fetch(\`/api/${name}/\${encodeURIComponent(input.id)}\`);`,
        '      if (!response.ok) throw new Error(`HTTP ${response.status}`);',
        '      return (await response.json()) as Result;',
        '    } catch (error) {',
        '      if (attempt === retries) throw error;',
        '      await new Promise((next) => setTimeout(next, 2 ** attempt * 100));',
        '    }',
        '  }',
        "  throw new Error('unreachable');",
        '}',
      ].join('\n');
  }
};

const section = (index) => {
  const [title, name] = TOPICS[index % TOPICS.length];
  const language = LANGUAGES[index % LANGUAGES.length];
  const lines = [
    `## ${index + 1}. ${title}`,
    '',
    `The ${name} work in step ${index + 1} starts from what we measured last week: most requests are cheap, ` +
      `but a long tail of **slow calls** dominates what people notice. Keep the change small, behind a flag, ` +
      `and watch \`p95\` rather than the mean; the [runbook](https://example.com/runbooks/${name}#step-${index}) lists the dashboards.`,
    '',
    `Before touching the code, agree on the shape of the result. A reviewer should be able to read the diff ` +
      `in ten minutes, and the rollback must be a single revert. If either is not true, split the step *again*.`,
    '',
    '- Write down the current behaviour, with one example request and its response.',
    `- Add a metric for the ${name} path before changing it, so the effect is visible.`,
    '- Ship the change dark, then enable it for 5% of traffic, then 50%, then everyone.',
    '- Remove the flag within two weeks, or it becomes part of the design by accident.',
    '',
    '| Option | Latency (p95) | Cost per month | Risk | Notes |',
    '| --- | ---: | ---: | --- | --- |',
    `| Do nothing | ${420 + index} ms | $0 | low | the tail keeps growing |`,
    `| In-process cache | ${95 + (index % 7)} ms | $40 | medium | stale for up to 60 s |`,
    `| Shared cache | ${60 + (index % 5)} ms | $180 | medium | one more service to run |`,
    `| Precompute nightly | ${35 + (index % 3)} ms | $90 | high | wrong for a day after edits |`,
    '',
    `Here is the core of step ${index + 1}; it is deliberately boring:`,
    '',
    `\`\`\`${language}`,
    codeFor(language, name, index + 1),
    '```',
    '',
    '1. Run it against a copy of production data first.',
    '2. Compare the counts with the old path; they must match exactly.',
    `3. Only then switch the ${name} traffic over, and keep the old path for a week.`,
    '',
  ];
  if (index % 3 === 0) {
    lines.push(`> Note: the numbers above are from the staging cluster. Production has ${index + 3} times the traffic, so treat them as a lower bound.`, '');
  }
  return lines.join('\n');
};

/** A realistic long answer: sections of paragraphs, lists, tables, quotes and code, ≥ 100 kB. */
export const benchAnswer = () => {
  let text = '# A plan in small steps\n\nBelow is the whole plan, one section per step, each with its trade-offs.\n\n';
  for (let index = 0; text.length < ANSWER_BYTES; index += 1) text += section(index);
  return `${text}\n`;
};

/** An agent runtime that streams `answer` in 4-character tokens at `tokensPerSecond`, by the wall clock. */
const scriptedRuntime = (answer, tokensPerSecond) => {
  const pieces = [];
  for (let at = 0; at < answer.length; at += TOKEN_CHARS) pieces.push(answer.slice(at, at + TOKEN_CHARS));
  pieces.push(MARKER);
  const runtime = {
    label: 'bench: scripted',
    pieces: pieces.length,
    runs: [],
    async *streamAnswer({ signal }) {
      const run = { firstSentAt: 0, lastSentAt: 0 };
      runtime.runs.push(run);
      const started = now();
      let index = 0;
      while (index < pieces.length) {
        if (signal.aborted) return;
        const due = Math.min(pieces.length, Math.floor(((now() - started) / 1000) * tokensPerSecond) + 1);
        while (index < due) {
          yield pieces[index];
          // The route asks for the next piece once the last one is written: this is its send time.
          index += 1;
          if (index === 1) run.firstSentAt = now();
        }
        if (index < pieces.length) await sleep(1);
      }
      run.lastSentAt = now();
    },
  };
  return runtime;
};

/** Installed before the app: long tasks and frame times, on the page's clock. */
const instrument = () => {
  const bench = { longTasks: [], frames: [] };
  window.__bench = bench;
  if (!PerformanceObserver.supportedEntryTypes?.includes('longtask')) {
    bench.noLongTask = true;
    return;
  }
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    bench.noLongTask = true;
  }
};

/** In the page: watch for the marker in the answer's last block; frame times until it is painted. */
const watchForMarker = (marker) => {
  const bench = window.__bench;
  const clock = () => performance.timeOrigin + performance.now();
  bench.watchFrom = performance.now();
  const lastBlock = () => {
    const answers = document.querySelectorAll('[data-testid="answer"] [data-markdown]');
    return answers[answers.length - 1]?.lastElementChild;
  };
  const lastBlockHasMarker = () => Boolean(lastBlock()?.textContent?.includes(marker));
  const observer = new MutationObserver(() => {
    if (bench.domAt || !lastBlockHasMarker()) return;
    bench.domAt = clock();
    performance.mark('bench: the end in the DOM');
    observer.disconnect();
    // the frame that paints it
    requestAnimationFrame(() =>
      setTimeout(() => {
        bench.paintAt = clock();
        performance.mark('bench: the end painted');
        // Whether the view followed the answer to its end: its last words on screen (issue 43).
        const end = lastBlock()?.getBoundingClientRect();
        bench.endOnScreen = Boolean(end && end.bottom > 0 && end.top < window.innerHeight);
      }, 0),
    );
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  let previous = performance.now();
  const frame = (time) => {
    bench.frames.push({ at: time, gap: time - previous });
    previous = time;
    if (!bench.paintAt) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};

/**
 * One question asked through the server and its stream read to the end by a plain fetch, with no
 * app: in a blank page of the server's origin (`page.evaluate`, paths from the page's origin) or in
 * this process (`base`, the server's URL). It refers to nothing outside itself, so it runs in
 * either. Answers when it asked, the first bytes, the marker and the end arrived (each on its own
 * process's `performance.timeOrigin + performance.now()`), and the bytes and delta events read.
 * With `showLast`, the page's floor for a fast answer: its events are parsed as they arrive and the
 * answer's last `showLast` characters shown as plain text in one paragraph (the least a page can
 * paint and still show the last token: no markdown, no layout of the whole answer), timed by
 * `watchForMarker` like the chat screen.
 */
const readChat = async ({ base = '', marker, chatPath, createPath, agent, timeoutMs, showLast = 0 }) => {
  const clock = () => performance.timeOrigin + performance.now();
  let paragraph;
  if (showLast) {
    document.body.innerHTML = '<div data-testid="answer"><div data-markdown><p style="white-space: pre-wrap"></p></div></div>';
    paragraph = document.querySelector('p');
  }
  const headers = { 'content-type': 'application/json', 'x-visitor-id': crypto.randomUUID() };
  const created = await fetch(`${base}${createPath}`, { method: 'POST', headers, body: JSON.stringify({ sourceId: agent }) });
  const conversationId = (await created.json()).data.conversationId;
  const askedAt = clock();
  const response = await fetch(`${base}${chatPath}`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream' },
    body: JSON.stringify({ conversationId, agentId: agent, text: 'Please write the whole plan.' }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let tail = '';
  let bytes = 0;
  let events = 0;
  let firstAt = 0;
  let markerAt = 0;
  let unparsed = '';
  let answer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    firstAt ||= clock();
    bytes += value.byteLength;
    const text = decoder.decode(value, { stream: true });
    events += text.split('data: {"type":"delta"').length - 1;
    tail = (tail + text).slice(-400);
    if (!markerAt && tail.includes(marker)) markerAt = clock();
    if (!showLast) continue;
    const lines = (unparsed + text).split('\n\n');
    unparsed = lines.pop();
    const before = answer.length;
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      const parsed = JSON.parse(line.slice(6));
      if (parsed.type === 'delta') answer += parsed.text;
    }
    if (answer.length > before) paragraph.textContent = answer.slice(-showLast);
  }
  return { askedAt, firstAt, markerAt, endAt: clock(), bytes, events };
};

/** What `readChat` needs to ask the bench's question through the server. */
const chatRequest = { marker: MARKER, chatPath: CHAT_PATH, createPath: CREATE_PATH, agent: AGENT, timeoutMs: STREAM_TIMEOUT_MS };

/** The page's clock minus this process's, from the middle of a round trip (best of a few). */
const clockOffset = async (page) => {
  let best = { rtt: Infinity, offset: 0 };
  for (let i = 0; i < 7; i += 1) {
    const before = now();
    const pageNow = await page.evaluate(() => performance.timeOrigin + performance.now());
    const after = now();
    if (after - before < best.rtt) best = { rtt: after - before, offset: pageNow - (before + after) / 2 };
  }
  return best;
};

/**
 * Runs the streaming figure against the SPA built in `spaDir`, in Chromium from `launchBrowser`.
 * Returns the figures; prints nothing.
 */
export const streamingFigures = async ({
  spaDir,
  launchBrowser,
  root,
  /** Optional: called before the question is sent; what it returns is called once the last token is painted (a profiler, say). */
  aroundPage,
}) => {
  const { startServer } = await tsImport(join(root, 'server', 'start.ts'), import.meta.url);
  const { generousLimits } = await tsImport(join(root, 'tests', 'load', 'generous-limits.ts'), import.meta.url);
  const answer = benchAnswer();
  const runtime = scriptedRuntime(answer, TOKENS_PER_SECOND);
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-bench-'));
  const server = await startServer({
    dataDir,
    host: '127.0.0.1',
    env: { LLM_BASE_URL: '', DATABASE_URL: '' },
    // Best-of runs of the same question from 127.0.0.1: the public quotas would refuse them.
    config: generousLimits,
    runtime,
    spaDir,
    log: () => undefined,
  });
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
    await context.addInitScript(instrument);
    // A blank page of the server's origin for the baseline (never reaches the server).
    await context.route(`${server.url}/__bench/blank`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>baseline</title>' }),
    );
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    page.on('crash', () => console.error('page crashed'));

    // The raw baseline first: the same bytes, read with no app and no rendering.
    await page.goto(`${server.url}/__bench/blank`);
    const rawOffset = await clockOffset(page);
    const raw = await page.evaluate(readChat, chatRequest);
    const rawRun = runtime.runs.at(-1);

    // The real chat screen.
    await page.goto(`${server.url}/chat`);
    const box = page.getByRole('textbox', { name: /Ask anything/ });
    await box.waitFor();
    const offset = await clockOffset(page);
    await box.fill('Please write the whole plan.');
    await page.evaluate(watchForMarker, MARKER);
    const profiled = await aroundPage?.(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => Boolean(window.__bench.paintAt), undefined, { timeout: STREAM_TIMEOUT_MS, polling: 100 });
    await profiled?.();
    const app = await page.evaluate(() => {
      const bench = window.__bench;
      const during = (start) => start >= bench.watchFrom;
      return {
        domAt: bench.domAt,
        paintAt: bench.paintAt,
        noLongTask: Boolean(bench.noLongTask),
        longTasks: bench.longTasks.filter((task) => during(task.start)).map((task) => ({ ...task, at: performance.timeOrigin + task.start })),
        gaps: bench.frames.map((frame) => frame.gap),
        textLength: document.querySelector('li[data-role="assistant"]:last-of-type [data-testid="answer"]')?.textContent?.length ?? 0,
      };
    });
    const appRun = runtime.runs.at(-1);
    await page
      .locator('li[data-role="assistant"][data-status="complete"]')
      .last()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    const toServer = (at, measured) => at - measured.offset;
    return {
      answerChars: answer.length,
      tokens: runtime.pieces,
      raw: {
        run: rawRun,
        askedAt: toServer(raw.askedAt, rawOffset),
        firstAt: toServer(raw.firstAt, rawOffset),
        markerAt: toServer(raw.markerAt, rawOffset),
        endAt: toServer(raw.endAt, rawOffset),
        bytes: raw.bytes,
        offset: rawOffset,
      },
      app: {
        run: appRun,
        domAt: toServer(app.domAt, offset),
        paintAt: toServer(app.paintAt, offset),
        longTasks: app.longTasks.map((task) => ({ ...task, at: toServer(task.at, offset) })),
        noLongTask: app.noLongTask,
        gaps: app.gaps,
        textLength: app.textLength,
        offset,
      },
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};

/**
 * A fake OpenAI-compatible model endpoint that sends `answer` in 4-character tokens, then the
 * marker, as fast as it can: `unthrottled` writes one SSE chunk per token, waiting only for the
 * socket to drain; `burst` writes the whole stream at once, as a buffering proxy flushes it.
 * Each run records when the first and the last token left the endpoint.
 */
export const fakeModelEndpoint = async (answer) => {
  const { createServer } = await import('node:http');
  const tokens = [];
  for (let at = 0; at < answer.length; at += TOKEN_CHARS) tokens.push(answer.slice(at, at + TOKEN_CHARS));
  tokens.push(MARKER);
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: 'bench', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const lines = tokens.map((token) => chunk({ content: token }));
  const ending = `${chunk({}, 'stop')}data: [DONE]\n\n`;
  const endpoint = { mode: 'unthrottled', tokens: tokens.length, runs: [], url: '' };
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      const run = { mode: endpoint.mode, firstSentAt: 0, lastSentAt: 0 };
      endpoint.runs.push(run);
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      if (endpoint.mode === 'burst') {
        run.firstSentAt = now();
        response.end(lines.join('') + ending);
        run.lastSentAt = now();
        return;
      }
      for (let index = 0; index < lines.length; index += 1) {
        const flowing = response.write(lines[index]);
        if (index === 0) run.firstSentAt = now();
        if (!flowing) await new Promise((drained) => response.once('drain', drained));
      }
      run.lastSentAt = now();
      response.end(ending);
    });
  });
  await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
  endpoint.url = `http://127.0.0.1:${server.address().port}/v1`;
  endpoint.close = () => new Promise((closed) => server.close(closed));
  return endpoint;
};

/** The chat stream read by a plain fetch in this process (the endpoint's clock): when the marker arrived, and what it took. */
export const relayedByServer = (serverUrl) => readChat({ ...chatRequest, base: serverUrl });

/** The baseline: the endpoint's stream read and parsed by a plain fetch here, with no server between. */
export const readDirectly = async (endpointUrl) => {
  const response = await fetch(`${endpointUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let markerAt = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const line of lines) {
      if (!line.startsWith('data: {')) continue;
      const content = JSON.parse(line.slice(6)).choices[0].delta.content ?? '';
      if (!markerAt && content.includes(MARKER)) markerAt = now();
    }
  }
  return { markerAt };
};

/** Runs `measure` `times` times; the run with the median `by`. */
const medianRun = async (times, measure, by) => {
  const runs = [];
  for (let index = 0; index < times; index += 1) runs.push(await measure());
  return runs.sort((a, b) => by(a) - by(b))[Math.floor(times / 2)];
};

/** The page's floor (`readChat` showing the answer's last 2,000 characters) for the endpoint's current mode: last token painted after the endpoint sent it, and long tasks. */
const plainPageFigures = async (context, serverUrl, endpoint) => {
  const page = await context.newPage();
  try {
    await page.goto(`${serverUrl}/__bench/blank`);
    const offset = await clockOffset(page);
    await page.evaluate(watchForMarker, MARKER);
    await page.evaluate(readChat, { ...chatRequest, showLast: 2_000 });
    await page.waitForFunction(() => Boolean(window.__bench.paintAt), undefined, { timeout: STREAM_TIMEOUT_MS, polling: 100 });
    const shown = await page.evaluate(() => ({
      paintAt: window.__bench.paintAt,
      longTasks: window.__bench.longTasks.filter((task) => task.start >= window.__bench.watchFrom).map((task) => task.duration),
    }));
    return { paintLag: shown.paintAt - offset.offset - endpoint.runs.at(-1).lastSentAt, longTasks: shown.longTasks };
  } finally {
    await page.close();
  }
};

/**
 * The fast-model figures: the real server relaying a fake OpenAI-compatible endpoint that sends
 * the 100 kB answer unthrottled, then in one burst. For each: the server's relay lag (a plain
 * fetch here, on the endpoint's clock), then the chat screen in Chromium (last token painted
 * after the endpoint sent it, longest main-thread task).
 */
export const fastModelFigures = async ({
  spaDir,
  launchBrowser,
  root,
  modes = ['unthrottled', 'burst'],
  /** Optional: called before the question is sent; what it returns is called once the last token is painted (a profiler, say). */
  aroundPage,
}) => {
  const { startServer } = await tsImport(join(root, 'server', 'start.ts'), import.meta.url);
  const { generousLimits } = await tsImport(join(root, 'tests', 'load', 'generous-limits.ts'), import.meta.url);
  const answer = benchAnswer();
  const endpoint = await fakeModelEndpoint(answer);
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-bench-'));
  const server = await startServer({
    dataDir,
    host: '127.0.0.1',
    env: { LLM_BASE_URL: endpoint.url, LLM_MODEL: 'bench-fake', DATABASE_URL: '' },
    config: generousLimits,
    spaDir,
    log: () => undefined,
  });
  const browser = await launchBrowser();
  const figures = { answerChars: answer.length, tokens: endpoint.tokens };
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => localStorage.setItem('umi_locale', 'en-US'));
    await context.addInitScript(instrument);
    await context.route(`${server.url}/__bench/blank`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>plain</title>' }),
    );
    for (const mode of modes) {
      endpoint.mode = mode;
      // Median of a few runs: the relay is cheap to measure, and a run may meet a busy machine.
      const direct = await medianRun(RELAY_RUNS, async () => ({ ...(await readDirectly(endpoint.url)), run: endpoint.runs.at(-1) }), (read) => read.markerAt - read.run.lastSentAt);
      const relay = await medianRun(RELAY_RUNS, async () => ({ ...(await relayedByServer(server.url)), run: endpoint.runs.at(-1) }), (read) => read.markerAt - read.run.lastSentAt);
      const relayRun = relay.run;

      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('page error:', error.message));
      await page.goto(`${server.url}/chat`);
      const box = page.getByRole('textbox', { name: /Ask anything/ });
      await box.waitFor();
      const offset = await clockOffset(page);
      await box.fill('Please write the whole plan.');
      await page.evaluate(watchForMarker, MARKER);
      const profiled = await aroundPage?.(page);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => Boolean(window.__bench.paintAt), undefined, { timeout: STREAM_TIMEOUT_MS, polling: 100 });
      await profiled?.();
      const app = await page.evaluate(() => {
        const bench = window.__bench;
        // The chat response's last bytes, as the page's network stack saw them (its resource timing).
        const chat = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/sse/')).at(-1);
        return {
          bytesAt: chat && chat.responseEnd > 0 ? performance.timeOrigin + chat.responseEnd : undefined,
          domAt: bench.domAt,
          paintAt: bench.paintAt,
          endOnScreen: Boolean(bench.endOnScreen),
          noLongTask: Boolean(bench.noLongTask),
          longTasks: bench.longTasks.filter((task) => task.start >= bench.watchFrom).map((task) => task.duration),
        };
      });
      const appRun = endpoint.runs.at(-1);
      const sinceLastSend = (at) => (at === undefined ? undefined : at - offset.offset - appRun.lastSentAt);
      await page.close();
      const plain = await plainPageFigures(context, server.url, endpoint);
      figures[mode] = {
        relayLag: relay.markerAt - relayRun.lastSentAt,
        directLag: direct.markerAt - direct.run.lastSentAt,
        relayEvents: relay.events,
        relayBytes: relay.bytes,
        sendMs: relayRun.lastSentAt - relayRun.firstSentAt,
        paintLag: sinceLastSend(app.paintAt),
        /** The phases of `paintLag`: the page had the last bytes, then the end in its DOM, then painted. */
        bytesLag: sinceLastSend(app.bytesAt),
        domLag: sinceLastSend(app.domAt),
        longTasks: app.longTasks,
        noLongTask: app.noLongTask,
        endOnScreen: app.endOnScreen,
        offset,
        plain,
      };
    }
    return figures;
  } finally {
    await browser.close();
    await server.close();
    await endpoint.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
};
