import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { startFakeModel, startInstance, type Instance } from './harness';

/**
 * The fault suite (`npm run test:faults`): real server processes, a model that writes `word0 …
 * word99` so that loss is countable, and the faults an operator meets: an instance killed or
 * paused mid-answer, the database gone for longer than a lease, a full disk. Each checks that the
 * stored answer starts with every character any reader was shown, that no reader was ever told to
 * drop text it had (a resume's offset is never below what the reader holds), and how long
 * recovery took; the times are printed as a table at the end.
 */

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const PG_CTL = process.env.PG_TEST_CTL ?? '';
const LEASE_SECONDS = 2;
const recoveries: { fault: string; database: string; recoveryMs: number; shown: number; stored: number; outcome: string }[] = [];
type Reader = ReturnType<typeof reader>;

let model: Awaited<ReturnType<typeof startFakeModel>>;
const running: Instance[] = [];
const cleanups: (() => void)[] = [];

const baseEnv = () => ({
  LLM_BASE_URL: model.baseUrl,
  LLM_API_KEY: 'faults-key',
  MODEL_TITLES: 'off',
  LEASE_SECONDS: String(LEASE_SECONDS),
  LEASE_RENEW_SECONDS: '0.5',
  ANSWER_STORE_RETRY_SECONDS: '30',
});

async function start(name: string, env: Record<string, string>, options: { dataDir?: string } = {}) {
  const instance = await startInstance(name, env, options);
  running.push(instance);
  return instance;
}

beforeAll(async () => {
  // A hundred pieces, 40 ms apart: an answer of four seconds.
  model = await startFakeModel({ longPieces: 100, gapMs: 40 });
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((instance) => instance.stop('SIGKILL')));
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});
afterAll(async () => {
  await model?.close();
  if (recoveries.length > 0) {
    console.log('\nfault                         database    recovery   shown  stored  outcome');
    for (const row of recoveries) {
      console.log(
        `${row.fault.padEnd(30)}${row.database.padEnd(12)}${`${(row.recoveryMs / 1000).toFixed(1)} s`.padStart(8)}${String(row.shown).padStart(8)}${String(row.stored).padStart(8)}  ${row.outcome}`,
      );
    }
  }
});

const json = async (base: string, path: string, visitor: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-visitor-id': visitor },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data: unknown; msg: string } };
};

/** One reader of one answer stream: what it was shown, in order, and how the stream ended. */
function reader(response: Response) {
  const events: ChatEvent[] = [];
  let text = '';
  const decoder = new TextDecoder();
  const body = response.body!.getReader();
  const closed = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await body.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop()!;
        for (const block of blocks)
          for (const line of block.split('\n')) {
            if (!line.startsWith('data: ')) continue;
            const event = JSON.parse(line.slice(6)) as ChatEvent;
            events.push(event);
            if (event.type === 'delta') text += event.text;
          }
      }
    } catch {
      // The instance died under the stream: what was shown stays shown.
    }
  })();
  return {
    events,
    text: () => text,
    closed,
    ending: () => events.findLast((event) => event.type !== 'delta')?.type ?? null,
    async until(ok: () => boolean, ms = 20_000) {
      const started = Date.now();
      while (!ok()) {
        if (Date.now() - started > ms) throw new Error(`not reached in ${ms} ms; shown ${text.length} characters, events ${events.map((e) => e.type).join(',')}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

async function ask(base: string) {
  const visitor = randomUUID();
  const created = await json(base, endpoints.conversationCreate.path, visitor, { sourceId: 'SpecialNoAgentFallback' });
  const conversationId = (created.body.data as { conversationId: string }).conversationId;
  const response = await fetch(`${base}${endpoints.chat.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-visitor-id': visitor },
    body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: '[long] count for me' }),
  });
  expect(response.status).toBe(200);
  const first = reader(response);
  await first.until(() => first.events.length > 0);
  const start = first.events[0] as Extract<ChatEvent, { type: 'start' }>;
  return { visitor, conversationId, reply: start.replyMessageId, first };
}

/** Reads the answer again from `offset`; checks the server never asks the reader to drop text it has. */
async function resume(base: string, asked: { visitor: string; conversationId: string; reply: string }, offset: number) {
  const response = await fetch(`${base}${endpoints.chatResume.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-visitor-id': asked.visitor },
    body: JSON.stringify({ conversationId: asked.conversationId, messageId: asked.reply, offset }),
  });
  expect(response.status).toBe(200);
  const again = reader(response);
  await again.until(() => again.events.length > 0);
  expect(again.events[0]).toEqual({ type: 'resume', messageId: asked.reply, offset });
  return again;
}

async function storedAnswer(base: string, asked: { visitor: string; conversationId: string; reply: string }) {
  const { status, body } = await json(base, `${endpoints.messages.path}?conversationId=${asked.conversationId}`, asked.visitor);
  expect(status).toBe(200);
  return (body.data as { messageId: string; content: string; status: string }[]).find((message) => message.messageId === asked.reply)!;
}

/** Every reader's text is the start of the stored answer: nothing shown was lost. */
function expectKept(stored: { content: string }, ...shown: string[]) {
  for (const text of shown) {
    expect(text.length).toBeGreaterThan(0);
    expect(stored.content.startsWith(text), `stored ${stored.content.length} characters; a reader was shown ${text.length}`).toBe(true);
  }
}

/** A row of the printed table: how long from the fault to the answer settled, what was shown and stored, how readers were told. */
const record = (fault: string, database: string, since: number, readers: Reader[], stored: { content: string; status: string }) =>
  recoveries.push({
    fault,
    database,
    recoveryMs: Date.now() - since,
    shown: Math.max(...readers.map((one) => one.text().length)),
    stored: stored.content.length,
    outcome: `${stored.status} (readers told: ${readers.map((one) => one.ending() ?? 'closed').join(', ')})`,
  });

describe.skipIf(!DATABASE_URL)('faults on PostgreSQL, two instances', () => {
  const env = () => ({ ...baseEnv(), DATABASE_URL });

  it('kill -9 of the instance writing an answer: the other takes it over after the lease and writes it on; every reader keeps what it saw', async () => {
    const [a, b] = [await start('a', env()), await start('b', env())];
    const asked = await ask(a.url);
    await asked.first.until(() => asked.first.text().split(' ').length > 20);
    const onB = await resume(b.url, asked, 0);
    await onB.until(() => onB.text().length > 0);

    await a.stop('SIGKILL');
    const killed = Date.now();
    await asked.first.closed;
    // The reader of A reloads: B continues from what it has, never from less.
    const again = await resume(b.url, asked, asked.first.text().length);
    await Promise.all([onB.closed, again.closed]);
    // Written on by B (CONTINUE_TAKEN_OVER, on by default): both readers read it to its end.
    expect(onB.ending()).toBe('end');
    expect(again.ending()).toBe('end');
    const stored = await storedAnswer(b.url, asked);
    expect(stored.status).toBe('complete');
    expect(stored.content).toBe(onB.text());
    expectKept(stored, asked.first.text() + again.text(), onB.text());
    record('kill -9 of the writer', 'PostgreSQL', killed, [again, onB], stored);
    expect(Date.now() - killed).toBeLessThan((LEASE_SECONDS + 5) * 1000);
  });

  it('the writer paused past its lease (a frozen machine): on waking it shows nothing more, and what it showed is stored', async () => {
    const [a, b] = [await start('a', env()), await start('b', env())];
    const asked = await ask(a.url);
    await asked.first.until(() => asked.first.text().split(' ').length > 20);
    const onB = await resume(b.url, asked, 0);
    await onB.until(() => onB.text().length > 0);

    a.signal('SIGSTOP');
    const paused = Date.now();
    // B takes the answer over once A's lease lapses, and writes it on; its reader sees it grow.
    const lengthBefore = onB.text().length;
    await onB.until(() => onB.text().length > lengthBefore);
    const takenOver = Date.now();
    const shownBefore = asked.first.text();
    a.signal('SIGCONT');
    // Awake, A finds the answer taken over at its next write or renewal: its reader's stream closes.
    await Promise.all([asked.first.closed, onB.closed]);
    expect(onB.ending()).toBe('end');
    const stored = await storedAnswer(b.url, asked);
    expect(stored.status).toBe('complete');
    // A may still hand on a write the database took before it froze (it is stored); nothing after.
    expect(asked.first.text().startsWith(shownBefore)).toBe(true);
    expectKept(stored, asked.first.text(), onB.text());
    record('writer paused past its lease', 'PostgreSQL', paused, [asked.first, onB], stored);
    expect(takenOver - paused).toBeLessThan((LEASE_SECONDS + 5) * 1000);
  });

  it.skipIf(!PG_CTL)('the database down for longer than a lease: readers wait, see nothing that is not stored, and the answer is kept', async () => {
    const [a, b] = [await start('a', env()), await start('b', env())];
    const asked = await ask(a.url);
    await asked.first.until(() => asked.first.text().split(' ').length > 20);
    const onB = await resume(b.url, asked, 0);
    await onB.until(() => onB.text().length > 0);

    execFileSync('bash', [PG_CTL, 'stop']);
    const down = Date.now();
    try {
      // A write acknowledged just before the stop may still be relayed; after that, nothing.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const shownAsItWent = asked.first.text();
      await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 700));
      // Nothing the database could not store was shown while it was away, though the model went on.
      expect(asked.first.text()).toBe(shownAsItWent);
    } finally {
      execFileSync('bash', [PG_CTL, 'start']);
    }
    const up = Date.now();
    const settled = await Promise.race([
      Promise.all([asked.first.closed, onB.closed]).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000)),
    ]);
    if (!settled) console.log(`A:\n${a.output().slice(-6000)}\nB:\n${b.output().slice(-6000)}\nreaders: A ${asked.first.ending()} ${asked.first.text().length}, B ${onB.ending()} ${onB.text().length}`);
    expect(settled).toBe(true);
    const stored = await storedAnswer(b.url, asked);
    expect(['complete', 'incomplete']).toContain(stored.status);
    expectKept(stored, asked.first.text(), onB.text());
    record(`database down ${((up - down) / 1000).toFixed(0)} s`, 'PostgreSQL', up, [asked.first, onB], stored);
  });
});

describe('faults on the embedded database', () => {
  // The suite runs beside a PostgreSQL (DATABASE_URL in the environment): these servers do without.
  const embeddedEnv = (more: Record<string, string> = {}) => ({ ...baseEnv(), DATABASE_URL: '', ...more });
  it('kill -9 and a restart: the restarted server writes the answer on from every character the reader saw', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kraken-faults-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await start('embedded', embeddedEnv(), { dataDir });
    const asked = await ask(first.url);
    await asked.first.until(() => asked.first.text().split(' ').length > 30);
    await first.stop('SIGKILL');
    const killed = Date.now();
    await asked.first.closed;
    const restarted = await start('embedded-again', embeddedEnv(), { dataDir });
    // The reader comes back (a reload): it reads the answer on from what it has, to its end.
    const again = await resume(restarted.url, asked, asked.first.text().length);
    await again.closed;
    expect(again.ending()).toBe('end');
    const stored = await storedAnswer(restarted.url, asked);
    expect(stored.status).toBe('complete');
    expect(stored.content).toBe(asked.first.text() + again.text());
    expectKept(stored, asked.first.text());
    record('kill -9 and restart', 'embedded', killed, [asked.first, again], stored);
  });

  const mountable = (() => {
    try {
      const probe = mkdtempSync(join(tmpdir(), 'kraken-mount-probe-'));
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
      execFileSync('umount', [probe]);
      rmSync(probe, { recursive: true });
      return true;
    } catch {
      return false;
    }
  })();

  // A disk of its own (tmpfs), filled mid-answer: needs the right to mount, as root has.
  it.skipIf(!mountable)('a disk filled mid-answer: readiness fails, new questions are refused before anything is stored, and nothing shown is lost', async () => {
    const disk = mkdtempSync(join(tmpdir(), 'kraken-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', disk]);
    cleanups.push(() => {
      execFileSync('umount', ['-l', disk]);
      rmSync(disk, { recursive: true, force: true });
    });
    const dataDir = join(disk, 'data');
    mkdirSync(dataDir);
    const env = embeddedEnv({ ANSWER_STORE_RETRY_SECONDS: '3', MIN_FREE_DISK_MB: '4' });
    const server = await start('embedded-full', env, { dataDir });
    const asked = await ask(server.url);
    await asked.first.until(() => asked.first.text().split(' ').length > 20);

    // Fill what is left, to the last block.
    const { bavail, bsize } = statfsSync(disk);
    const filler = join(disk, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(Number(bavail * bsize)));
    } catch {
      // ENOSPC at the end: the disk is full, as wanted.
    }
    const full = Date.now();
    await asked.first.closed;
    const shown = asked.first.text();
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
    const refused = await fetch(`${server.url}${endpoints.chat.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-visitor-id': asked.visitor },
      body: JSON.stringify({ conversationId: asked.conversationId, agentId: 'SpecialNoAgentFallback', text: 'one more' }),
    });
    expect(refused.status).toBe(507);

    // Room again, and a restart (the embedded database's sweep runs at start): what was shown is there.
    rmSync(filler);
    await server.stop('SIGKILL');
    const restarted = await start('embedded-room-again', env, { dataDir });
    // The reader comes back (a reload) and reads the answer on from what it was shown, to its end:
    // the restart's sweep may be writing it on (CONTINUE_TAKEN_OVER), so its row is read once the
    // reader's stream has ended, not while it may still be streaming.
    const again = await resume(restarted.url, asked, shown.length);
    await again.closed;
    const stored = await storedAnswer(restarted.url, asked);
    expect(['complete', 'incomplete']).toContain(stored.status);
    expectKept(stored, shown);
    expect(stored.content).toBe(shown + again.text());
    record('disk full', 'embedded', full, [asked.first, again], stored);
  });
});
