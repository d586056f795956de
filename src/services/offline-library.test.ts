import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetConversation, forgetKeptExcept, keepConversation, KEPT_LIMITS, newestThatFit, readKept, type ConversationToKeep, type KeptMessage } from './offline-library';
import { readOfflineKeeper } from './storage';

const question = (content: string): KeptMessage => ({ role: 'user', content, status: 'complete', sentAt: '2026-11-20T10:00:00.000Z' });
const answer = (content: string, status: KeptMessage['status'] = 'complete'): KeptMessage => ({ role: 'assistant', content, status, sentAt: '2026-11-20T10:00:05.000Z' });

const conversation = (id: string, messages: KeptMessage[] = [question(`Question of ${id}`), answer(`Answer of ${id}`)]): ConversationToKeep => ({
  conversationId: id,
  title: `Title of ${id}`,
  agentName: 'Baker',
  updatedAt: '2026-11-20T10:00:05.000Z',
  messages,
});

/** Each keep is read later than the one before (the library orders by when a conversation was read). */
let clock = Date.parse('2026-11-20T12:00:00.000Z');
const keep = async (userId: string, kept: ConversationToKeep) => {
  clock += 1000;
  vi.spyOn(Date, 'now').mockReturnValue(clock);
  await keepConversation(userId, kept);
};

afterEach(async () => {
  vi.restoreAllMocks();
  await forgetKeptExcept(null);
  // whose conversations are kept is noted beside them, in this browser's storage
  localStorage.clear();
});

describe('the conversations kept for reading offline', () => {
  it('gives back what was kept, the one read last first, and a conversation read again moves up with its new messages', async () => {
    await keep('ada', conversation('c1'));
    await keep('ada', conversation('c2'));
    await keep('ada', conversation('c1', [question('Question of c1'), answer('Answer of c1'), question('And then?'), answer('Then **this**.')]));

    const kept = await readKept('ada');
    expect(kept.map((item) => item.conversationId)).toEqual(['c1', 'c2']);
    expect(kept[0]).toMatchObject({ title: 'Title of c1', agentName: 'Baker', updatedAt: '2026-11-20T10:00:05.000Z', earlierLeftOut: false });
    expect(kept[0]!.messages.map((message) => message.content)).toEqual(['Question of c1', 'Answer of c1', 'And then?', 'Then **this**.']);
    // nothing of the library's own bookkeeping reaches the reader
    expect(Object.keys(kept[0]!).sort()).toEqual(['agentName', 'conversationId', 'earlierLeftOut', 'messages', 'readAt', 'title', 'updatedAt']);
    expect(readOfflineKeeper()).toBe('ada');
  });

  it("never gives one person another's conversations", async () => {
    await keep('ada', conversation('c1'));
    await keep('grace', conversation('c9'));
    expect((await readKept('ada')).map((item) => item.conversationId)).toEqual(['c1']);
    expect((await readKept('grace')).map((item) => item.conversationId)).toEqual(['c9']);
    expect(await readKept('nobody')).toEqual([]);
  });

  it(`keeps the ${KEPT_LIMITS.conversations} read last: the one read longest ago goes first`, async () => {
    for (let index = 1; index <= KEPT_LIMITS.conversations + 2; index += 1) await keep('ada', conversation(`c${index}`));
    const kept = (await readKept('ada')).map((item) => item.conversationId);
    expect(kept).toHaveLength(KEPT_LIMITS.conversations);
    expect(kept[0]).toBe(`c${KEPT_LIMITS.conversations + 2}`);
    expect(kept).not.toContain('c1');
    expect(kept).not.toContain('c2');
    expect(kept).toContain('c3');
  });

  it('keeps at most 2 MB per person: conversations read long ago give way to a large new one', async () => {
    // five conversations of about 450 kB each (under the room of one): only four fit in 2 MB
    const large = (id: string) => conversation(id, [question('Write it all'), answer(`${id} `.repeat(225_000))]);
    for (const id of ['a', 'b', 'c', 'd', 'e']) await keep('ada', large(id));
    expect((await readKept('ada')).map((item) => item.conversationId)).toEqual(['e', 'd', 'c', 'b']);
  });

  it('keeps the newest messages of a conversation too long for its room, and says older ones were left out', async () => {
    const long = Array.from({ length: 12 }, (_, index) => answer(`${index} `.padEnd(60_000, 'x')));
    await keep('ada', conversation('long', long));
    const [kept] = await readKept('ada');
    expect(kept!.earlierLeftOut).toBe(true);
    expect(kept!.messages.length).toBeLessThan(12);
    expect(kept!.messages.at(-1)!.content.startsWith('11 ')).toBe(true);
    expect(new TextEncoder().encode(JSON.stringify(kept!.messages)).length).toBeLessThanOrEqual(KEPT_LIMITS.conversationBytes);
  });

  it('measures text in bytes: a Chinese answer takes three bytes a character', () => {
    const chinese = [answer('你好'.repeat(100_000))];
    expect(newestThatFit(chinese).earlierLeftOut).toBe(true);
    expect(newestThatFit(chinese, 1024 * 1024)).toMatchObject({ earlierLeftOut: false });
  });

  it('is emptied of everyone but the person signed in, and of everyone when nobody is', async () => {
    await keep('ada', conversation('c1'));
    await keep('grace', conversation('c9'));
    await forgetKeptExcept('grace');
    expect(await readKept('ada')).toEqual([]);
    expect(await readKept('grace')).toHaveLength(1);
    expect(readOfflineKeeper()).toBe('grace');

    await forgetKeptExcept(null);
    expect(await readKept('grace')).toEqual([]);
    expect(readOfflineKeeper()).toBeNull();
  });

  it('takes out a conversation its person deleted', async () => {
    await keep('ada', conversation('c1'));
    await keep('ada', conversation('c2'));
    await forgetConversation('c1');
    expect((await readKept('ada')).map((item) => item.conversationId)).toEqual(['c2']);
  });

  it('writes a conversation kept just before a sign-out before the sign-out empties the library', async () => {
    const kept = keepConversation('ada', conversation('c1'));
    const emptied = forgetKeptExcept(null);
    await Promise.all([kept, emptied]);
    expect(await readKept('ada')).toEqual([]);
  });
});
