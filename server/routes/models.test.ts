import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { createSealer } from '../auth/sealed';
import { defaultConfig } from '../config';
import { modelProviders, models } from '../db/schema';
import { REGISTRY_TTL_MS } from '../models/registry';
import { fakeModelService } from '../test/fake-model-service';
import { openHarness, type TestApp } from '../test/harness';
import { publishedAgent } from '../test/studio-kit';

/**
 * The registry of models, as admins run it: providers (their keys sealed, never answered), their
 * models found by asking the provider or entered by hand, one default; the environment's model
 * and the offline responder as read-only entries; and the list anyone may pick from.
 */
let h: Awaited<ReturnType<typeof openHarness>>;
let fake: Awaited<ReturnType<typeof fakeModelService>>;
const sealer = createSealer('m'.repeat(40));
const KEY = 'sk-discovery-key-0123456789';

beforeAll(async () => {
  h = await openHarness();
  fake = await fakeModelService({ models: ['zeta', 'alpha', 'alpha'] });
});
afterAll(async () => {
  await fake.close();
  await h.close();
});
beforeEach(async () => {
  fake.reset();
  // Each test starts with an empty console.
  await h.db.delete(modelProviders);
});

const onLoopback = { modelProvidersOnPrivateNetwork: true };
const adminOf = async (t: TestApp) => (await h.loggedIn(t, { role: 'admin', companyId: 'kraken' })).headers;
const providers = async (t: TestApp, headers: Record<string, string>) => (await t.get(endpoints.adminModelProviderList.path, {}, headers)).body.data;

describe('with nothing configured', () => {
  it('the offline responder is the one model, clearly labelled, the default, and read-only', async () => {
    const t = h.makeApp();
    const admin = await adminOf(t);
    expect(await providers(t, admin)).toEqual([
      expect.objectContaining({ id: 'offline', source: 'offline', hasKey: false, models: [expect.objectContaining({ id: 'offline', isDefault: true, name: expect.stringContaining('Offline responder') })] }),
    ]);
    const list = await t.get(endpoints.modelList.path, {}, h.visitor());
    expect(list.body.data.list).toEqual([{ id: 'offline', name: expect.stringContaining('Offline responder'), contextWindow: null, maxOutput: null, vision: false, isDefault: true }]);
    const refused = await t.post(endpoints.adminModelDelete.path, { id: 'offline' }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('MODEL_READ_ONLY');
  });
});

describe("the environment's model (LLM_*)", () => {
  it('is a read-only provider `env` with its model, the default until the console marks another; its key is never shown', async () => {
    const t = h.makeApp({ config: { ...onLoopback, llm: { baseUrl: fake.baseUrl, apiKey: 'sk-env-secret', model: 'env-model' } }, sealer });
    const admin = await adminOf(t);
    const listed = await providers(t, admin);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: 'env', source: 'environment', baseUrl: fake.baseUrl, hasKey: false, models: [{ id: 'env', model: 'env-model', isDefault: true }] });
    expect(JSON.stringify(listed)).not.toContain('sk-env-secret');
    for (const [name, input] of [
      ['adminModelProviderDelete', { id: 'env' }],
      ['adminModelProviderSave', { id: 'env', name: 'Mine', baseUrl: fake.baseUrl }],
      ['adminModelSave', { providerId: 'env', model: 'other', name: 'Other' }],
      ['adminModelDiscover', { id: 'env' }],
    ] as const) {
      const reply = await t.post(endpoints[name].path, input, admin);
      expect(reply.status, name).toBe(409);
      expect(reply.body.reason).toBe('MODEL_READ_ONLY');
    }
    // A password written into LLM_BASE_URL is not shown either.
    const withPassword = h.makeApp({ config: { llm: { baseUrl: fake.baseUrl.replace('http://', 'http://user:hunter2@'), model: 'env-model' } } });
    const shown = await providers(withPassword, await adminOf(withPassword));
    expect(shown[0].baseUrl).toBe(fake.baseUrl);
    // MODEL_ACCEPTS_IMAGES speaks for it.
    const seeing = h.makeApp({ config: { llm: { baseUrl: fake.baseUrl, model: 'env-model' }, attachments: { ...defaultConfig.attachments, modelAcceptsImages: true } } });
    expect((await seeing.get(endpoints.modelList.path, {}, h.visitor())).body.data.list[0]).toMatchObject({ id: 'env', vision: true });
  });
});

describe('a provider added in the console', () => {
  it('keeps its key sealed: answered only as hasKey, kept when not given, removed when empty', async () => {
    const t = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(t);
    const saved = await t.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: `${fake.baseUrl}/`, apiKey: KEY }, admin);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ name: 'Acme', baseUrl: fake.baseUrl, hasKey: true, source: 'console', models: [] });
    expect(JSON.stringify(saved.body)).not.toContain(KEY);
    const [row] = await h.db.select().from(modelProviders).where(eq(modelProviders.id, saved.body.data.id));
    expect(row!.sealedKey).toMatch(/^v1\./);
    expect(row!.sealedKey).not.toContain(KEY);
    expect(sealer.open(row!.sealedKey!)).toBe(KEY);

    const renamed = await t.post(endpoints.adminModelProviderSave.path, { id: saved.body.data.id, name: 'Acme AI', baseUrl: fake.baseUrl }, admin);
    expect(renamed.body.data).toMatchObject({ name: 'Acme AI', hasKey: true });
    const cleared = await t.post(endpoints.adminModelProviderSave.path, { id: saved.body.data.id, name: 'Acme AI', baseUrl: fake.baseUrl, apiKey: '' }, admin);
    expect(cleared.body.data.hasKey).toBe(false);
    const audit = await t.post(endpoints.adminAuditList.path, { action: 'model.provider.create' }, admin);
    expect(audit.body.data.list[0].details).toMatchObject({ name: 'Acme', key: 'set' });
    expect(JSON.stringify(audit.body)).not.toContain(KEY);
  });

  it('refuses a key without CONNECTOR_KEY (NO_CONNECTOR_KEY), and takes one without a key', async () => {
    const t = h.makeApp({ config: onLoopback });
    const admin = await adminOf(t);
    const refused = await t.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: fake.baseUrl, apiKey: KEY }, admin);
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('NO_CONNECTOR_KEY');
    expect((await t.post(endpoints.adminModelProviderSave.path, { name: 'Local', baseUrl: fake.baseUrl }, admin)).status).toBe(200);
  });

  it('refuses addresses the server must not call: this machine and private networks unless allowed, metadata services always', async () => {
    const strict = h.makeApp({ sealer });
    const admin = await adminOf(strict);
    const refusedOn = async (t: TestApp, baseUrl: string) => {
      const reply = await t.post(endpoints.adminModelProviderSave.path, { name: 'Sneaky', baseUrl }, admin);
      return reply.status === 400 && reply.body.reason === 'MODEL_ADDRESS_REFUSED';
    };
    for (const baseUrl of [
      fake.baseUrl,
      'http://localhost:11434/v1',
      'http://10.1.2.3/v1',
      'http://[::1]:8080/v1',
      'http://169.254.169.254/latest',
      'http://[fe80::1]/v1',
      'http://0.0.0.0/v1',
      'http://[::ffff:127.0.0.1]/v1',
      'file:///etc/passwd',
      'http://user:secret@1.1.1.1/v1',
      'https://1.1.1.1/v1?next=http://127.0.0.1',
      'not a url',
    ]) {
      expect(await refusedOn(strict, baseUrl), baseUrl).toBe(true);
    }
    const relaxed = h.makeApp({ config: onLoopback, sealer });
    expect(await refusedOn(relaxed, fake.baseUrl)).toBe(false);
    expect(await refusedOn(relaxed, 'http://10.1.2.3/v1')).toBe(false);
    for (const baseUrl of ['http://169.254.169.254/latest', 'http://[fe80::1]/v1', 'http://224.0.0.1/v1']) expect(await refusedOn(relaxed, baseUrl), baseUrl).toBe(true);
  });
});

describe('discovering models', () => {
  const added = async (t: TestApp, admin: Record<string, string>) =>
    (await t.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: fake.baseUrl, apiKey: KEY }, admin)).body.data.id as string;

  it("lists what the provider's GET /models serves, asked with its key; nothing is added until saved", async () => {
    const t = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(t);
    const id = await added(t, admin);
    await t.post(endpoints.adminModelSave.path, { providerId: id, model: 'zeta', name: 'Zeta' }, admin);
    const found = await t.post(endpoints.adminModelDiscover.path, { id }, admin);
    expect(found.body.data).toEqual({ list: [{ model: 'alpha', added: false }, { model: 'zeta', added: true }] });
    const asked = fake.received.find((request) => request.path === '/v1/models')!;
    expect(asked.method).toBe('GET');
    expect(asked.headers.authorization).toBe(`Bearer ${KEY}`);
    expect((await providers(t, admin))[0].models.map((model: { model: string }) => model.model)).toEqual(['zeta']);
  });

  it('refuses a redirect, an answer too large, one that is not a model list, and a failure, never quoting the key', async () => {
    const t = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(t);
    const id = await added(t, admin);
    const cases: [string, (res: import('node:http').ServerResponse) => void, RegExp][] = [
      ['redirect', (res) => res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end(), /redirect \(302\)/],
      ['too large', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`{"data":[${'"x",'.repeat(400_000)}"y"]}`), /larger than/],
      ['not a list', (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"models":"none"}'), /no model list/],
      ['not JSON', (res) => res.writeHead(200).end('<html>'), /not JSON/],
      ['a failure', (res) => res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `bad key ${KEY}` })), /HTTP 401/],
    ];
    for (const [what, answer, said] of cases) {
      fake.on('/v1/models', (_req, res) => answer(res));
      const reply = await t.post(endpoints.adminModelDiscover.path, { id }, admin);
      expect(reply.status, what).toBe(502);
      expect(reply.body.reason).toBe('MODEL_DISCOVERY_FAILED');
      expect(reply.body.msg, what).toMatch(said);
      expect(reply.body.msg).not.toContain(KEY);
    }
    for (const line of t.lines) expect(line).not.toContain(KEY);
  });
});

describe('models', () => {
  it('have one default at most, set in one go; a disabled default hands over to the next', async () => {
    const t = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(t);
    const providerId = (await t.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: fake.baseUrl }, admin)).body.data.id;
    const save = async (model: string, extra: Record<string, unknown> = {}) =>
      (await t.post(endpoints.adminModelSave.path, { providerId, model, name: model, ...extra }, admin)).body.data.id as string;
    const a = await save('a');
    t.clock.advance(1);
    const b = await save('b', { contextWindow: 128000, maxOutput: 4096, vision: true });
    const defaults = async () => (await t.get(endpoints.modelList.path, {}, h.visitor())).body.data.list.filter((m: { isDefault: boolean }) => m.isDefault).map((m: { id: string }) => m.id);
    // No console default marked and no environment model: the first enabled one. The offline responder is gone.
    expect(await defaults()).toEqual([a]);
    expect((await t.get(endpoints.modelList.path, {}, h.visitor())).body.data.list.map((m: { id: string }) => m.id)).toEqual([a, b]);
    await t.post(endpoints.adminModelSetDefault.path, { id: b }, admin);
    expect(await defaults()).toEqual([b]);
    await t.post(endpoints.adminModelSetDefault.path, { id: a }, admin);
    expect(await defaults()).toEqual([a]);
    expect(await h.db.select({ id: models.id }).from(models).where(eq(models.isDefault, true))).toEqual([{ id: a }]);
    // The database holds one default at most, whoever writes.
    await expect(h.db.update(models).set({ isDefault: true }).where(eq(models.id, b))).rejects.toThrow();
    await t.post(endpoints.adminModelSave.path, { id: a, providerId, model: 'a', name: 'a', enabled: false }, admin);
    expect(await defaults()).toEqual([b]);
    const refused = await t.post(endpoints.adminModelSetDefault.path, { id: a }, admin);
    expect(refused.body.reason).toBe('MODEL_UNKNOWN');
    // Two models of one name in one provider are one too many.
    expect((await t.post(endpoints.adminModelSave.path, { providerId, model: 'b', name: 'B again' }, admin)).status).toBe(409);
  });

  it('in use by a published agent cannot be deleted, nor can its provider (MODEL_IN_USE); once retired, both can', async () => {
    const t = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(t);
    const providerId = (await t.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: fake.baseUrl }, admin)).body.data.id;
    const modelId = (await t.post(endpoints.adminModelSave.path, { providerId, model: 'used', name: 'Used' }, admin)).body.data.id;
    const author = await h.loggedIn(t, { companyId: 'kraken' });
    const { agentId } = await publishedAgent(t, author.headers, { modelId });
    expect((await providers(t, admin))[0].models[0]).toMatchObject({ id: modelId, agents: 1 });
    for (const [path, id] of [[endpoints.adminModelDelete.path, modelId], [endpoints.adminModelProviderDelete.path, providerId]] as const) {
      const refused = await t.post(path, { id }, admin);
      expect(refused.status).toBe(409);
      expect(refused.body.reason).toBe('MODEL_IN_USE');
    }
    await t.post(endpoints.agentDelete.path, { agentId }, author.headers);
    expect((await t.post(endpoints.adminModelProviderDelete.path, { id: providerId }, admin)).status).toBe(200);
    expect(await h.db.select().from(models).where(eq(models.id, modelId))).toEqual([]);
  });
});

describe('the registry each instance keeps', () => {
  it('sees another instance’s change within its time to live, and its own at once', async () => {
    const a = h.makeApp({ config: onLoopback, sealer });
    const b = h.makeApp({ config: onLoopback, sealer });
    const admin = await adminOf(a);
    const ids = async (t: TestApp) => (await t.get(endpoints.modelList.path, {}, h.visitor())).body.data.list.map((m: { id: string }) => m.id);
    expect(await ids(b)).toEqual(['offline']);
    const providerId = (await a.post(endpoints.adminModelProviderSave.path, { name: 'Acme', baseUrl: fake.baseUrl }, admin)).body.data.id;
    const modelId = (await a.post(endpoints.adminModelSave.path, { providerId, model: 'm', name: 'M' }, admin)).body.data.id;
    expect(await ids(a)).toEqual([modelId]);
    expect(await ids(b)).toEqual(['offline']);
    b.clock.advance(REGISTRY_TTL_MS);
    expect(await ids(b)).toEqual([modelId]);
  });
});
