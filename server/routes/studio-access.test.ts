import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../../src/contract/endpoints';
import { openHarness, type TestApp } from '../test/harness';
import { agentContent, makeAgent, publishedAgent } from '../test/studio-kit';

/**
 * Who may do what in the studio, for every call, as five people: a visitor, a stranger (signed
 * in, another organisation), a member of the author's organisation who is not the author, the
 * author, and an admin. Someone who may not edit an agent is told it does not exist (404, not
 * 403), so agents' ids tell nothing; visitors make no agents.
 */
let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
type Who = 'visitor' | 'stranger' | 'member' | 'author' | 'admin';
const people = {} as Record<Who, Record<string, string>>;
const WHO: Who[] = ['visitor', 'stranger', 'member', 'author', 'admin'];

beforeAll(async () => {
  h = await openHarness();
  t = h.makeApp();
  const company = await h.newCompany('Authors Ltd');
  people.visitor = h.visitor();
  people.stranger = (await h.loggedIn(t, { companyId: await h.newCompany('Strangers Ltd') })).headers;
  people.member = (await h.loggedIn(t, { companyId: company })).headers;
  people.author = (await h.loggedIn(t, { companyId: company })).headers;
  people.admin = (await h.loggedIn(t, { role: 'admin', companyId: await h.newCompany('Admins Ltd') })).headers;
});
afterAll(() => h.close());

/** Sends a call of the contract with its input where the contract says it travels. */
async function call(name: EndpointName, headers: Record<string, string>, input: Record<string, unknown> = {}) {
  const endpoint = endpoints[name];
  return endpoint.method === 'GET' ? t.get(endpoint.path, input as Record<string, string>, headers) : t.post(endpoint.path, input, headers);
}

/** The statuses each person gets, in the order of WHO. */
const expectStatuses = async (name: EndpointName, input: (who: Who) => Promise<Record<string, unknown>> | Record<string, unknown>, wanted: number[]) => {
  const got: number[] = [];
  for (const who of WHO) got.push((await call(name, people[who], await input(who))).status);
  expect(got, `${name} as ${WHO.join(', ')}`).toEqual(wanted);
};

const EDITORS_ONLY = [401, 404, 404, 200, 200];

describe("an agent's own calls", () => {
  it('save: anyone signed in makes an agent, only its author or an admin changes it', async () => {
    await expectStatuses('agentSave', () => agentContent({ visibility: 'private' }), [401, 200, 200, 200, 200]);
    const agentId = await makeAgent(t, people.author);
    await expectStatuses('agentSave', () => ({ agentId, ...agentContent({ name: 'Changed' }) }), EDITORS_ONLY);
  });

  it('publish', async () => {
    const agentId = await makeAgent(t, people.author);
    // Each who may gets a draft to publish first.
    await expectStatuses(
      'agentPublish',
      async (who) => {
        if (who === 'author' || who === 'admin') await call('agentSave', people.author, { agentId, ...agentContent({ name: `By ${who}` }) });
        return { agentId };
      },
      EDITORS_ONLY,
    );
  });

  it('draft, versions, export', async () => {
    const { agentId } = await publishedAgent(t, people.author);
    for (const name of ['agentDraft', 'agentVersions', 'agentExport'] as const) await expectStatuses(name, () => ({ agentId }), EDITORS_ONLY);
  });

  it('restore', async () => {
    const { agentId, versionId } = await publishedAgent(t, people.author);
    await expectStatuses('agentRestore', () => ({ agentId, versionId }), EDITORS_ONLY);
  });

  it('delete (retire)', async () => {
    const byAuthor = (await publishedAgent(t, people.author)).agentId;
    const byAdmin = (await publishedAgent(t, people.author)).agentId;
    await expectStatuses('agentDelete', (who) => ({ agentId: who === 'admin' ? byAdmin : byAuthor }), EDITORS_ONLY);
  });

  it('import: anyone signed in, as a private draft of their own', async () => {
    const document = { format: 'kraken-agent', version: 1, agent: { name: 'Imported' } };
    await expectStatuses('agentImport', () => ({ document }), [401, 200, 200, 200, 200]);
  });

  it("a preview of the draft: its author and admins only", async () => {
    const agentId = await makeAgent(t, people.author);
    await expectStatuses('conversationCreate', () => ({ sourceId: agentId, preview: true }), EDITORS_ONLY);
  });

  it("my-list: each signed-in person's own agents; every agent to an admin asking for all", async () => {
    const agentId = await makeAgent(t, people.author);
    const listed = async (who: Who, scope: 'mine' | 'all' = 'mine') => {
      const reply = await call('agentMyList', people[who], { scope, pageSize: 100 });
      return { status: reply.status, ids: reply.status === 200 ? (reply.body.data.list as { agentId: string }[]).map((a) => a.agentId) : [] };
    };
    expect((await listed('visitor')).status).toBe(401);
    for (const who of ['stranger', 'member', 'admin'] as const) expect((await listed(who)).ids, who).not.toContain(agentId);
    expect((await listed('author')).ids).toContain(agentId);
    expect((await listed('admin', 'all')).ids).toContain(agentId);
    expect((await listed('member', 'all')).status).toBe(403);
  });
});

describe('the admins’ calls', () => {
  const ADMINS_ONLY = [401, 403, 403, 403];
  const admins: [EndpointName, Record<string, unknown>][] = [
    ['adminAgentReviewList', {}],
    ['adminAgentApprove', { versionId: 'no-such-version' }],
    ['adminAgentReject', { versionId: 'no-such-version', reason: 'No.' }],
    ['adminModelProviderList', {}],
    ['adminModelProviderSave', { name: 'Mine', baseUrl: 'https://1.1.1.1/v1' }],
    ['adminModelProviderDelete', { id: 'no-such-provider' }],
    ['adminModelDiscover', { id: 'no-such-provider' }],
    ['adminModelSave', { providerId: 'no-such-provider', model: 'm', name: 'M' }],
    ['adminModelDelete', { id: 'no-such-model' }],
    ['adminModelSetDefault', { id: 'no-such-model' }],
  ];
  it.each(admins)('%s is refused to everyone but an admin', async (name, input) => {
    const got: number[] = [];
    for (const who of WHO.slice(0, 4)) got.push((await call(name, people[who], input)).status);
    expect(got).toEqual(ADMINS_ONLY);
    const asAdmin = await call(name, people.admin, input);
    expect([401, 403]).not.toContain(asAdmin.status);
    expect(asAdmin.status).toBeLessThan(500);
  });

  it('the model list answers everyone, a visitor too, with names and capabilities only', async () => {
    for (const who of WHO) {
      const reply = await call('modelList', people[who]);
      expect(reply.status, who).toBe(200);
      for (const model of reply.body.data.list) expect(Object.keys(model).sort()).toEqual(['contextWindow', 'id', 'isDefault', 'maxOutput', 'name', 'vision']);
    }
  });
});
