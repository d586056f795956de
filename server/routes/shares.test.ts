import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { sharedConversationSchema, shareSchema, SHARE_TOKEN_PATTERN } from '../../src/contract/shares';
import { openHarness, type TestApp } from '../test/harness';

const CREATE = '/api/workflow/im/conversation/create';
const CHAT = '/api/workflow/sse/agent/chat';
const SHARE = '/api/workflow/agent-im/share/create';
const LIST = '/api/workflow/agent-im/share/list';
const REVOKE = '/api/workflow/agent-im/share/revoke';
const READ = '/api/workflow/share/detail';
const AGENT = 'SpecialNoAgentFallback';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const ask = async (t: TestApp, headers: Record<string, string>, conversationId: string, text: string) => {
  const reply = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ conversationId, agentId: AGENT, text }),
  });
  expect(reply.status).toBe(200);
  await reply.text();
};

/** A signed-in owner with a conversation of one question and its answer. */
const ownerWithConversation = async (t: TestApp, nickname = 'Ada Owner') => {
  const owner = await h.loggedIn(t, { nickname });
  const conversationId = (await t.post(CREATE, { sourceId: AGENT }, owner.headers)).body.data.conversationId as string;
  await ask(t, owner.headers, conversationId, 'What is a **bold** idea? <img src=x onerror=alert(1)>');
  return { owner, conversationId };
};

describe('share links', () => {
  it('share a snapshot that anyone reads without a session, noindex, without the owner unless asked', async () => {
    const t = h.makeApp();
    const { owner, conversationId } = await ownerWithConversation(t);
    const made = await t.post(SHARE, { conversationId }, owner.headers);
    expect(made.status).toBe(200);
    const share = v.parse(shareSchema, made.body.data);
    expect(share).toMatchObject({ conversationId, showOwnerName: false, messageCount: 2 });
    expect(share.token).toMatch(SHARE_TOKEN_PATTERN);

    const read = await t.get(READ, { token: share.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('x-robots-tag')).toContain('noindex');
    const shared = v.parse(sharedConversationSchema, read.body.data);
    expect(shared.ownerName).toBeUndefined();
    // the text is stored and sent as written; the page renders it with the safe markdown renderer
    expect(shared.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(shared.messages[0]!.content).toBe('What is a **bold** idea? <img src=x onerror=alert(1)>');
    // nothing else of the owner's: no ids of theirs, no username
    const text = JSON.stringify(read.body.data);
    for (const secret of [conversationId, owner.username, owner.token]) expect(text).not.toContain(secret);

    // later messages are not in the snapshot
    await ask(t, owner.headers, conversationId, 'A later, private question');
    const again = await t.get(READ, { token: share.token });
    expect(again.body.data.messages).toHaveLength(2);
    expect(JSON.stringify(again.body.data)).not.toContain('private question');
  });

  it('show the owner’s name only when they choose it', async () => {
    const t = h.makeApp();
    const { owner, conversationId } = await ownerWithConversation(t, 'Grace Named');
    const share = (await t.post(SHARE, { conversationId, showOwnerName: true }, owner.headers)).body.data;
    expect((await t.get(READ, { token: share.token })).body.data.ownerName).toBe('Grace Named');
  });

  it('list attachments by name, type and size only, never their address', async () => {
    const t = h.makeApp();
    const owner = await h.loggedIn(t);
    const form = new FormData();
    form.append('file', new File(['hello shared notes'], 'notes.txt', { type: 'text/plain' }));
    const upload = await t.raw('/api/media/upload', { method: 'POST', headers: owner.headers, body: form });
    const file = ((await upload.json()) as { data: Record<string, unknown> }).data;
    const conversationId = (await t.post(CREATE, { sourceId: AGENT }, owner.headers)).body.data.conversationId as string;
    const chat = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...owner.headers },
      body: JSON.stringify({ conversationId, agentId: AGENT, text: 'See the file', files: [file] }),
    });
    await chat.text();
    const share = (await t.post(SHARE, { conversationId }, owner.headers)).body.data;
    const shared = (await t.get(READ, { token: share.token })).body.data;
    expect(shared.messages[0].files).toEqual([{ name: 'notes.txt', mimeType: file.mimeType, size: 18 }]);
    expect(JSON.stringify(shared)).not.toContain(String(file.fileId));
  });

  it('revoke: the link answers 404 from then on, from the list too', async () => {
    const t = h.makeApp();
    const { owner, conversationId } = await ownerWithConversation(t);
    const share = (await t.post(SHARE, { conversationId }, owner.headers)).body.data;
    expect((await t.post(LIST, { conversationId }, owner.headers)).body.data.map((item: { shareId: string }) => item.shareId)).toEqual([share.shareId]);
    expect((await t.post(REVOKE, { shareId: share.shareId }, owner.headers)).status).toBe(200);
    const gone = await t.get(READ, { token: share.token });
    expect(gone.status).toBe(404);
    expect(gone.headers.get('x-robots-tag')).toContain('noindex');
    expect((await t.post(LIST, {}, owner.headers)).body.data).toEqual([]);
    expect((await t.post(REVOKE, { shareId: share.shareId }, owner.headers)).status).toBe(404);
  });

  it('someone else cannot list, revoke or share your conversation', async () => {
    const t = h.makeApp();
    const { owner, conversationId } = await ownerWithConversation(t);
    const share = (await t.post(SHARE, { conversationId }, owner.headers)).body.data;
    const other = await h.loggedIn(t);
    expect((await t.post(LIST, {}, other.headers)).body.data).toEqual([]);
    expect((await t.post(LIST, { conversationId }, other.headers)).body.data).toEqual([]);
    expect((await t.post(REVOKE, { shareId: share.shareId }, other.headers)).status).toBe(404);
    expect((await t.post(SHARE, { conversationId }, other.headers)).status).toBe(404);
    // still there for its owner and its readers
    expect((await t.get(READ, { token: share.token })).status).toBe(200);
  });

  it('visitors without an account cannot share, list or revoke; nobody at all neither', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversationId = (await t.post(CREATE, { sourceId: AGENT }, visitor)).body.data.conversationId as string;
    for (const headers of [visitor, {}]) {
      expect((await t.post(SHARE, { conversationId }, headers)).status).toBe(401);
      expect((await t.post(LIST, {}, headers)).status).toBe(401);
      expect((await t.post(REVOKE, { shareId: conversationId }, headers)).status).toBe(401);
    }
  });

  it('refuse guessed and malformed tokens, and bad input', async () => {
    const t = h.makeApp();
    const { owner, conversationId } = await ownerWithConversation(t);
    const share = (await t.post(SHARE, { conversationId }, owner.headers)).body.data;
    const flipped = share.token.slice(0, -1) + (share.token.endsWith('A') ? 'B' : 'A');
    expect((await t.get(READ, { token: flipped })).status).toBe(404);
    for (const token of ['', 'short', share.token + 'x', `${share.token.slice(0, 42)}%`, "' OR 1=1 --"]) {
      expect((await t.get(READ, { token })).status, token).toBe(400);
    }
    expect((await t.get(READ)).status).toBe(400);
    expect((await t.post(SHARE, {}, owner.headers)).status).toBe(400);
    expect((await t.post(SHARE, { conversationId, showOwnerName: 'yes' }, owner.headers)).status).toBe(400);
    expect((await t.post(REVOKE, {}, owner.headers)).status).toBe(400);
    // two links of one conversation are two different secrets
    const second = (await t.post(SHARE, { conversationId }, owner.headers)).body.data;
    expect(second.token).not.toBe(share.token);
  });
});
