import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { conversationPageSchema, conversationSchema } from '../../src/contract/conversations';
import { eq } from 'drizzle-orm';
import { applications } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';

const CREATE = '/api/workflow/im/conversation/create';
const LIST = '/api/workflow/agent-im/conversation';
const DETAIL = '/api/workflow/agent-im/conversation/detail';
const UPDATE = '/api/workflow/agent-im/conversation/update';
const DELETE = '/api/workflow/agent-im/conversation/delete';
const MESSAGES = '/api/workflow/agent-im/messages';
const CHAT = '/api/workflow/sse/agent/chat';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

async function create(t: TestApp, headers: Record<string, string>, body: Record<string, unknown> = {}) {
  const reply = await t.post(CREATE, { sourceId: 'SpecialNoAgentFallback', ...body }, headers);
  expect(reply.status).toBe(200);
  return v.parse(conversationSchema, reply.body.data);
}

async function ask(t: TestApp, headers: Record<string, string>, conversationId: string, text: string) {
  const response = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text }),
  });
  expect(response.status).toBe(200);
  await response.text();
}

describe('creating conversations', () => {
  it('starts one with an agent, untitled until the first question names it', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const conversation = await create(t, headers);
    expect(conversation).toMatchObject({ source: 'agent', sourceId: 'SpecialNoAgentFallback', title: '', pinned: false });
    await ask(t, headers, conversation.conversationId, '  How do I write a   LinkedIn post about my new job at a startup in Berlin, with a short story?');
    const detail = await t.get(DETAIL, { conversationId: conversation.conversationId }, headers);
    expect(detail.body.data.title).toBe('How do I write a LinkedIn post about my new job at a startup…');
    await ask(t, headers, conversation.conversationId, 'Another question');
    expect((await t.get(DETAIL, { conversationId: conversation.conversationId }, headers)).body.data.title).toBe(
      'How do I write a LinkedIn post about my new job at a startup…',
    );
  });

  it('keeps a title given at creation', async () => {
    const t = h.makeApp();
    const conversation = await create(t, h.visitor(), { title: 'Trip to Kyoto' });
    expect(conversation.title).toBe('Trip to Kyoto');
  });

  it('accepts a workflow conversation for a visible application only', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    expect((await t.post(CREATE, { source: 'workflow', sourceId: 'xhs-note-pipeline' }, visitor)).status).toBe(200);
    expect((await t.post(CREATE, { source: 'workflow', sourceId: 'draft-video-scripts' }, visitor)).status).toBe(404);
  });

  it('refuses agents the caller cannot see, and bad input', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    expect((await t.post(CREATE, { sourceId: 'draft-seo-writer' }, visitor)).status).toBe(404);
    expect((await t.post(CREATE, { sourceId: 'kraken-brand-voice' }, visitor)).status).toBe(404);
    expect((await t.post(CREATE, {}, visitor)).status).toBe(400);
    expect((await t.post(CREATE, { sourceId: 'SpecialNoAgentFallback', source: 'robot' }, visitor)).status).toBe(400);
    expect((await t.post(CREATE, { sourceId: 'SpecialNoAgentFallback', title: 'x'.repeat(101) }, visitor)).status).toBe(400);
  });
});

describe('listing conversations', () => {
  it("answers the caller's own, pinned first then newest update first, paged, with keyword search", async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const a = await create(t, headers, { title: 'Alpha plans' });
    t.clock.advance(1000);
    const b = await create(t, headers, { title: 'Beta notes' });
    t.clock.advance(1000);
    const c = await create(t, headers, { title: 'Gamma plans' });
    t.clock.advance(1000);
    await ask(t, headers, a.conversationId, 'bump alpha');
    await t.post(UPDATE, { conversationId: b.conversationId, pinned: true }, headers);
    await create(t, h.visitor(), { title: 'someone else' });
    await t.post(CREATE, { source: 'workflow', sourceId: 'xhs-note-pipeline' }, headers);

    const list = await t.post(LIST, {}, headers);
    v.parse(conversationPageSchema, list.body.data);
    expect(list.body.data.list.map((x: { title: string }) => x.title)).toEqual(['Beta notes', 'Alpha plans', 'Gamma plans']);
    expect(list.body.data).toMatchObject({ total: 3, current: 1, pageSize: 10 });

    const page2 = await t.post(LIST, { current: 2, pageSize: 2 }, headers);
    expect(page2.body.data.list.map((x: { conversationId: string }) => x.conversationId)).toEqual([c.conversationId]);
    const search = await t.post(LIST, { keyword: 'plans' }, headers);
    expect(search.body.data.total).toBe(2);
    const workflows = await t.post(LIST, { source: 'workflow' }, headers);
    expect(workflows.body.data.total).toBe(1);
  });

  it('lists agent and workflow conversations together on request, each workflow one naming its application', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    const chat = await create(t, headers, { title: 'With an agent' });
    t.clock.advance(1000);
    const digest = await create(t, headers, { source: 'workflow', sourceId: 'linkedin-weekly-digest', title: 'Weekly digest' });
    expect(digest.application).toMatchObject({ name: 'LinkedIn Weekly Digest', intro: expect.stringContaining('LinkedIn posts') });
    expect(digest.application?.avatar).toMatch(/^data:image\//);
    expect(digest.application?.translations?.['fr-FR']?.name).toBe('Synthèse LinkedIn de la semaine');
    expect(chat.application).toBeUndefined();

    const both = await t.post(LIST, { sources: ['agent', 'workflow'] }, headers);
    const page = v.parse(conversationPageSchema, both.body.data);
    expect(page.list.map((x) => [x.title, x.source, x.application?.name])).toEqual([
      ['Weekly digest', 'workflow', 'LinkedIn Weekly Digest'],
      ['With an agent', 'agent', undefined],
    ]);
    expect((await t.post(LIST, {}, headers)).body.data.total).toBe(1);
    const detail = await t.get(DETAIL, { conversationId: digest.conversationId }, headers);
    expect(detail.body.data.application.name).toBe('LinkedIn Weekly Digest');
    const renamed = await t.post(UPDATE, { conversationId: digest.conversationId, pinned: true }, headers);
    expect(renamed.body.data.application.name).toBe('LinkedIn Weekly Digest');
  });

  it('names an application only while the caller may still see it', async () => {
    const t = h.makeApp();
    const { headers } = await h.loggedIn(t);
    await h.db.insert(applications).values({
      id: 'soon-withdrawn',
      name: 'Soon Withdrawn',
      avatar: '',
      intro: 'Here for a while.',
      companyId: 'kraken',
      public: true,
      published: true,
      isDraft: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    const conversation = await create(t, headers, { source: 'workflow', sourceId: 'soon-withdrawn' });
    expect(conversation.application?.name).toBe('Soon Withdrawn');
    await h.db.update(applications).set({ published: false }).where(eq(applications.id, 'soon-withdrawn'));
    const detail = await t.get(DETAIL, { conversationId: conversation.conversationId }, headers);
    expect(detail.status).toBe(200);
    expect(detail.body.data.application).toBeUndefined();
    const listed = await t.post(LIST, { sources: ['workflow'] }, headers);
    expect(listed.body.data.list).toEqual([expect.not.objectContaining({ application: expect.anything() })]);
  });

  it('refuses bad input and callers with no identity', async () => {
    const t = h.makeApp();
    expect((await t.post(LIST, {})).status).toBe(401);
    expect((await t.post(LIST, { source: 'nope' }, h.visitor())).status).toBe(400);
    expect((await t.post(LIST, { sources: [] }, h.visitor())).status).toBe(400);
    expect((await t.post(LIST, { sources: ['agent', 'robot'] }, h.visitor())).status).toBe(400);
    expect((await t.post(LIST, { sources: 'agent' }, h.visitor())).status).toBe(400);
    expect((await t.post(LIST, { sources: ['agent', 'workflow', 'agent'] }, h.visitor())).status).toBe(400);
    expect((await t.post(LIST, { pageSize: -1 }, h.visitor())).status).toBe(400);
  });
});

describe('one conversation', () => {
  it('renames and pins, without reordering by activity', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversation = await create(t, visitor);
    const renamed = await t.post(UPDATE, { conversationId: conversation.conversationId, title: '  New name ', pinned: true }, visitor);
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ title: 'New name', pinned: true, updatedAt: conversation.updatedAt });
    expect((await t.post(UPDATE, { conversationId: conversation.conversationId, title: '' }, visitor)).status).toBe(400);
    expect((await t.post(UPDATE, { conversationId: conversation.conversationId, pinned: 'yes' }, visitor)).status).toBe(400);
  });

  it('deletes with its messages', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversation = await create(t, visitor);
    await ask(t, visitor, conversation.conversationId, 'hello');
    expect((await t.get(MESSAGES, { conversationId: conversation.conversationId }, visitor)).body.data).toHaveLength(2);
    const deleted = await t.post(DELETE, { conversationId: conversation.conversationId }, visitor);
    expect(deleted.body).toMatchObject({ code: 0, data: null });
    expect((await t.get(DETAIL, { conversationId: conversation.conversationId }, visitor)).status).toBe(404);
    expect((await t.get(MESSAGES, { conversationId: conversation.conversationId }, visitor)).status).toBe(404);
    expect((await t.post(DELETE, { conversationId: conversation.conversationId }, visitor)).status).toBe(404);
  });

  it("refuses another owner's conversation as not found, on every endpoint", async () => {
    const t = h.makeApp();
    const owner = await h.loggedIn(t);
    const conversation = await create(t, owner.headers);
    await ask(t, owner.headers, conversation.conversationId, 'private question');
    const others = [(await h.loggedIn(t)).headers, h.visitor()];
    const conversationId = conversation.conversationId;
    for (const headers of others) {
      const replies = [
        await t.get(DETAIL, { conversationId }, headers),
        await t.get(MESSAGES, { conversationId }, headers),
        await t.post(UPDATE, { conversationId, title: 'mine now' }, headers),
        await t.post(DELETE, { conversationId }, headers),
      ];
      for (const reply of replies) {
        expect(reply.status).toBe(404);
        expect(reply.body).toMatchObject({ code: 1, msg: 'Conversation not found' });
      }
      expect((await t.post(LIST, {}, headers)).body.data.total).toBe(0);
    }
    expect((await t.get(DETAIL, { conversationId }, owner.headers)).body.data.title).toBe('private question');
    expect((await t.get(MESSAGES, { conversationId }, owner.headers)).body.data).toHaveLength(2);
  });

  it('answers messages oldest first with their status', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const conversation = await create(t, visitor);
    await ask(t, visitor, conversation.conversationId, 'first');
    await ask(t, visitor, conversation.conversationId, 'second');
    const messages = (await t.get(MESSAGES, { conversationId: conversation.conversationId }, visitor)).body.data;
    expect(messages.map((m: { role: string; status: string }) => `${m.role}:${m.status}`)).toEqual([
      'user:complete',
      'assistant:complete',
      'user:complete',
      'assistant:complete',
    ]);
    expect(messages[2].content).toBe('second');
    expect((await t.get(MESSAGES, {}, visitor)).status).toBe(400);
  });
});
