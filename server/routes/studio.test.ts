import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSchema } from '../../src/contract/agents';
import { endpoints } from '../../src/contract/endpoints';
import { AGENTS_PER_PERSON_MAX, agentDocumentSchema, studioAgentSchema } from '../../src/contract/studio';
import { agents } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { agentContent, makeAgent, publishedAgent } from '../test/studio-kit';
import { pngOf } from '../test/png';

/**
 * The agent studio: people make agents as drafts, try them, publish them as versions for
 * themselves, their organisation or (once an admin approves) everyone, restore an earlier
 * version, retire them, and carry them to another installation as a file.
 */
let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
let company: string;
let admin: Awaited<ReturnType<typeof h.loggedIn>>;
let author: Awaited<ReturnType<typeof h.loggedIn>>;
let colleague: Awaited<ReturnType<typeof h.loggedIn>>;
let stranger: Awaited<ReturnType<typeof h.loggedIn>>;

beforeAll(async () => {
  h = await openHarness();
  t = h.makeApp();
  company = await h.newCompany('Studio Works');
  admin = await h.loggedIn(t, { role: 'admin', companyId: await h.newCompany('Admins') });
  author = await h.loggedIn(t, { companyId: company });
  colleague = await h.loggedIn(t, { companyId: company });
  stranger = await h.loggedIn(t, { companyId: await h.newCompany('Elsewhere') });
});
afterAll(() => h.close());

const marketIds = async (headers: Record<string, string>) =>
  ((await t.post(endpoints.agentPublishedList.path, { pageSize: 100 }, headers)).body.data.list as { agentId: string }[]).map((a) => a.agentId);
const draftOf = async (agentId: string, headers = author.headers) => (await t.get(endpoints.agentDraft.path, { agentId }, headers)).body.data;

describe('a new agent', () => {
  it('is a draft on no market until it is published, with the content as saved', async () => {
    const saved = await t.post(endpoints.agentSave.path, agentContent({ starters: { 'en-US': ['Hi?'] }, parameters: { temperature: 1.2 } }), author.headers);
    expect(saved.status).toBe(200);
    const agent = v.parse(studioAgentSchema, saved.body.data);
    expect(agent).toMatchObject({ isDraft: true, hasDraft: true, versionId: null, published: false, approval: 'none', companyId: company });
    expect(agent.content).toMatchObject({ name: 'Test Bot', systemPrompt: 'You are Test Bot.', parameters: { temperature: 1.2 }, visibility: 'organisation' });
    // Given no avatar, it gets a generated one.
    expect(agent.content.avatar).toMatch(/^data:image\/svg\+xml/);
    for (const headers of [author.headers, colleague.headers, h.visitor()]) expect(await marketIds(headers)).not.toContain(agent.agentId);
    expect((await t.get(endpoints.agentDetail.path, { agentId: agent.agentId }, author.headers)).status).toBe(404);
  });

  it('is published to its organisation: its members see it, strangers and visitors do not', async () => {
    const { agentId, versionId } = await publishedAgent(t, author.headers);
    expect(versionId).toBeTruthy();
    expect(await marketIds(colleague.headers)).toContain(agentId);
    expect(await marketIds(author.headers)).toContain(agentId);
    expect(await marketIds(stranger.headers)).not.toContain(agentId);
    expect(await marketIds(h.visitor())).not.toContain(agentId);
    const detail = await t.get(endpoints.agentDetail.path, { agentId }, colleague.headers);
    expect(v.parse(agentSchema, detail.body.data)).toMatchObject({ name: 'Test Bot', versionId, visibility: 'organisation', isDraft: false, published: true });
    expect(detail.body.data).not.toHaveProperty('systemPrompt');
  });

  it('published privately is seen by its author only', async () => {
    const { agentId } = await publishedAgent(t, author.headers, { visibility: 'private' });
    expect(await marketIds(author.headers)).toContain(agentId);
    expect(await marketIds(colleague.headers)).not.toContain(agentId);
    expect((await t.post(endpoints.conversationCreate.path, { sourceId: agentId }, colleague.headers)).status).toBe(404);
    expect((await t.post(endpoints.conversationCreate.path, { sourceId: agentId }, author.headers)).status).toBe(200);
  });

  it('of someone in no organisation cannot be shared with one (AGENT_NO_ORGANISATION)', async () => {
    const loner = await h.loggedIn(t);
    const refused = await t.post(endpoints.agentSave.path, agentContent({ visibility: 'organisation' }), loner.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.reason).toBe('AGENT_NO_ORGANISATION');
    expect((await t.post(endpoints.agentSave.path, agentContent({ visibility: 'private' }), loner.headers)).status).toBe(200);
  });
});

describe('editing a published agent', () => {
  it('makes a draft beside it: the market keeps the published version until the draft is published', async () => {
    const { agentId, versionId } = await publishedAgent(t, author.headers, { name: 'Before' });
    const edited = await t.post(endpoints.agentSave.path, { agentId, ...agentContent({ name: 'After' }) }, author.headers);
    expect(edited.body.data).toMatchObject({ isDraft: true, hasDraft: true, versionId, published: true });
    expect((await t.get(endpoints.agentDetail.path, { agentId }, colleague.headers)).body.data.name).toBe('Before');
    const mine = await t.post(endpoints.agentMyList.path, {}, author.headers);
    expect(mine.body.data.list.find((a: { agentId: string }) => a.agentId === agentId)).toMatchObject({ name: 'After', hasDraft: true, published: true });
    const published = await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    expect(published.body.data.versionId).not.toBe(versionId);
    expect(published.body.data).toMatchObject({ hasDraft: false, isDraft: false });
    expect((await t.get(endpoints.agentDetail.path, { agentId }, colleague.headers)).body.data.name).toBe('After');
    // Nothing new to publish now.
    const again = await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    expect(again.status).toBe(409);
    expect(again.body.reason).toBe('AGENT_NOTHING_TO_PUBLISH');
  });

  it('keeps every version; an earlier one restored becomes the draft, and live again once published', async () => {
    const { agentId, versionId: first } = await publishedAgent(t, author.headers, { systemPrompt: 'One.' });
    await t.post(endpoints.agentSave.path, { agentId, ...agentContent({ systemPrompt: 'Two.' }) }, author.headers);
    const second = (await t.post(endpoints.agentPublish.path, { agentId }, author.headers)).body.data.versionId;
    const versions = await t.post(endpoints.agentVersions.path, { agentId }, author.headers);
    expect(versions.body.data.list.map((version: { versionId: string; live: boolean }) => [version.versionId, version.live])).toEqual([
      [second, true],
      [first, false],
    ]);
    const restored = await t.post(endpoints.agentRestore.path, { agentId, versionId: first }, author.headers);
    expect(restored.body.data).toMatchObject({ isDraft: true, versionId: second, content: { systemPrompt: 'One.' } });
    await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    expect((await t.post(endpoints.agentVersions.path, { agentId }, author.headers)).body.data.total).toBe(3);
    // A version of another agent is not this one's.
    const other = await publishedAgent(t, author.headers);
    expect((await t.post(endpoints.agentRestore.path, { agentId, versionId: other.versionId }, author.headers)).status).toBe(404);
  });
});

describe('the public market', () => {
  it('takes a version only once an admin approves it; until then the agent keeps its live version', async () => {
    const { agentId, versionId } = await publishedAgent(t, author.headers, { name: 'Shared first' });
    await t.post(endpoints.agentSave.path, { agentId, ...agentContent({ name: 'For everyone', visibility: 'public' }) }, author.headers);
    const sent = await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    expect(sent.body.data).toMatchObject({ approval: 'pending', versionId, hasDraft: false });
    const pendingId = sent.body.data.pendingVersionId as string;
    expect(await marketIds(stranger.headers)).not.toContain(agentId);
    expect((await t.get(endpoints.agentDetail.path, { agentId }, colleague.headers)).body.data.name).toBe('Shared first');

    const waiting = await t.post(endpoints.adminAgentReviewList.path, { pageSize: 100 }, admin.headers);
    expect(waiting.body.data.list.map((version: { versionId: string }) => version.versionId)).toContain(pendingId);
    expect(waiting.body.data.list.find((version: { versionId: string }) => version.versionId === pendingId).content.name).toBe('For everyone');
    const approved = await t.post(endpoints.adminAgentApprove.path, { versionId: pendingId }, admin.headers);
    expect(approved.body.data).toMatchObject({ status: 'published', live: true });
    expect(await marketIds(stranger.headers)).toContain(agentId);
    expect(await marketIds(h.visitor())).toContain(agentId);
    expect((await t.get(endpoints.agentDetail.path, { agentId }, h.visitor())).body.data).toMatchObject({ name: 'For everyone', versionId: pendingId, public: true });
    // Decided once: a second decision is refused.
    const twice = await t.post(endpoints.adminAgentReject.path, { versionId: pendingId, reason: 'Changed my mind' }, admin.headers);
    expect(twice.status).toBe(409);
    expect(twice.body.reason).toBe('AGENT_VERSION_NOT_PENDING');
  });

  it('refused by an admin, tells the author why, and the agent stays as it was', async () => {
    const agentId = await makeAgent(t, author.headers, { visibility: 'public', name: 'Never seen' });
    const sent = await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    const pendingId = sent.body.data.pendingVersionId as string;
    expect(sent.body.data).toMatchObject({ published: false, versionId: null, approval: 'pending' });
    await t.post(endpoints.adminAgentReject.path, { versionId: pendingId, reason: 'Too vague for everyone.' }, admin.headers);
    expect(await draftOf(agentId)).toMatchObject({ approval: 'rejected', rejectReason: 'Too vague for everyone.', published: false });
    expect(await marketIds(h.visitor())).not.toContain(agentId);
    const audit = await t.post(endpoints.adminAuditList.path, { action: 'agent.reject' }, admin.headers);
    expect(audit.body.data.list[0]).toMatchObject({ target: agentId });
  });

  it('is reached at once by an admin’s own publish; a newer publish withdraws a version still waiting', async () => {
    const own = await publishedAgent(t, admin.headers, { visibility: 'public' });
    expect(await marketIds(h.visitor())).toContain(own.agentId);
    const agentId = await makeAgent(t, author.headers, { visibility: 'public' });
    const first = (await t.post(endpoints.agentPublish.path, { agentId }, author.headers)).body.data.pendingVersionId;
    await t.post(endpoints.agentSave.path, { agentId, ...agentContent({ visibility: 'organisation' }) }, author.headers);
    expect((await t.post(endpoints.agentPublish.path, { agentId }, author.headers)).body.data).toMatchObject({ approval: 'none', published: true });
    const versions = await t.post(endpoints.agentVersions.path, { agentId }, author.headers);
    expect(versions.body.data.list.find((version: { versionId: string }) => version.versionId === first).status).toBe('withdrawn');
    expect((await t.post(endpoints.adminAgentApprove.path, { versionId: first }, admin.headers)).status).toBe(409);
  });
});

describe('an admin', () => {
  it('edits and publishes a seeded agent like any other, and lists every agent', async () => {
    const seeded = 'code-review-buddy';
    const opened = await draftOf(seeded, admin.headers);
    expect(opened).toMatchObject({ isDraft: false, versionId: `${seeded}-v1`, content: { name: 'Code Review Buddy' } });
    expect(opened.content.translations['fr-FR'].name).toBeTruthy();
    await t.post(endpoints.agentSave.path, { agentId: seeded, ...opened.content, intro: 'Reviews code, now editable.' }, admin.headers);
    await t.post(endpoints.agentPublish.path, { agentId: seeded }, admin.headers);
    const detail = await t.get(endpoints.agentDetail.path, { agentId: seeded }, h.visitor());
    expect(detail.body.data).toMatchObject({ intro: 'Reviews code, now editable.', public: true });
    expect(detail.body.data.translations['fr-FR'].starters.length).toBeGreaterThanOrEqual(3);
    const all = await t.post(endpoints.agentMyList.path, { scope: 'all', keyword: 'Review' }, admin.headers);
    expect(all.body.data.list.map((agent: { agentId: string }) => agent.agentId)).toContain(seeded);
    expect((await t.post(endpoints.agentMyList.path, { scope: 'all' }, author.headers)).status).toBe(403);
  });
});

describe('saving', () => {
  it('refuses an avatar that is not an image of the caller’s own, parameters out of range and unknown models', async () => {
    const form = new FormData();
    form.set('file', new File([pngOf(2, [0, 0, 255]) as Uint8Array<ArrayBuffer>], 'face.png'));
    const strangersUpload = ((await (await t.raw(endpoints.upload.path, { method: 'POST', body: form, headers: stranger.headers })).json()) as { data: { url: string } }).data.url;
    const refused = await t.post(endpoints.agentSave.path, agentContent({ avatar: strangersUpload }), author.headers);
    expect(refused.status).toBe(400);
    expect(refused.body.reason).toBe('AGENT_AVATAR_REFUSED');
    const mineForm = new FormData();
    mineForm.set('file', new File([pngOf(2, [0, 255, 0]) as Uint8Array<ArrayBuffer>], 'mine.png'));
    const mine = ((await (await t.raw(endpoints.upload.path, { method: 'POST', body: mineForm, headers: author.headers })).json()) as { data: { url: string } }).data.url;
    expect((await t.post(endpoints.agentSave.path, agentContent({ avatar: mine }), author.headers)).body.data.content.avatar).toBe(mine);
    expect((await t.post(endpoints.agentSave.path, agentContent({ avatar: 'https://evil.example/x.png' }), author.headers)).status).toBe(400);

    for (const parameters of [{ temperature: 2.5 }, { topP: -0.1 }, { maxOutput: 0 }, { temperature: '1' }]) {
      expect((await t.post(endpoints.agentSave.path, agentContent({ parameters } as never), author.headers)).status, JSON.stringify(parameters)).toBe(400);
    }
    const unknown = await t.post(endpoints.agentSave.path, agentContent({ modelId: 'no-such-model' }), author.headers);
    expect(unknown.body.reason).toBe('MODEL_UNKNOWN');
    expect((await t.post(endpoints.agentSave.path, agentContent({ systemPrompt: 'x'.repeat(20_001) }), author.headers)).status).toBe(400);
    expect((await t.post(endpoints.agentSave.path, agentContent({ starters: { 'en-US': ['1', '2', '3', '4', '5'] } }), author.headers)).status).toBe(400);
    expect((await t.post(endpoints.agentSave.path, agentContent({ visibility: 'everyone' } as never), author.headers)).status).toBe(400);
  });

  it('stops at the most agents one person may have', async () => {
    const busy = await h.loggedIn(t);
    const now = new Date();
    await h.db.insert(agents).values(
      Array.from({ length: AGENTS_PER_PERSON_MAX }, (_, i) => ({
        id: `busy-${busy.user.id}-${i}`,
        name: 'Filler',
        avatar: '',
        intro: '',
        systemPrompt: '',
        companyId: null,
        createBy: busy.user.id,
        createByName: 'Busy',
        updateBy: busy.user.id,
        updateByName: 'Busy',
        versionId: '',
        public: false,
        published: false,
        isDraft: true,
        visibility: 'private' as const,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const refused = await t.post(endpoints.agentSave.path, agentContent({ visibility: 'private' }), busy.headers);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('AGENT_LIMIT_REACHED');
  });
});

describe('retiring', () => {
  it('takes the agent off the market for good; the default agent cannot be retired', async () => {
    const { agentId } = await publishedAgent(t, author.headers);
    expect((await t.post(endpoints.agentDelete.path, { agentId }, author.headers)).status).toBe(200);
    expect(await marketIds(colleague.headers)).not.toContain(agentId);
    expect(await draftOf(agentId)).toMatchObject({ retired: true, published: false });
    const edit = await t.post(endpoints.agentSave.path, { agentId, ...agentContent() }, author.headers);
    expect(edit.status).toBe(409);
    expect(edit.body.reason).toBe('AGENT_RETIRED');
    const fallback = await t.post(endpoints.agentDelete.path, { agentId: 'SpecialNoAgentFallback' }, admin.headers);
    expect(fallback.status).toBe(409);
    expect(fallback.body.reason).toBe('AGENT_DEFAULT_KEPT');
  });
});

describe('export and import', () => {
  it('carries an agent to another account as a private draft, without ids of this installation', async () => {
    const { agentId } = await publishedAgent(t, author.headers, {
      systemPrompt: 'Portable prompt.',
      parameters: { temperature: 0.4 },
      starters: { 'en-US': ['Start here'], ja: ['ここから'] },
      translations: { ja: { name: 'テストボット', intro: '紹介' } },
      modelId: 'offline',
    });
    const exported = await t.get(endpoints.agentExport.path, { agentId }, author.headers);
    const document = v.parse(agentDocumentSchema, exported.body.data);
    expect(document).toMatchObject({ format: 'kraken-agent', version: 1, agent: { systemPrompt: 'Portable prompt.', model: { model: 'offline' } } });
    const text = JSON.stringify(document);
    for (const local of [agentId, author.user.id, company]) expect(text).not.toContain(local);

    const imported = await t.post(endpoints.agentImport.path, { document }, stranger.headers);
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({
      isDraft: true,
      published: false,
      createBy: stranger.user.id,
      content: { visibility: 'private', systemPrompt: 'Portable prompt.', parameters: { temperature: 0.4 }, starters: { ja: ['ここから'] } },
    });
    expect(imported.body.data.agentId).not.toBe(agentId);
  });

  it('gives a model this installation lacks its default, and refuses a document it does not know', async () => {
    const document = { format: 'kraken-agent', version: 1, agent: { name: 'Foreign', model: { model: 'model-from-elsewhere' } } };
    const imported = await t.post(endpoints.agentImport.path, { document }, author.headers);
    expect(imported.body.data.content.modelId).toBeNull();
    for (const bad of [
      { ...document, format: 'other' },
      { ...document, version: 2 },
      { ...document, agent: { ...document.agent, id: 'smuggled' } },
      { ...document, agent: { ...document.agent, starters: { xx: ['?'] } } },
      { ...document, agent: { ...document.agent, avatar: '/api/media/file/someone-elses' } },
      { ...document, agent: { ...document.agent, systemPrompt: 'x'.repeat(20_001) } },
      { ...document, extra: true },
    ]) {
      expect((await t.post(endpoints.agentImport.path, { document: bad }, author.headers)).status, JSON.stringify(bad).slice(0, 120)).toBe(400);
    }
    // A body beyond the limit of every JSON call is refused before it is read.
    const huge = await t.post(endpoints.agentImport.path, { document: { ...document, agent: { ...document.agent, intro: 'x'.repeat(2 * 1024 * 1024) } } }, author.headers);
    expect(huge.status).toBe(413);
  });
});
