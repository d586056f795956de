import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { percentile } from '../load/visitor.mjs';
import { startLocalS3 } from '../../server/test/s3-server';
import { startFakeModel, startHeldLinkedIn, startInstance, startProxy, type Instance } from './harness';

/**
 * Three instances on one PostgreSQL and one S3-compatible store, behind a round-robin proxy:
 * what one instance starts, another continues, and limits hold across all of them.
 * Run by `npm run test:cluster`, which starts a throwaway PostgreSQL and sets DATABASE_URL.
 */

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const DEMO = { username: 'cluster-demo@kraken.local', password: 'cluster-Password-2026' };
const LOAD_STREAMS = Number(process.env.CLUSTER_LOAD_STREAMS ?? 1000);

let model: Awaited<ReturnType<typeof startFakeModel>>;
let store: Awaited<ReturnType<typeof startLocalS3>>;
let linkedin: Awaited<ReturnType<typeof startHeldLinkedIn>>;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let instances: Instance[] = [];
let env: Record<string, string>;

const post = async (base: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { code: number; data: Record<string, unknown>; msg: string } };
};

/** Reads an event stream until `done` says so (or it ends); answers the events so far. */
async function readEvents(response: Response, done: (events: ChatEvent[]) => boolean) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: ChatEvent[] = [];
  let buffer = '';
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop()!;
    for (const block of blocks)
      for (const line of block.split('\n')) if (line.startsWith('data: ')) events.push(JSON.parse(line.slice(6)) as ChatEvent);
  }
  void reader.cancel().catch(() => {});
  return events;
}
const textOf = (events: ChatEvent[]) => events.map((event) => (event.type === 'delta' ? event.text : '')).join('');

const logIn = async (base: string) => {
  const { status, body } = await post(base, endpoints.login.path, DEMO);
  expect(status, JSON.stringify(body)).toBe(200);
  return { authorization: `Bearer ${body.data.token as string}` };
};

describe.skipIf(!DATABASE_URL)('three instances on one PostgreSQL', () => {
  beforeAll(async () => {
    model = await startFakeModel();
    store = await startLocalS3('kraken-cluster');
    linkedin = await startHeldLinkedIn();
    env = {
      DATABASE_URL,
      ...store.env,
      LLM_BASE_URL: model.baseUrl,
      LLM_API_KEY: 'cluster-key',
      // a thousand visitors from one address (the test's) in a few seconds
      ADDRESS_QUESTIONS_PER_MINUTE: '1000000',
      ADDRESS_QUESTIONS_PER_DAY: '1000000',
      ADDRESS_CONVERSATIONS_PER_MINUTE: '1000000',
      ADDRESS_CONVERSATIONS_PER_DAY: '1000000',
      // the fake model holds every request until the round is released: no second one to name each chat
      MODEL_TITLES: 'off',
      DEMO_USERNAME: DEMO.username,
      DEMO_PASSWORD: DEMO.password,
      // answers and tasks of a killed instance are taken over quickly
      LEASE_SECONDS: '3',
      LEASE_RENEW_SECONDS: '1',
      PUBLISH_INTERVAL_SECONDS: '1',
      LINKEDIN_API_BASE: linkedin.url,
      LINKEDIN_ACCESS_TOKEN: 'cluster-linkedin-token',
      LINKEDIN_AUTHOR_URN: 'urn:li:person:cluster',
    };
    // All three at once on an empty database: migrations, seed and demo account race.
    const started = await Promise.allSettled(['a', 'b', 'c'].map((name) => startInstance(name, env)));
    instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    proxy = await startProxy(() => instances.map((instance) => instance.url));
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop('SIGKILL')));
    await store?.close();
    await linkedin?.close();
    await model?.close();
  });

  it('all three started together on an empty database, and each is ready', async () => {
    for (const instance of instances) {
      expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);
    }
  });

  it('a session made on one instance works on the others', async () => {
    const [a, b, c] = instances;
    const headers = await logIn(a!.url);
    for (const other of [b!, c!]) {
      const response = await fetch(`${other.url}${endpoints.userInfo.path}`, { headers });
      expect(response.status).toBe(200);
    }
  });

  it('an answer asked on one instance is read live on a second and stopped from a third', async () => {
    const [a, b, c] = instances;
    const headers = { ...(await logIn(a!.url)), 'content-type': 'application/json' };
    const created = await post(b!.url, endpoints.conversationCreate.path, { sourceId: 'SpecialNoAgentFallback' }, headers);
    const conversationId = created.body.data.conversationId as string;
    const asked = await fetch(`${b!.url}${endpoints.chat.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: '[long] Tell me everything.' }),
    });
    const first = await readEvents(asked, (events) => textOf(events).length > 20);
    const start = first.find((event) => event.type === 'start');
    if (start?.type !== 'start') throw new Error(`no start event: ${JSON.stringify(first)}`);
    const replyMessageId = start.replyMessageId;

    const resumed = await fetch(`${c!.url}${endpoints.chatResume.path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ conversationId, messageId: replyMessageId, offset: 0 }),
    });
    expect(resumed.status).toBe(200);
    const seenOnC = await readEvents(resumed, (events) => textOf(events).length > 200);
    expect(textOf(seenOnC).startsWith(textOf(first))).toBe(true);

    const stopped = await post(a!.url, endpoints.chatStop.path, { conversationId, messageId: replyMessageId }, headers);
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    const storedText = stopped.body.data.content as string;
    expect(storedText.startsWith(textOf(seenOnC))).toBe(true);

    const messages = await fetch(`${c!.url}${endpoints.messages.path}?conversationId=${conversationId}`, { headers });
    type Stored = { messageId: string; status: string; content: string };
    const list = ((await messages.json()) as { data: Stored[] }).data;
    const reply = list.find((message) => message.messageId === replyMessageId);
    expect(reply?.status).toBe('incomplete');
    expect(reply?.content).toBe(storedText);
  });

  it('a file uploaded through one instance is read through the others', async () => {
    const [a, b, c] = instances;
    const headers = await logIn(a!.url);
    const form = new FormData();
    const bytes = new TextEncoder().encode(`notes from the cluster test ${randomUUID()}`);
    form.set('file', new Blob([bytes], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await fetch(`${a!.url}${endpoints.upload.path}`, { method: 'POST', headers, body: form });
    expect(uploaded.status).toBe(200);
    const { url } = ((await uploaded.json()) as { data: { url: string } }).data;
    for (const other of [b!, c!]) {
      // A file is served to its owner only (ADR 028): the same account, through another instance.
      const read = await fetch(new URL(url, other.url), { headers });
      expect(read.status).toBe(200);
      expect(new Uint8Array(await read.arrayBuffer())).toEqual(bytes);
    }
  });

  it('failed logins count once across all instances', async () => {
    const account = { username: `nobody-${randomUUID()}@kraken.local`, password: 'wrong-Password-1' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 9; attempt += 1) {
      const instance = instances[attempt % instances.length]!;
      statuses.push((await post(instance.url, endpoints.login.path, account)).status);
    }
    // five wrong passwords are answered as such; after that every instance refuses
    expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429, 429]);
  });

  it(`${LOAD_STREAMS} people asking at once through the proxy all get their answers`, async () => {
    const results = await Promise.all(
      Array.from({ length: LOAD_STREAMS }, async () => {
        const headers = { 'content-type': 'application/json', 'x-visitor-id': randomUUID() };
        try {
          const created = await post(proxy.url, endpoints.conversationCreate.path, { sourceId: 'SpecialNoAgentFallback' }, headers);
          if (created.status !== 200) return { ok: false, firstEventMs: NaN, error: `create: HTTP ${created.status} ${created.body.msg}` };
          const conversationId = created.body.data.conversationId as string;
          const asked = performance.now();
          const response = await fetch(`${proxy.url}${endpoints.chat.path}`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'Quick one?' }),
            signal: AbortSignal.timeout(60_000),
          });
          if (response.status !== 200) return { ok: false, firstEventMs: NaN, error: `chat: HTTP ${response.status}` };
          let firstEventMs = NaN;
          const events = await readEvents(response, (seen) => {
            if (seen.length > 0 && Number.isNaN(firstEventMs)) firstEventMs = performance.now() - asked;
            return seen.some((event) => event.type === 'end' || event.type === 'error');
          });
          const ended = events.some((event) => event.type === 'end');
          return { ok: ended, firstEventMs, ...(ended ? {} : { error: `stream: ${JSON.stringify(events.at(-1) ?? null)}` }) };
        } catch (error) {
          const cause = (error as { cause?: { code?: string } }).cause;
          return { ok: false, firstEventMs: NaN, error: `${String(error)}${cause?.code ? ` (${cause.code})` : ''}` };
        }
      }),
    );
    const times = results.map((result) => result.firstEventMs);
    const failed = results.filter((result) => !result.ok);
    const errors = failed.length;
    const reasons = new Map<string, number>();
    for (const result of failed) reasons.set(String(result.error), (reasons.get(String(result.error)) ?? 0) + 1);
    console.log(
      `cluster load: ${LOAD_STREAMS} streams over ${instances.length} instances, errors ${errors}, ` +
        `time to first event p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms` +
        (errors ? `; errors: ${JSON.stringify([...reasons].slice(0, 5))}` : ''),
    );
    // What the instances said about answers (a takeover, a failed save) explains most failures here.
    if (errors) for (const instance of instances) console.log(`${instance.name}:\n${instance.output().split('\n').filter((line) => line.startsWith('answers:') || line.startsWith('chat:')).join('\n')}`);
    expect(errors).toBe(0);
  }, 120_000);

  it('a task whose instance is killed mid-publish is settled by another, and the platform gets one post', async () => {
    const headers = { ...(await logIn(instances[0]!.url)), 'content-type': 'application/json' };
    const created = await post(instances[0]!.url, endpoints.taskCreate.path, { platform: 'linkedin', title: 'Cluster note', body: 'Three instances, one post.', images: [] }, headers);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.data.id as string;
    await post(instances[0]!.url, endpoints.taskTransition.path, { id, action: 'markReady' }, headers);
    const scheduled = await post(instances[0]!.url, endpoints.taskTransition.path, { id, action: 'schedule', scheduledAt: new Date(Date.now() + 1500).toISOString() }, headers);
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
    await linkedin.arrived;

    // Kill instances until the one waiting on the platform is gone (its held connection drops).
    let publisherKilled = false;
    for (const instance of [...instances]) {
      await instance.stop('SIGKILL');
      instances = instances.filter((other) => other !== instance);
      publisherKilled = await Promise.race([linkedin.heldDropped.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000))]);
      if (publisherKilled) break;
    }
    expect(publisherKilled).toBe(true);
    if (instances.length === 0) instances.push(await startInstance('d', env));

    const survivor = instances[0]!;
    const again = { ...(await logIn(survivor.url)), 'content-type': 'application/json' };
    let task: { status: string; failureReason?: string | null } = { status: 'publishing' };
    for (let waited = 0; waited < 40 && (task.status === 'publishing' || task.status === 'scheduled'); waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const detail = await fetch(`${survivor.url}${endpoints.taskDetail.path}?id=${id}`, { headers: again });
      task = ((await detail.json()) as { data: { status: string; failureReason?: string | null } }).data;
    }
    // The post may have gone out, so it is not sent again: the task ends saying so.
    expect(task.status).toBe('failed');
    expect(task.failureReason ?? '').not.toBe('');
    expect(linkedin.posts()).toBe(1);
  }, 60_000);
});
