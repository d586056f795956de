import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { conversationPageSchema } from '../../src/contract/conversations';
import { defaultConfig } from '../config';
import { messages } from '../db/schema';
import { searchableContent, snippetAround } from '../services/search-text';
import { openHarness, type TestApp } from '../test/harness';
import { logQueries } from '../test/query-log';

const CREATE = '/api/workflow/im/conversation/create';
const LIST = '/api/workflow/agent-im/conversation';
const CHAT = '/api/workflow/sse/agent/chat';
const AGENT = 'SpecialNoAgentFallback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const start = async (t: TestApp, headers: Record<string, string>, title: string) =>
  (await t.post(CREATE, { sourceId: AGENT, title }, headers)).body.data.conversationId as string;

const ask = async (t: TestApp, headers: Record<string, string>, conversationId: string, text: string) => {
  const response = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ conversationId, agentId: AGENT, text }),
  });
  expect(response.status).toBe(200);
  await response.text();
};

type Listed = { conversationId: string; title: string; match?: string; matchAt?: { start: number; length: number } };
/** The words a listed snippet marks. */
const marked = (item: Listed) => (item.matchAt ? item.match!.slice(item.matchAt.start, item.matchAt.start + item.matchAt.length) : undefined);
const search = async (t: TestApp, headers: Record<string, string>, keyword: string) => {
  const reply = await t.post(LIST, { keyword }, headers);
  expect(reply.status).toBe(200);
  return v.parse(conversationPageSchema, reply.body.data).list as Listed[];
};

describe('searching conversations', () => {
  it('finds words inside messages, not only titles, with a snippet of where they are', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const bread = await start(t, headers, 'Weekend baking');
    await ask(t, headers, bread, 'How long should sourdough proof in a cold fridge overnight?');
    const titled = await start(t, headers, 'Sourdough starter');
    const other = await start(t, headers, 'Taxes');
    await ask(t, headers, other, 'When is the filing deadline?');

    const found = await search(t, headers, 'SOURDOUGH');
    expect(found.map((item) => item.conversationId).sort()).toEqual([bread, titled].sort());
    const inMessage = found.find((item) => item.conversationId === bread)!;
    expect(inMessage.match).toContain('sourdough proof');
    // found by its title alone: no snippet to show
    expect(found.find((item) => item.conversationId === titled)!.match).toBeUndefined();
    // a plain list has no snippets
    expect((await t.post(LIST, {}, headers)).body.data.list.every((item: Listed) => item.match === undefined)).toBe(true);
  });

  it('never finds someone else’s messages, and takes % and _ as themselves', async () => {
    const t = h.makeApp();
    const owner = await h.loggedIn(t);
    const mine = await start(t, owner.headers, 'Numbers');
    await ask(t, owner.headers, mine, 'Growth was 15% in Q1_2026');
    const other = await h.loggedIn(t);
    const theirs = await start(t, other.headers, 'Private');
    await ask(t, other.headers, theirs, 'My secret word is pumpernickel');

    expect(await search(t, owner.headers, 'pumpernickel')).toEqual([]);
    expect(await search(t, h.visitor(), 'pumpernickel')).toEqual([]);
    expect((await search(t, owner.headers, '15%')).map((item) => item.conversationId)).toEqual([mine]);
    expect(await search(t, owner.headers, '%')).toHaveLength(1);
    expect(await search(t, owner.headers, '5_%')).toEqual([]);
    expect((await search(t, owner.headers, 'Q1_2026'))[0]!.match).toContain('Q1_2026');
    expect((await t.post(LIST, { keyword: 'x'.repeat(101) }, owner.headers)).status).toBe(400);
  });

  it('ignores accents, letter width and case, in titles, questions and answers', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const coffee = await start(t, headers, 'Drinks');
    await ask(t, headers, coffee, 'Is a CAFÉ crème stronger than a latte?');
    const letters = await start(t, headers, 'Letters');
    await ask(t, headers, letters, 'What comes after ABC in the alphabet?');
    const wide = await start(t, headers, 'Ｗｉｄｅ ｎｏｔｅｓ');
    const resume = await start(t, headers, 'Résumé tips');
    const ids = (found: Listed[]) => found.map((item) => item.conversationId).sort();

    expect(ids(await search(t, headers, 'cafe creme'))).toEqual([coffee]);
    expect(ids(await search(t, headers, 'Café'))).toEqual([coffee]);
    expect(ids(await search(t, headers, 'ｃａｆé'))).toEqual([coffee]);
    expect(ids(await search(t, headers, 'ＡＢＣ'))).toEqual([letters]);
    expect(ids(await search(t, headers, 'wide notes'))).toEqual([wide]);
    expect(ids(await search(t, headers, 'RESUME'))).toEqual([resume]);
    // the offline responder's answer names its setting: found in the stored answer, not the question
    expect(ids(await search(t, headers, 'llm_base_url'))).toEqual([coffee, letters].sort());
    const snippet = (await search(t, headers, 'cafe'))[0]!;
    expect(marked(snippet)).toBe('CAFÉ');
  });

  it('shows a snippet as plain text, without markdown, with the words marked', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const notes = await start(t, headers, 'Notes');
    await ask(t, headers, notes, 'Run `npm ci` and **then** read [the café guide](https://x.io/cafe) at _noon_');

    const [found] = await search(t, headers, 'then read the cafe');
    expect(found!.conversationId).toBe(notes);
    // the newest message holding the words is the offline answer, which quotes the question
    expect(found!.match).toContain('Run npm ci and then read the café guide at noon');
    expect(marked(found!)).toBe('then read the café');
  });

  /** The statements one search sends, as the query log names them, and the whole text of those that read messages. */
  const statementsOf = async (t: TestApp, headers: Record<string, string>, keyword: string) => {
    const log = logQueries(h.database);
    try {
      const found = await search(t, headers, keyword);
      return { found, statements: [...log.statements], messageReads: log.texts.filter((text) => /from "messages"/i.test(text)) };
    } finally {
      log.stop();
    }
  };

  // What a search costs is counted, not timed (docs/testing.md): a query per conversation, or
  // messages read into the server to be searched there, grows with the history; these do not.
  it('sends the same few statements over a long history (5,000 messages in 50 conversations) as over one message, and filters in the database', async () => {
    // 50 conversations started at once: past the default 30 a minute.
    const t = h.makeApp({ config: { userQuotas: { ...defaultConfig.userQuotas, conversationsPerMinute: 50 } } });
    // someone with one conversation of two messages
    const newcomer = await h.loggedIn(t);
    const first = await start(t, newcomer.headers, 'First');
    await ask(t, newcomer.headers, first, 'A single needle-in-hay message');
    const short = await statementsOf(t, newcomer.headers, 'needle-in-hay');
    expect(short.found.map((item) => item.conversationId)).toEqual([first]);

    const { headers } = await h.loggedIn(t);
    const ids: string[] = [];
    for (let index = 0; index < 50; index += 1) ids.push(await start(t, headers, `Chat ${index}`));
    const now = new Date();
    const rows = ids.flatMap((conversationId, index) =>
      Array.from({ length: 100 }, (_, position) => ({
        id: randomUUID(),
        conversationId,
        role: (position % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant',
        content: `Message ${position} of chat ${index}: ${'lorem ipsum dolor sit amet '.repeat(20)}${index === 42 && position === 77 ? 'needle-in-hay' : ''}`,
        status: 'complete' as const,
        files: [],
        createdAt: now,
      })).map((row) => ({ ...row, contentSearch: searchableContent(row.content) })),
    );
    for (let from = 0; from < rows.length; from += 1000) await h.db.insert(messages).values(rows.slice(from, from + 1000));

    const long = await statementsOf(t, headers, 'needle-in-hay');
    expect(long.found.map((item) => item.conversationId)).toEqual([ids[42]]);
    expect(long.found[0]!.match).toContain('needle-in-hay');
    expect(long.statements).toEqual(short.statements);
    // words in every conversation: a page of them, each with its snippet, still in the same statements
    const everywhere = await statementsOf(t, headers, 'lorem ipsum');
    expect(everywhere.found.length).toBeGreaterThan(1);
    expect(everywhere.found.every((item) => item.match?.includes('lorem ipsum'))).toBe(true);
    expect(everywhere.statements).toEqual(short.statements);
    // who asks, the page, the count, the snippets
    expect(long.statements).toHaveLength(4);
    // each read of messages is filtered by the words there, and the snippets come one per conversation
    for (const { messageReads } of [long, everywhere]) {
      expect(messageReads.length).toBeGreaterThan(0);
      for (const text of messageReads) expect(text).toMatch(/ilike/i);
      expect(messageReads.some((text) => /distinct on/i.test(text))).toBe(true);
    }
  });
});

describe('the snippet', () => {
  it('shows the words in their sentence, cut with an ellipsis on each side it was cut, and where they are in it', () => {
    const long = `${'a'.repeat(50)} the needle here ${'b'.repeat(120)}`;
    const { match, matchAt } = snippetAround(long, 'NEEDLE');
    expect(match.startsWith('…')).toBe(true);
    expect(match.endsWith('…')).toBe(true);
    expect(match).toContain('the needle here');
    expect(match.slice(matchAt!.start, matchAt!.start + matchAt!.length)).toBe('needle');
    expect(snippetAround('short\n\nline', 'line')).toEqual({ match: 'short line', matchAt: { start: 6, length: 4 } });
  });

  it('reads markdown as plain text: code, emphasis, links, headings, lists and tables give their words', () => {
    const markdown = '# Tips\n\n- use `git log`\n- **bold** and ~~old~~\n\n| a | b |\n|---|---|\n| x &amp; y | z |\n\n```sh\nnpm ci\n```';
    expect(snippetAround(markdown, 'zzz').match).toBe('Tips use git log bold and old a b x & y z npm ci');
  });

  it('marks whole characters of the text, whatever their width or accents', () => {
    const { match, matchAt } = snippetAround('Un ＣＡＦＥ́ noir', 'cafe');
    expect(match.slice(matchAt!.start, matchAt!.start + matchAt!.length)).toBe('ＣＡＦＥ́');
  });
});
