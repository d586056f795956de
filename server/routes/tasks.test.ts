import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { PLATFORM_LIMITS, splitDrafts, taskPageSchema, taskSchema, type Task } from '../../src/contract/tasks';
import { openHarness, type TestApp } from '../test/harness';

const LIST = '/api/kraken/task/list';
const DETAIL = '/api/kraken/task/detail';
const CREATE = '/api/kraken/task/create';
const UPDATE = '/api/kraken/task/update';
const TRANSITION = '/api/kraken/task/transition';
const DELETE = '/api/kraken/task/delete';
const DRAFTING = '/api/kraken/task/drafting';
const VERIFY = '/api/kraken/session/verify';
const CHAT = '/api/workflow/sse/agent/chat';
const CONVERSATIONS = '/api/workflow/agent-im/conversation';
const CONVERSATION = '/api/workflow/agent-im/conversation/detail';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

type Headers = Record<string, string>;

async function create(t: TestApp, headers: Headers, body: Record<string, unknown>): Promise<Task> {
  const reply = await t.post(CREATE, body, headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return v.parse(taskSchema, reply.body.data);
}

async function uploadImage(t: TestApp, headers: Headers) {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'cover.png');
  const response = await t.raw('/api/media/upload', { method: 'POST', headers, body: form });
  return ((await response.json()) as { data: { fileId: string } }).data;
}

const readyNote = async (t: TestApp, headers: Headers) => {
  const image = await uploadImage(t, headers);
  return create(t, headers, {
    platform: 'xiaohongshu',
    title: '周末露营清单',
    body: '第一次露营带这些就够了 #露营 #周末',
    images: [{ fileId: image.fileId }],
    brief: { topic: '新手露营', keywords: ['露营'], language: 'zh-CN' },
  });
};

describe('the session check', () => {
  it('answers the operator and how each platform publishes', async () => {
    const t = h.makeApp();
    const { headers, user } = await h.operator(t, { nickname: 'Ops Lin' });
    const reply = await t.get(VERIFY, {}, headers);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ userId: user.id, nickname: 'Ops Lin', publishing: { xiaohongshu: 'export', linkedin: 'export' } });
  });

  it('answers 401 without a token, or with a forged one', async () => {
    const t = h.makeApp();
    expect((await t.get(VERIFY)).status).toBe(401);
    expect((await t.get(VERIFY, {}, h.visitor())).status).toBe(401);
    const forged = await t.get(VERIFY, {}, { authorization: 'Bearer forged-token-forged-token-123' });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe(1);
  });
});

describe('creating and reading tasks', () => {
  it('starts a task as a draft with a first history entry', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'linkedin', title: 'Launch week', body: 'We shipped. #launch' });
    expect(task).toMatchObject({ platform: 'linkedin', title: 'Launch week', status: 'draft', scheduledAt: null, images: [], drafts: [] });
    expect(task.history).toEqual([expect.objectContaining({ from: null, to: 'draft', by: 'operator' })]);
    expect(task.brief).toEqual({ topic: '', audience: '', tone: '', keywords: [], language: 'zh-CN' });
    const detail = await t.get(DETAIL, { id: task.id }, headers);
    expect(detail.body.data).toEqual(task);
  });

  it('refuses content beyond the platform limits with a clear message', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const longTitle = await t.post(CREATE, { platform: 'xiaohongshu', title: '这是一个超过二十个字的小红书标题真的太长了吧' }, headers);
    expect(longTitle.status).toBe(400);
    expect(longTitle.body.msg).toBe('This Xiaohongshu post does not fit: the title is longer than 20 characters.');
    const longBody = await t.post(CREATE, { platform: 'xiaohongshu', body: '字'.repeat(1001) }, headers);
    expect(longBody.status).toBe(400);
    expect(longBody.body.msg).toContain('the body is longer than 1000 characters');
    expect((await t.post(CREATE, { platform: 'linkedin', body: 'a'.repeat(3000) }, headers)).status).toBe(200);
    expect((await t.post(CREATE, { platform: 'linkedin', body: 'a'.repeat(3001) }, headers)).status).toBe(400);
    const tooMany = await t.post(CREATE, { platform: 'xiaohongshu', images: Array.from({ length: 10 }, (_, i) => ({ fileId: `f${i}` })) }, headers);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.msg).toContain('at most 9 images');
    const badPlatform = await t.post(CREATE, { platform: 'tiktok' }, headers);
    expect(badPlatform.status).toBe(400);
    expect(badPlatform.body.msg).toMatch(/^Invalid request: platform:/);
    const badLanguage = await t.post(CREATE, { platform: 'linkedin', brief: { topic: 'x', language: 'xx' } }, headers);
    expect(badLanguage.status).toBe(400);
  });

  it('counts an emoji as one character, as the composer does', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const family = '👨‍👩‍👧';
    const fits = await t.post(CREATE, { platform: 'xiaohongshu', title: `${family.repeat(10)}${'🇫🇷'.repeat(10)}` }, headers);
    expect(fits.status, JSON.stringify(fits.body)).toBe(200);
    const over = await t.post(CREATE, { platform: 'xiaohongshu', title: family.repeat(21) }, headers);
    expect(over.status).toBe(400);
    expect(over.body.msg).toContain('the title is longer than 20 characters');
  });

  it('attaches only the operator\'s own image uploads', async () => {
    const t = h.makeApp();
    const owner = await h.operator(t);
    const other = await h.operator(t);
    const image = await uploadImage(t, owner.headers);
    const mine = await create(t, owner.headers, { platform: 'xiaohongshu', images: [{ fileId: image.fileId }] });
    expect(mine.images).toEqual([expect.objectContaining({ fileId: image.fileId, kind: 'image', url: `/api/media/file/${image.fileId}` })]);
    const theirs = await t.post(CREATE, { platform: 'xiaohongshu', images: [{ fileId: image.fileId }] }, other.headers);
    expect(theirs.status).toBe(404);
  });

  it('keeps every call to the company: an operator of another company gets 404 not found', async () => {
    const t = h.makeApp();
    const owner = await h.operator(t);
    const other = await h.operator(t, { companyId: 'northwind' });
    const task = await create(t, owner.headers, { platform: 'linkedin', title: 'Mine', body: 'Text' });
    const attempts = [
      await t.get(DETAIL, { id: task.id }, other.headers),
      await t.post(UPDATE, { id: task.id, title: 'Stolen' }, other.headers),
      await t.post(TRANSITION, { id: task.id, action: 'markReady' }, other.headers),
      await t.post(DELETE, { id: task.id }, other.headers),
      await t.get(DETAIL, { id: 'no-such-task' }, owner.headers),
    ];
    for (const reply of attempts) {
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ code: 1, msg: 'Task not found' });
    }
    const list = await t.post(LIST, {}, other.headers);
    expect(list.body.data.total).toBe(0);
    expect((await t.get(DETAIL, { id: task.id }, owner.headers)).body.data.title).toBe('Mine');
  });

  it('needs a signed-in operator for every task call', async () => {
    const t = h.makeApp();
    for (const [path, body] of [[LIST, {}], [CREATE, { platform: 'linkedin' }], [UPDATE, { id: 'x' }], [TRANSITION, { id: 'x', action: 'markReady' }], [DELETE, { id: 'x' }], [DRAFTING, { platform: 'linkedin', brief: { topic: 'x' } }]] as const) {
      expect((await t.post(path, body, h.visitor())).status, path).toBe(401);
    }
    expect((await t.get(DETAIL, { id: 'x' })).status).toBe(401);
  });
});

describe('listing tasks', () => {
  it('filters by platform, status and title, pages newest first, and counts per status', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t, { companyId: await h.newCompany() });
    const a = await create(t, headers, { platform: 'linkedin', title: 'Hiring engineers', body: 'We are hiring.' });
    t.clock.advance(1000);
    await create(t, headers, { platform: 'xiaohongshu', title: '露营清单' });
    t.clock.advance(1000);
    await create(t, headers, { platform: 'linkedin', title: 'Quarterly hiring update', body: 'Numbers.' });
    t.clock.advance(1000);
    await t.post(TRANSITION, { id: a.id, action: 'markReady' }, headers);

    const all = v.parse(taskPageSchema, (await t.post(LIST, { pageSize: 2 }, headers)).body.data);
    expect(all.total).toBe(3);
    expect(all.list.map((task) => task.title)).toEqual(['Hiring engineers', 'Quarterly hiring update']);
    expect(all.counts).toMatchObject({ draft: 2, ready: 1, scheduled: 0 });
    const second = (await t.post(LIST, { pageSize: 2, current: 2 }, headers)).body.data;
    expect(second.list.map((task: Task) => task.title)).toEqual(['露营清单']);

    const linkedin = (await t.post(LIST, { platform: 'linkedin', keyword: 'HIRING' }, headers)).body.data;
    expect(linkedin.total).toBe(2);
    const ready = (await t.post(LIST, { platform: 'linkedin', status: 'ready' }, headers)).body.data;
    expect(ready.list.map((task: Task) => task.title)).toEqual(['Hiring engineers']);
    expect(ready.counts).toMatchObject({ draft: 1, ready: 1 });
    expect((await t.post(LIST, { status: 'gone' }, headers)).status).toBe(400);
    expect((await t.post(LIST, { keyword: '100%_' }, headers)).body.data.total).toBe(0);
  });
});

describe('editing tasks', () => {
  it('saves drafts, the chosen draft and its edited text', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'linkedin', title: 'Launch' });
    const drafts = [{ title: '', body: 'Draft one' }, { title: '', body: 'Draft two' }];
    t.clock.advance(5000);
    const reply = await t.post(UPDATE, { id: task.id, drafts, chosenDraft: 1, body: 'Draft two, edited #launch' }, headers);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ drafts, chosenDraft: 1, body: 'Draft two, edited #launch', title: 'Launch' });
    expect(Date.parse(reply.body.data.updatedAt)).toBeGreaterThan(Date.parse(task.updatedAt));
    const wrongChoice = await t.post(UPDATE, { id: task.id, chosenDraft: 5 }, headers);
    expect(wrongChoice.status).toBe(400);
    expect(wrongChoice.body.msg).toContain('there is no draft number 6');
  });

  it('keeps an approved task publishable and a published one unchanged', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await readyNote(t, headers);
    expect((await t.post(TRANSITION, { id: task.id, action: 'markReady' }, headers)).status).toBe(200);
    const emptied = await t.post(UPDATE, { id: task.id, body: '  ' }, headers);
    expect(emptied.status).toBe(400);
    expect(emptied.body.msg).toBe('This Xiaohongshu post is not ready: the body is empty.');
  });
});

describe('moving tasks on', () => {
  it('refuses to mark an incomplete note ready, saying what is missing', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'xiaohongshu', title: '' });
    const reply = await t.post(TRANSITION, { id: task.id, action: 'markReady' }, headers);
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe('This Xiaohongshu post is not ready: the title is empty; the body is empty; at least 1 image is needed.');
  });

  it('goes draft → ready → scheduled → ready → draft, recording each change', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await readyNote(t, headers);
    const at = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    expect((await t.post(TRANSITION, { id: task.id, action: 'schedule', scheduledAt: at }, headers)).status).toBe(409);
    await t.post(TRANSITION, { id: task.id, action: 'markReady' }, headers);
    const scheduled = await t.post(TRANSITION, { id: task.id, action: 'schedule', scheduledAt: at }, headers);
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', scheduledAt: at });
    const unscheduled = await t.post(TRANSITION, { id: task.id, action: 'unschedule' }, headers);
    expect(unscheduled.body.data).toMatchObject({ status: 'ready', scheduledAt: null });
    const back = await t.post(TRANSITION, { id: task.id, action: 'backToDraft' }, headers);
    expect(back.body.data.history.map((entry: { from: string | null; to: string }) => `${entry.from}→${entry.to}`)).toEqual([
      'null→draft',
      'draft→ready',
      'ready→scheduled',
      'scheduled→ready',
      'ready→draft',
    ]);
  });

  it('refuses a time in the past and an unknown action', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await readyNote(t, headers);
    await t.post(TRANSITION, { id: task.id, action: 'markReady' }, headers);
    const past = new Date(t.clock.now().getTime() - 3600_000).toISOString();
    const reply = await t.post(TRANSITION, { id: task.id, action: 'schedule', scheduledAt: past }, headers);
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toBe('The scheduled time is in the past; pick a time from now on.');
    expect((await t.post(TRANSITION, { id: task.id, action: 'publishEverywhere' }, headers)).status).toBe(400);
    expect((await t.post(TRANSITION, { id: task.id, action: 'schedule' }, headers)).status).toBe(400);
  });

  it('deletes a task with its history', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'linkedin' });
    expect((await t.post(DELETE, { id: task.id }, headers)).status).toBe(200);
    expect((await t.get(DETAIL, { id: task.id }, headers)).status).toBe(404);
  });
});

describe('drafting with a writer agent', () => {
  it('opens a conversation with the platform writer and asks for the drafts the brief describes', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const reply = await t.post(
      DRAFTING,
      { platform: 'xiaohongshu', count: 4, brief: { topic: '新手露营', audience: '上班族', tone: '轻松', keywords: ['露营', '装备'], language: 'zh-CN' } },
      headers,
    );
    expect(reply.status).toBe(200);
    const session = reply.body.data;
    expect(session).toMatchObject({ agentId: 'xhs-note-writer', agentName: '小红书笔记写手', count: 4 });
    expect(session.prompt).toContain('Write 4 different drafts for a Xiaohongshu (RED) note.');
    expect(session.prompt).toContain('Topic: 新手露营');
    expect(session.prompt).toContain('Keywords to work in: 露营, 装备');
    expect(session.prompt).toContain('Simplified Chinese');
    expect(session.prompt).toContain('[[DRAFT]]');

    const stream = await t.raw(CHAT, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ conversationId: session.conversationId, agentId: session.agentId, text: session.prompt }),
    });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('"type":"end"');

    // The drafts are the task's, not the person's chats: never in the history, nor found by its search.
    const history = await t.post(CONVERSATIONS, { source: 'agent' }, headers);
    expect(history.status).toBe(200);
    expect(history.body.data.list.map((one: { conversationId: string }) => one.conversationId)).not.toContain(session.conversationId);
    expect((await t.post(CONVERSATIONS, { source: 'agent', keyword: '露营' }, headers)).body.data.total).toBe(0);
    // The conversation itself stays the operator's, by its id (the drafts panel reads it back).
    const detail = await t.get(CONVERSATION, { conversationId: session.conversationId }, headers);
    expect(detail.status).toBe(200);
  });

  it("leaves the person's own chats in the history", async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const own = await t.post('/api/workflow/im/conversation/create', { source: 'agent', sourceId: 'xhs-note-writer' }, headers);
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    await t.post(DRAFTING, { platform: 'xiaohongshu', count: 2, brief: { topic: '新手露营', keywords: [], language: 'zh-CN' } }, headers);
    const history = await t.post(CONVERSATIONS, { source: 'agent' }, headers);
    expect(history.body.data.list.map((one: { conversationId: string }) => one.conversationId)).toEqual([own.body.data.conversationId]);
  });

  it('needs a topic and refuses too many drafts', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const empty = await t.post(DRAFTING, { platform: 'linkedin', brief: { topic: '  ' } }, headers);
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('Invalid request: brief.topic: write the topic of the post first.');
    expect((await t.post(DRAFTING, { platform: 'linkedin', count: 9, brief: { topic: 'x' } }, headers)).status).toBe(400);
  });
});

describe('splitting a writer answer into drafts', () => {
  it('drops the preamble, reads Xiaohongshu titles and keeps an unmarked answer whole', () => {
    const answer = 'Sure! Here they are.\n[[DRAFT]]\n标题：露营清单\n正文一 #露营\n\n[[DRAFT]]\n**周末去哪儿**\n正文二\n';
    expect(splitDrafts('xiaohongshu', answer)).toEqual([
      { title: '露营清单', body: '正文一 #露营' },
      { title: '周末去哪儿', body: '正文二' },
    ]);
    expect(splitDrafts('linkedin', 'One post only')).toEqual([{ title: '', body: 'One post only' }]);
    expect(splitDrafts('linkedin', '[[DRAFT]]\nA\n[[ DRAFT 2 ]]\nB')).toEqual([{ title: '', body: 'A' }, { title: '', body: 'B' }]);
  });
});

describe('drafts longer than the platform takes', () => {
  const longTitle = `${'Die besten Campingplätze rund um München für Anfänger mit Kindern und Hund '.repeat(2)}`.trim();
  const longBody = `${'Ein Satz über das Zelt, der nicht zu kurz ist. '.repeat(40)}#camping`;

  it('are cut to fit, and a task saved with them and the picked one is accepted', async () => {
    const answer = `[[DRAFT]]\n${longTitle}\n${longBody}\n[[DRAFT]]\n${'露营'.repeat(80)}\n正文`;
    const drafts = splitDrafts('xiaohongshu', answer, 'de-DE');
    expect(drafts[0]!.title).toBe('Die besten…');
    expect(drafts[0]!.body.length).toBeLessThanOrEqual(PLATFORM_LIMITS.xiaohongshu.bodyMax);
    expect(drafts[0]!.body).toMatch(/der nicht zu kurz ist\.$/);
    expect(drafts[1]!.title).toBe(`${'露营'.repeat(9)}…`);

    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'xiaohongshu', brief: { topic: 'Camping', language: 'de-DE' } });
    const saved = await t.post(UPDATE, { id: task.id, drafts, chosenDraft: 0, title: drafts[0]!.title, body: drafts[0]!.body }, headers);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(v.parse(taskSchema, saved.body.data).drafts).toEqual(drafts);
  });

  it('a draft over the server’s own limit is still refused', async () => {
    const t = h.makeApp();
    const { headers } = await h.operator(t);
    const task = await create(t, headers, { platform: 'linkedin' });
    const refused = await t.post(UPDATE, { id: task.id, drafts: [{ title: longTitle.repeat(2), body: 'x' }] }, headers);
    expect(refused.status).toBe(400);
  });
});
