import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AdminModel, AdminProvider } from '../contract/models';
import { adminModelsMachine, registryProblemsOf, tokenCountOf, type RegistryNotice } from './admin-models.machine';

const model = (partial: Partial<AdminModel> & Pick<AdminModel, 'id' | 'providerId'>): AdminModel => ({
  model: partial.id,
  name: partial.id,
  contextWindow: null,
  maxOutput: null,
  vision: false,
  enabled: true,
  isDefault: false,
  agents: 0,
  ...partial,
});
const ACME: AdminProvider = {
  id: 'acme',
  name: 'Acme AI',
  baseUrl: 'https://api.acme.example/v1',
  hasKey: true,
  source: 'console',
  models: [model({ id: 'fast', providerId: 'acme', isDefault: true }), model({ id: 'old', providerId: 'acme', enabled: false, agents: 2 })],
  updatedAt: '2026-03-01T10:00:00.000Z',
};
const ENV: AdminProvider = { id: 'env', name: 'Environment (LLM_BASE_URL)', baseUrl: 'https://llm.example/v1', hasKey: false, source: 'environment', models: [model({ id: 'env', providerId: 'env', model: 'qwen' })], updatedAt: null };
const refused = (status: number, reason?: string, msg = 'refused') =>
  Object.assign(new Error(msg), { status, description: msg, ...(reason ? { cause: { data: { code: 1, msg, data: null, reason } } } : {}) });

const start = (overrides: Partial<Record<'saveProvider' | 'saveModel' | 'deleteProvider' | 'discoverModels', (input: never) => Promise<unknown>>> = {}) => {
  const calls = {
    list: vi.fn(async (): Promise<AdminProvider[]> => [ACME, ENV]),
    saveProvider: vi.fn(overrides.saveProvider ?? (async (input: { name: string }) => ({ ...ACME, id: 'new', name: input.name }))),
    saveModel: vi.fn(overrides.saveModel ?? (async (input: { name: string }) => model({ id: 'm', providerId: 'acme', name: input.name }))),
    addDiscovered: vi.fn(async (input: { name: string }) => model({ id: 'd', providerId: 'acme', name: input.name })),
    deleteProvider: vi.fn(overrides.deleteProvider ?? (async () => undefined)),
    discover: vi.fn(overrides.discoverModels ?? (async () => ({ list: [{ model: 'fast', added: true }, { model: 'vision-large', added: false }] }))),
    setDefault: vi.fn(async ({ id }: { id: string }) => model({ id, providerId: 'acme', name: id })),
    notices: [] as RegistryNotice[],
  };
  const actor = createActor(
    adminModelsMachine.provide({
      actors: {
        listProviders: fromPromise(() => calls.list()),
        saveProvider: fromPromise(({ input }) => calls.saveProvider(input as never) as Promise<AdminProvider>),
        saveModel: fromPromise(({ input }) => calls.saveModel(input as never) as Promise<AdminModel>),
        addDiscoveredModel: fromPromise(({ input }) => calls.addDiscovered(input)),
        deleteProvider: fromPromise(async ({ input }) => void (await calls.deleteProvider(input as never))),
        deleteModel: fromPromise(async (): Promise<void> => undefined),
        discoverModels: fromPromise(({ input }) => calls.discover(input as never) as Promise<{ list: { model: string; added: boolean }[] }>),
        setDefault: fromPromise(({ input }) => calls.setDefault(input)),
      },
      actions: { notify: (_, notice) => void calls.notices.push(notice) },
    }),
  ).start();
  return { actor, calls };
};
const idle = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => state.matches({ ready: 'idle' }));

describe('the model registry', () => {
  it('checks a new provider with the contract before asking the server, then saves it without a key left empty, and reads the registry again', async () => {
    const { actor, calls } = start();
    await idle(actor);
    actor.send({ type: 'provider.add' });
    actor.send({ type: 'form.change', field: 'baseUrl', value: 'ftp://files.example' });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().context.problems).toEqual({ name: 'required', baseUrl: 'format' });
    expect(calls.saveProvider).not.toHaveBeenCalled();
    actor.send({ type: 'form.change', field: 'name', value: '  Local AI ' });
    actor.send({ type: 'form.change', field: 'baseUrl', value: 'https://ai.example/v1 ' });
    expect(actor.getSnapshot().context.problems).toEqual({});
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.list.mock.calls.length === 2);
    expect(calls.saveProvider).toHaveBeenCalledWith({ name: 'Local AI', baseUrl: 'https://ai.example/v1' });
    expect(calls.notices).toEqual([{ kind: 'providerSaved', name: 'Local AI' }]);
    expect(actor.getSnapshot().context.form).toBeNull();
  });

  it("changes a provider's key only when one is typed, and removes it only when asked", async () => {
    const { actor, calls } = start();
    await idle(actor);
    actor.send({ type: 'provider.edit', id: 'acme' });
    expect(actor.getSnapshot().context.form).toEqual({ kind: 'provider', id: 'acme', hasKey: true, name: 'Acme AI', baseUrl: 'https://api.acme.example/v1', apiKey: '', removeKey: false });
    actor.send({ type: 'save' });
    await idle(actor);
    actor.send({ type: 'provider.edit', id: 'acme' });
    actor.send({ type: 'form.change', field: 'apiKey', value: ' sk-new ' });
    actor.send({ type: 'save' });
    await idle(actor);
    actor.send({ type: 'provider.edit', id: 'acme' });
    actor.send({ type: 'form.change', field: 'apiKey', value: 'sk-ignored' });
    actor.send({ type: 'form.change', field: 'removeKey', value: true });
    actor.send({ type: 'save' });
    await idle(actor);
    expect(calls.saveProvider.mock.calls.map(([input]) => input)).toEqual([
      { id: 'acme', name: 'Acme AI', baseUrl: 'https://api.acme.example/v1' },
      { id: 'acme', name: 'Acme AI', baseUrl: 'https://api.acme.example/v1', apiKey: 'sk-new' },
      { id: 'acme', name: 'Acme AI', baseUrl: 'https://api.acme.example/v1', apiKey: '' },
    ]);
  });

  it('keeps the form as typed when the server refuses it, with the reason and why', async () => {
    const msg = "The provider's address is refused: 10.0.0.5 is a private address (set MODEL_PROVIDERS_ON_PRIVATE_NETWORK=on to allow this machine and private networks).";
    const { actor } = start({ saveProvider: async () => Promise.reject(refused(400, 'MODEL_ADDRESS_REFUSED', msg)) });
    await idle(actor);
    actor.send({ type: 'provider.add' });
    actor.send({ type: 'form.change', field: 'name', value: 'Lab' });
    actor.send({ type: 'form.change', field: 'baseUrl', value: 'http://10.0.0.5:8000/v1' });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().matches({ ready: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({
      form: { name: 'Lab', baseUrl: 'http://10.0.0.5:8000/v1' },
      failure: { status: 400, reason: 'MODEL_ADDRESS_REFUSED', during: 'save', id: null, why: { kind: 'privateNetwork' } },
    });
  });

  it('reads token counts as typed, and names what is not one', async () => {
    const { actor, calls } = start();
    await idle(actor);
    actor.send({ type: 'model.add', providerId: 'acme' });
    actor.send({ type: 'form.change', field: 'model', value: 'gpt-4o' });
    actor.send({ type: 'form.change', field: 'name', value: 'GPT-4o' });
    actor.send({ type: 'form.change', field: 'contextWindow', value: 'lots' });
    actor.send({ type: 'form.change', field: 'maxOutput', value: '0' });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().context.problems).toEqual({ contextWindow: 'format', maxOutput: 'format' });
    actor.send({ type: 'form.change', field: 'contextWindow', value: '128,000' });
    actor.send({ type: 'form.change', field: 'maxOutput', value: '' });
    actor.send({ type: 'form.change', field: 'vision', value: true });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.notices.length > 0);
    expect(calls.saveModel).toHaveBeenCalledWith({ providerId: 'acme', model: 'gpt-4o', name: 'GPT-4o', contextWindow: 128_000, maxOutput: null, vision: true, enabled: true });
  });

  it('changes only what the console holds: the environment is read-only, and only an enabled model other than the default can become it', async () => {
    const { actor } = start();
    await idle(actor);
    const can = (event: Parameters<typeof actor.send>[0]) => actor.getSnapshot().can(event);
    expect(can({ type: 'provider.edit', id: 'env' })).toBe(false);
    expect(can({ type: 'provider.delete', id: 'env' })).toBe(false);
    expect(can({ type: 'model.add', providerId: 'env' })).toBe(false);
    expect(can({ type: 'model.edit', id: 'env' })).toBe(false);
    expect(can({ type: 'provider.discover', id: 'env' })).toBe(false);
    expect(can({ type: 'model.setDefault', id: 'env' })).toBe(true);
    expect(can({ type: 'model.setDefault', id: 'fast' })).toBe(false);
    expect(can({ type: 'model.setDefault', id: 'old' })).toBe(false);
    expect(can({ type: 'model.edit', id: 'old' })).toBe(true);
  });

  it('asks before deleting, and says why the server kept a provider in use', async () => {
    const msg = 'A model of Acme AI answers for 2 published agents: give them another model, or retire them, first.';
    const { actor, calls } = start({ deleteProvider: async () => Promise.reject(refused(409, 'MODEL_IN_USE', msg)) });
    await idle(actor);
    actor.send({ type: 'provider.delete', id: 'acme' });
    actor.send({ type: 'delete.cancel' });
    expect(calls.deleteProvider).not.toHaveBeenCalled();
    actor.send({ type: 'provider.delete', id: 'acme' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(calls.deleteProvider).toHaveBeenCalledWith({ id: 'acme' });
    expect(actor.getSnapshot().context).toMatchObject({ pending: null, failure: { status: 409, reason: 'MODEL_IN_USE', during: 'deleteProvider', id: 'acme' } });
    expect(actor.getSnapshot().context.providers).toHaveLength(2);
  });

  it('lists what a provider serves and adds a new one with one click, never one added already', async () => {
    const { actor, calls } = start();
    await idle(actor);
    actor.send({ type: 'provider.discover', id: 'acme' });
    await waitFor(actor, (state) => state.context.discovery !== null);
    expect(actor.getSnapshot().can({ type: 'discovered.add', model: 'fast' })).toBe(false);
    actor.send({ type: 'discovered.add', model: 'vision-large' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && calls.notices.length > 0);
    expect(calls.addDiscovered).toHaveBeenCalledWith({ providerId: 'acme', model: 'vision-large', name: 'vision-large', vision: false, enabled: true });
    expect(actor.getSnapshot().context.discovery?.list).toEqual([
      { model: 'fast', added: true },
      { model: 'vision-large', added: true },
    ]);
    expect(calls.notices).toEqual([{ kind: 'modelAdded', name: 'vision-large' }]);
    actor.send({ type: 'discovery.close' });
    expect(actor.getSnapshot().context.discovery).toBeNull();
  });

  it('says which provider could not be asked for its models, and why', async () => {
    const msg = 'Acme AI could not be asked for its models: it answered HTTP 401.';
    const { actor } = start({ discoverModels: async () => Promise.reject(refused(502, 'MODEL_DISCOVERY_FAILED', msg)) });
    await idle(actor);
    actor.send({ type: 'provider.discover', id: 'acme' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toEqual({ status: 502, reason: 'MODEL_DISCOVERY_FAILED', during: 'discover', id: 'acme', why: { kind: 'httpStatus', status: 401 } });
  });
});

describe('the registry form rules', () => {
  it('reads token counts: empty is unknown, groups of digits are one number, anything else is none', () => {
    expect(tokenCountOf('')).toBeNull();
    expect(tokenCountOf(' 128 000 ')).toBe(128_000);
    expect(tokenCountOf('8,192')).toBe(8192);
    expect(tokenCountOf('1.5k')).toBeNaN();
    expect(tokenCountOf('-4')).toBeNaN();
  });

  it('names each broken rule for its field', () => {
    expect(registryProblemsOf({ kind: 'provider', id: null, hasKey: false, name: 'x'.repeat(81), baseUrl: 'api.example', apiKey: '', removeKey: false })).toEqual({ name: 'format', baseUrl: 'format' });
    expect(registryProblemsOf({ kind: 'model', id: null, providerId: 'acme', model: '', name: ' ', contextWindow: '20000000', maxOutput: '4096', vision: false, enabled: true })).toEqual({
      model: 'required',
      name: 'required',
      contextWindow: 'format',
    });
  });
});
