import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { agentPageSchema, agentSchema, agentStarters, DEFAULT_AGENT_ID } from '../../src/contract/agents';
import { applicationPageSchema } from '../../src/contract/applications';
import { AGENTS } from '../seed/catalog';
import { AGENT_STARTERS } from '../seed/catalog-starters';
import { AGENT_WORDS } from '../seed/catalog-words';
import { openHarness } from '../test/harness';

const LIST = '/api/workflow/agent/published-list';
const DETAIL = '/api/workflow/agent/detail';
const APPS = '/api/workflow/application/list';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const ids = (reply: { body: { data: { list: { id: string }[] } } }) => reply.body.data.list.map((a) => a.id);

describe('agents market', () => {
  it('lists published public agents newest first, paged with the spec defaults', async () => {
    const t = h.makeApp();
    const reply = await t.post(LIST, {}, h.visitor());
    expect(reply.status).toBe(200);
    v.parse(agentPageSchema, reply.body.data);
    const visible = AGENTS.filter((a) => a.public && a.published && !a.isDraft);
    expect(visible.length).toBeGreaterThanOrEqual(9);
    expect(reply.body.data).toMatchObject({ total: visible.length, current: 1, pageSize: 10 });
    expect(ids(reply)).toEqual(visible.reverse().slice(0, 10).map((a) => a.id));
  });

  it('pages through the rest', async () => {
    const t = h.makeApp();
    const first = await t.post(LIST, { current: 1, pageSize: 4 });
    const second = await t.post(LIST, { current: 2, pageSize: 4 });
    expect(first.body.data.list).toHaveLength(4);
    expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
    const far = await t.post(LIST, { current: 99, pageSize: 4 });
    expect(far.body.data).toMatchObject({ list: [], current: 99 });
  });

  it('searches name and intro, and filters by category', async () => {
    const t = h.makeApp();
    expect(ids(await t.post(LIST, { keyword: 'linkedin' }))).toEqual(
      expect.arrayContaining(['linkedin-post-writer', 'linkedin-profile-coach']),
    );
    expect(ids(await t.post(LIST, { keyword: '小红书' }))).toEqual(expect.arrayContaining(['xhs-note-writer', 'xhs-title-polisher']));
    expect(ids(await t.post(LIST, { keyword: 'Xiaohongshu' }))).toContain('xhs-note-writer');
    expect(ids(await t.post(LIST, { keyword: '100%' }))).toEqual([]);
    const dev = await t.post(LIST, { category: 'development' });
    expect(ids(dev).sort()).toEqual(['code-review-buddy', 'sql-helper']);
  });

  it('shows a company agent only to users of that company, and drafts to nobody', async () => {
    const t = h.makeApp();
    const anonymous = ids(await t.post(LIST, { pageSize: 100 }));
    expect(anonymous).not.toContain('kraken-brand-voice');
    expect(anonymous).not.toContain('draft-seo-writer');
    const krakenUser = await h.loggedIn(t, { companyId: 'kraken' });
    const krakenList = ids(await t.post(LIST, { pageSize: 100 }, krakenUser.headers));
    expect(krakenList).toContain('kraken-brand-voice');
    expect(krakenList).not.toContain('northwind-campaign-planner');
    expect(krakenList).not.toContain('draft-seo-writer');
    const northwindUser = await h.loggedIn(t, { companyId: 'northwind' });
    const northwindList = ids(await t.post(LIST, { pageSize: 100 }, northwindUser.headers));
    expect(northwindList).toContain('northwind-campaign-planner');
    expect(northwindList).not.toContain('kraken-brand-voice');
  });

  it('refuses bad paging and oversize keywords with 400', async () => {
    const t = h.makeApp();
    for (const body of [{ current: 0 }, { pageSize: 101 }, { pageSize: '10' }, { keyword: 'x'.repeat(101) }, [1, 2]]) {
      const reply = await t.post(LIST, body);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 1, success: false });
    }
  });
});

describe('agent detail', () => {
  it('answers the default agent to anyone', async () => {
    const t = h.makeApp();
    const reply = await t.get(DETAIL, { agentId: DEFAULT_AGENT_ID });
    expect(reply.status).toBe(200);
    const agent = v.parse(agentSchema, reply.body.data);
    expect(agent).toMatchObject({ agentId: DEFAULT_AGENT_ID, name: 'Kraken Assistant', public: true, published: true, isDraft: false });
    expect(agent.avatar).toMatch(/^data:image\/svg\+xml/);
    expect(reply.body.data).not.toHaveProperty('systemPrompt');
  });

  it('gives every seeded agent its name and intro in the five languages', async () => {
    const t = h.makeApp();
    const reply = await t.get(DETAIL, { agentId: DEFAULT_AGENT_ID });
    const agent = v.parse(agentSchema, reply.body.data);
    expect(agent.translations?.['fr-FR']).toMatchObject({
      name: 'Assistant Kraken',
      intro: 'L’assistant polyvalent de Kraken AI : questions, rédaction, résumés, code et organisation du quotidien.',
    });
    for (const row of AGENTS) {
      const words = AGENT_WORDS[row.id];
      expect(Object.keys(words ?? {}).sort(), row.id).toEqual(['de-DE', 'en-US', 'fr-FR', 'ja', 'zh-CN']);
      for (const [language, { name, intro }] of Object.entries(words!)) {
        expect(name, `${row.id} ${language}`).not.toBe('');
        // only English may read like the English original
        if (language !== 'en-US') expect(intro, `${row.id} ${language}`).not.toBe(row.intro);
      }
    }
  });

  it('gives every seeded agent three or four starter questions in each of the five languages', async () => {
    const t = h.makeApp();
    const reply = await t.post(LIST, { pageSize: 50 });
    const page = v.parse(agentPageSchema, reply.body.data);
    expect(page.list.length).toBeGreaterThan(0);
    for (const agent of page.list) {
      expect(agent.starters?.length, agent.agentId).toBeGreaterThanOrEqual(3);
      expect(agent.starters).toEqual(AGENT_STARTERS[agent.agentId]?.['en-US']);
      for (const language of ['zh-CN', 'fr-FR', 'de-DE', 'ja'] as const) {
        const starters = agentStarters(agent, language);
        expect(starters.length, `${agent.agentId} ${language}`).toBeGreaterThanOrEqual(3);
        expect(starters.length).toBeLessThanOrEqual(4);
        // each language has its own words, never the English ones
        for (const [index, question] of starters.entries()) expect(question, `${agent.agentId} ${language}`).not.toBe(agent.starters![index]);
      }
    }
  });

  it('filters the market by category, and refuses an overlong one', async () => {
    const t = h.makeApp();
    const reply = await t.post(LIST, { category: 'development', pageSize: 50 });
    const expected = AGENTS.filter((a) => a.public && a.published && !a.isDraft && a.category === 'development').map((a) => a.id);
    expect(ids(reply).sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(await t.post(LIST, { category: 'no-such-category' }))).toEqual([]);
    expect((await t.post(LIST, { category: 'x'.repeat(51) })).status).toBe(400);
  });

  it('answers 404 for drafts, unknown ids and other companies’ agents', async () => {
    const t = h.makeApp();
    const outsider = await h.loggedIn(t, { companyId: 'northwind' });
    for (const [agentId, headers] of [
      ['draft-seo-writer', {}],
      ['no-such-agent', {}],
      ['kraken-brand-voice', {}],
      ['kraken-brand-voice', outsider.headers],
    ] as const) {
      const reply = await t.get(DETAIL, { agentId }, headers);
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ code: 1, msg: 'Agent not found' });
    }
    const insider = await h.loggedIn(t, { companyId: 'kraken' });
    expect((await t.get(DETAIL, { agentId: 'kraken-brand-voice' }, insider.headers)).status).toBe(200);
  });

  it('needs an agentId', async () => {
    const t = h.makeApp();
    const reply = await t.get(DETAIL);
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toContain('agentId');
  });
});

describe('applications', () => {
  it('lists published, non-draft applications the caller may see', async () => {
    const t = h.makeApp();
    const reply = await t.post(APPS, {});
    expect(reply.status).toBe(200);
    v.parse(applicationPageSchema, reply.body.data);
    expect(ids(reply).sort()).toEqual(['linkedin-weekly-digest', 'xhs-note-pipeline']);
    const northwind = await h.loggedIn(t, { companyId: 'northwind' });
    expect(ids(await t.post(APPS, {}, northwind.headers))).toContain('northwind-report-builder');
    expect(ids(await t.post(APPS, { keyword: 'linkedin' }))).toEqual(['linkedin-weekly-digest']);
    expect((await t.post(APPS, { pageSize: 0 })).status).toBe(400);
  });

  it('gives each seeded application its name and intro in the five languages, its own words kept', async () => {
    const t = h.makeApp();
    const list = v.parse(applicationPageSchema, (await t.post(APPS, {})).body.data).list;
    for (const application of list) {
      expect(Object.keys(application.translations ?? {}).sort()).toEqual(['de-DE', 'en-US', 'fr-FR', 'ja', 'zh-CN']);
      expect(application.translations?.['en-US']).toEqual({ name: application.name, intro: application.intro });
    }
    const digest = list.find((application) => application.id === 'linkedin-weekly-digest')!;
    expect(digest.translations?.ja?.name).toBe('LinkedIn 週間ダイジェスト');
    expect(digest.translations?.['zh-CN']?.intro).toContain('LinkedIn 帖子');
  });
});
