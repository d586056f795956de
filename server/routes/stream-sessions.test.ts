import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import type { ChatEvent } from '../../src/contract/chat';
import { eventReader, postJson, puppetRuntime, waitFor } from '../test/chat-client';
import { openHarness, testClock, type TestApp } from '../test/harness';

/** Streams belong to a session: signing it out ends them, on every instance; and one person may hold only a few. */

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const AGENT = 'SpecialNoAgentFallback';
type Headers = Record<string, string>;

/** Asks a question whose answer goes on until the puppet ends it; answers the open stream and the ids. */
async function askHeld(t: TestApp, who: Headers, puppet: ReturnType<typeof puppetRuntime>) {
  const conversationId = (await t.post(endpoints.conversationCreate.path, { sourceId: AGENT }, who)).body.data.conversationId as string;
  const response = await postJson(t, endpoints.chat.path, who, { conversationId, agentId: AGENT, text: 'Tell me a long story' });
  expect(response.status).toBe(200);
  const reader = eventReader(response);
  puppet.say('Once upon a time');
  await reader.untilText('Once upon a time');
  const start = reader.events.find((event): event is Extract<ChatEvent, { type: 'start' }> => event.type === 'start')!;
  return { reader, conversationId, messageId: start.replyMessageId };
}

const resume = (t: TestApp, who: Headers, ids: { conversationId: string; messageId: string }) =>
  postJson(t, endpoints.chatResume.path, who, { ...ids, offset: 0 });

/** Whether the stream ends (rather than waits for more) before the answer does. */
const endsWithoutTheAnswer = async (reader: ReturnType<typeof eventReader>) => {
  const events = await reader.rest();
  return !events.some((event) => event.type === 'end' || event.type === 'incomplete' || event.type === 'error');
};

describe('a signed-out session', () => {
  it('ends its answer and resume streams on another instance at the next check, while the answer goes on and is stored', async () => {
    const puppet = puppetRuntime();
    const clock = testClock();
    const a = h.makeApp({ clock, config: { sessionCheckMs: 50 } });
    const b = h.makeApp({ clock, runtime: puppet.runtime, config: { sessionCheckMs: 50 } });
    const account = await h.loggedIn(b);
    const held = await askHeld(b, account.headers, puppet);
    const resumed = eventReader(await resume(b, account.headers, held));
    await resumed.untilText('Once upon a time');

    expect((await a.post(endpoints.logout.path, undefined, account.headers)).status).toBe(200);
    expect(await endsWithoutTheAnswer(held.reader)).toBe(true);
    expect(await endsWithoutTheAnswer(resumed)).toBe(true);
    // The session cannot open another one.
    expect((await resume(b, account.headers, held)).status).toBe(401);

    // The answer was not stopped: it is stored whole, for its owner signed in again.
    puppet.say(' there was an end.');
    puppet.end();
    const again = await a.post(endpoints.login.path, { username: account.username, password: account.password });
    const headers = { authorization: `Bearer ${again.body.data.token as string}` };
    const stored = await waitFor(
      async () => (await a.get(endpoints.messages.path, { conversationId: held.conversationId }, headers)).body.data as { content: string; status: string }[],
      (messages) => messages.at(-1)?.status === 'complete',
    );
    expect(stored.at(-1)!.content).toBe('Once upon a time there was an end.');
  });

  it('ends its streams at once when revoked on the same instance, from the account page of another session', async () => {
    const puppet = puppetRuntime();
    // A check far away: only the revocation itself can end the stream within the test.
    const t = h.makeApp({ runtime: puppet.runtime, config: { sessionCheckMs: 3_600_000 } });
    const account = await h.loggedIn(t);
    const phone = await t.post(endpoints.login.path, { username: account.username, password: account.password });
    const phoneHeaders = { authorization: `Bearer ${phone.body.data.token as string}` };
    const held = await askHeld(t, phoneHeaders, puppet);
    const mine = eventReader(await resume(t, account.headers, held));
    await mine.untilText('Once upon a time');

    expect((await t.post(endpoints.sessionRevokeOthers.path, undefined, account.headers)).body.data).toEqual({ revoked: 1 });
    expect(await endsWithoutTheAnswer(held.reader)).toBe(true);
    // The caller's own session is kept, and so is its stream.
    puppet.say(' The end.');
    puppet.end();
    const events = await mine.rest();
    expect(events.at(-1)?.type).toBe('end');
  });
});

describe('open streams', () => {
  it('are at most 8 per person on an instance: the 9th is refused with 429 and Retry-After, and a place frees when one closes', async () => {
    const puppet = puppetRuntime();
    const t = h.makeApp({ runtime: puppet.runtime });
    const visitor = h.visitor();
    const held = await askHeld(t, visitor, puppet);
    const readers = [held.reader];
    for (let i = 0; i < 7; i++) {
      const response = await resume(t, visitor, held);
      expect(response.status).toBe(200);
      readers.push(eventReader(response));
    }
    const refused = await resume(t, visitor, held);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { msg: string }).msg).toMatch(/^You have 8 answer streams open/);
    // Someone else is not held back.
    expect((await postJson(t, endpoints.conversationCreate.path, h.visitor(), { sourceId: AGENT })).status).toBe(200);

    await readers.pop()!.cancel();
    await expect.poll(async () => {
      const response = await resume(t, visitor, held);
      if (response.status === 200) readers.push(eventReader(response));
      return response.status;
    }).toBe(200);
    puppet.end();
    for (const reader of readers) await reader.rest();
  });
});
