import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentLanguage, AgentTranslations } from '../../src/contract/agents';
import { endpoints } from '../../src/contract/endpoints';
import { openHarness } from '../test/harness';
import { AGENTS } from './catalog';
import { AGENT_STARTERS } from './catalog-starters';
import { AGENT_WORDS } from './catalog-words';

/**
 * The seeded agents are ordinary agents in the database now, their words and starters editable
 * there: the market answers for each of them what it answered when they were read from the
 * catalogue's code (their fields then, word for word; the studio's fields beside them).
 */
const SEED_START = Date.UTC(2025, 0, 6, 9, 0, 0);
const DAY = 24 * 3600 * 1000;

/** The market's answer for a seeded agent, as it was computed from the catalogue. */
function asBefore(index: number): Agent {
  const seeded = AGENTS[index]!;
  const words = AGENT_WORDS[seeded.id];
  const starters = AGENT_STARTERS[seeded.id];
  const translations: AgentTranslations = {};
  for (const [language, entry] of Object.entries(words ?? {}) as [AgentLanguage, NonNullable<AgentTranslations[AgentLanguage]>][]) {
    translations[language] = starters ? { ...entry, starters: starters[language] } : entry;
  }
  return {
    id: seeded.id,
    agentId: seeded.id,
    name: seeded.name,
    avatar: seeded.avatar,
    intro: seeded.intro,
    category: seeded.category,
    createBy: seeded.creator.id,
    createByName: seeded.creator.name,
    updateBy: seeded.creator.id,
    updateByName: seeded.creator.name,
    versionId: `${seeded.id}-v1`,
    companyId: seeded.companyId,
    public: seeded.public,
    published: seeded.published,
    isDraft: seeded.isDraft,
    updatedAt: new Date(SEED_START + index * DAY).toISOString(),
    ...(words ? { translations } : {}),
    ...(starters ? { starters: starters['en-US'] } : {}),
    vision: false,
  };
}

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

describe('the seeded agents in the market', () => {
  it('answer as they did from the catalogue, to a visitor and to members of their organisations', async () => {
    const t = h.makeApp();
    const readers = [h.visitor(), (await h.loggedIn(t, { companyId: 'kraken' })).headers, (await h.loggedIn(t, { companyId: 'northwind' })).headers];
    let compared = 0;
    for (const [index, seeded] of AGENTS.entries()) {
      if (!seeded.published) continue;
      for (const headers of readers) {
        const reply = await t.get(endpoints.agentDetail.path, { agentId: seeded.id }, headers);
        if (reply.status === 404) continue;
        const { visibility, modelId, allowModelChoice, ...rest } = reply.body.data as Agent;
        expect(rest, seeded.id).toEqual(asBefore(index));
        expect({ visibility, modelId, allowModelChoice }).toEqual({ visibility: seeded.public ? 'public' : 'organisation', modelId: null, allowModelChoice: false });
        compared += 1;
      }
    }
    // Every published one, read by everyone who may see it.
    expect(compared).toBe(AGENTS.filter((a) => a.published && a.public).length * 3 + AGENTS.filter((a) => a.published && !a.public).length);
  });

  it('have a first version, and the draft one a draft that is on no market', async () => {
    const t = h.makeApp();
    const admin = (await h.loggedIn(t, { role: 'admin', companyId: 'kraken' })).headers;
    for (const seeded of AGENTS) {
      const versions = await t.post(endpoints.agentVersions.path, { agentId: seeded.id }, admin);
      expect(versions.body.data.list.map((version: { versionId: string; live: boolean }) => [version.versionId, version.live]), seeded.id).toEqual(
        seeded.published ? [[`${seeded.id}-v1`, true]] : [],
      );
    }
    const draft = await t.get(endpoints.agentDraft.path, { agentId: 'draft-seo-writer' }, admin);
    expect(draft.body.data).toMatchObject({ isDraft: true, published: false, versionId: null, content: { name: 'SEO Article Writer (draft)' } });
  });
});
