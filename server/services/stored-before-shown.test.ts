import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../src/contract/chat';
import { endpoints } from '../../src/contract/endpoints';
import { messages } from '../db/schema';
import { eventReader, postJson, puppetRuntime } from '../test/chat-client';
import { refuseStatements } from '../test/database-faults';
import { openHarness, type TestApp } from '../test/harness';
import { takeOverAnswers } from './answer-leases';

// What a reader is shown is stored first: a database that does not take the answer's writes
// (gone, or its disk full) holds the text back from every reader instead of showing text that a
// crash would then lose.

const AGENT = 'SpecialNoAgentFallback';
type Start = Extract<ChatEvent, { type: 'start' }>;
/** The statements that write an answer's text: its saves and its end. */
const ANSWER_WRITES = /^update "messages" set "content"/;

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const storedRow = async (id: string) => (await h.db.select().from(messages).where(eq(messages.id, id)))[0]!;
const after = (ms: number) => new Promise<'later'>((resolve) => setTimeout(() => resolve('later'), ms));

async function asking(t: TestApp) {
  const headers = h.visitor();
  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, headers)).body.data.conversationId as string;
  const stream = eventReader(await postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text: 'Tell me' }));
  const start = (await stream.until((events) => events.length > 0))[0] as Start;
  return { stream, start, reply: start.replyMessageId };
}

describe('an answer is stored before it is shown', () => {
  it('while the database refuses its writes the reader is shown nothing new; once it takes them, the text arrives, stored', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { answerCommitMs: 10, answerStoreRetryMs: 30_000 } });
    const { stream, reply } = await asking(t);
    model.say('Stored first. ');
    await stream.untilText('Stored first. ');
    expect((await storedRow(reply)).content).toBe('Stored first. ');

    const fault = refuseStatements(h.database, ANSWER_WRITES);
    try {
      model.say('Held back.');
      const arriving = stream.untilText('Held back.');
      expect(await Promise.race([arriving, after(400)])).toBe('later');
      expect(fault.refused()).toBeGreaterThan(1); // tried again, not given up
      expect(stream.text()).toBe('Stored first. ');
      expect((await storedRow(reply)).content).toBe('Stored first. ');
      fault.heal();
      await arriving;
      // Once shown, it is stored: the reader never holds a character the row does not.
      expect((await storedRow(reply)).content.startsWith(stream.text())).toBe(true);
    } finally {
      fault.restore();
    }
    model.end();
    expect((await stream.rest()).at(-1)).toMatchObject({ type: 'end' });
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Stored first. Held back.' });
  });

  it("the answer's end is tried again while the database is away, and the rest of the text is shown once it is stored", async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { answerCommitMs: 10, answerStoreRetryMs: 30_000 } });
    const { stream, start, reply } = await asking(t);
    model.say('Begun.');
    await stream.untilText('Begun.');
    const fault = refuseStatements(h.database, ANSWER_WRITES);
    try {
      model.say(' Finished.');
      model.end();
      const ending = stream.rest();
      expect(await Promise.race([ending, after(400)])).toBe('later');
      expect(stream.text()).toBe('Begun.');
      fault.heal();
      const events = await ending;
      expect(events.at(-1)).toEqual({ type: 'end', messageIds: [start.userMessageId, reply] });
      expect(stream.text()).toBe('Begun. Finished.');
    } finally {
      fault.restore();
    }
    expect(await storedRow(reply)).toMatchObject({ status: 'complete', content: 'Begun. Finished.', leaseOwner: null });
  });

  it('a database away for longer than the answer may wait ends it as failed, with only stored text shown; a sweep then keeps it incomplete', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, instanceId: 'instance-cut-off', config: { answerCommitMs: 10, answerStoreRetryMs: 300 } });
    const { stream, reply } = await asking(t);
    model.say('Seen and kept.');
    await stream.untilText('Seen and kept.');
    const fault = refuseStatements(h.database, ANSWER_WRITES);
    let events: ChatEvent[];
    try {
      model.say(' Never seen.');
      events = await stream.rest();
    } finally {
      fault.restore();
    }
    const ending = events.at(-1) as Extract<ChatEvent, { type: 'error' }>;
    expect(ending.type).toBe('error');
    expect(ending.ref).toBeTruthy();
    expect(stream.text()).toBe('Seen and kept.');
    expect(t.logs.some((line) => line.includes(`ref ${ending.ref}`) && line.includes('did not store the answer'))).toBe(true);
    // The row still says streaming with the text the reader saw; its lease lapses and a sweep ends it.
    expect(await storedRow(reply)).toMatchObject({ status: 'streaming', content: 'Seen and kept.' });
    await h.db.update(messages).set({ leaseExpiresAt: new Date(0) }).where(eq(messages.id, reply));
    expect(await takeOverAnswers(h.db, 'instance-sweeping')).toContain(reply);
    expect(await storedRow(reply)).toMatchObject({ status: 'incomplete', content: 'Seen and kept.', contentSearch: 'seen and kept.' });
    model.end();
  });

  it('pieces that come faster than the interval are stored in one write, then shown together', async () => {
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, config: { answerCommitMs: 300 } });
    const { stream, reply } = await asking(t);
    model.say('a');
    await stream.untilText('a');
    for (const piece of ['b', 'c', 'd']) model.say(piece);
    await stream.untilText('abcd');
    const deltas = stream.events.filter((event) => event.type === 'delta').map((event) => (event as { text: string }).text);
    expect(deltas).toEqual(['a', 'bcd']);
    model.end();
    await stream.rest();
    expect((await storedRow(reply)).content).toBe('abcd');
  });

  it('a full disk refuses a question before anything is stored or shown, in a sentence and a status the page translates', async () => {
    let room: string | null = 'disk space low: 12 MB free in /data, at least 100 MB needed';
    const model = puppetRuntime();
    const t = h.makeApp({ runtime: model.runtime, storageRoom: async () => room });
    const headers = h.visitor();
    const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, headers)).body.data.conversationId as string;
    const refused = await postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text: 'Will this be kept?' });
    expect(refused.status).toBe(507);
    expect(refused.headers.get('content-type')).toContain('application/json');
    expect(await refused.json()).toMatchObject({ code: 1, msg: expect.stringContaining('no room left') });
    expect(model.asked()).toBe(0);
    expect(await h.db.select().from(messages).where(eq(messages.conversationId, conversationId))).toEqual([]);
    expect(t.logs.some((line) => line.includes('12 MB free'))).toBe(true);
    // Room again: the same question is answered.
    room = null;
    const stream = eventReader(await postJson(t, endpoints.chat.path, headers, { conversationId, agentId: AGENT, text: 'Will this be kept?' }));
    model.say('Yes.');
    model.end();
    expect((await stream.rest()).at(-1)).toMatchObject({ type: 'end' });
  });
});
