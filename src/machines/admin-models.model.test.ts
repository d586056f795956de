import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import type { AdminModel, AdminProvider } from '../contract/models';
import { adminModelsMachine } from './admin-models.machine';

/**
 * The console's model registry, on paths generated from the machine that ships: the registry
 * loads (a console provider beside the environment's, or the offline responder alone), fails and
 * is tried again; the admin adds and edits a provider and a model (typing names, addresses and
 * token counts the contract accepts or not), cancels or saves; deletes a provider or a model,
 * saying yes or no; makes a model the default; discovers what a provider serves and adds one; the
 * server saves, refuses (an address, a key it cannot store, a model in use, a name taken, a model
 * not enabled) or fails. Each path is played on the production machine as an actor whose calls
 * wait until the path says how they end, and checked after every step against rules written here:
 * only the console's providers and models change; nothing is sent that breaks the contract's
 * rules, each broken rule named for its field; a deletion is asked first; only an enabled model
 * that is not the default becomes it; a discovered model is added once; every change reads the
 * registry again; a refusal says which call, on which provider or model, and why, and a refused
 * save keeps the form as typed.
 */
type Snapshot = SnapshotFrom<typeof adminModelsMachine>;
const model = (partial: Partial<AdminModel> & Pick<AdminModel, 'id' | 'providerId' | 'model' | 'name'>): AdminModel => ({
  contextWindow: null,
  maxOutput: null,
  vision: false,
  enabled: true,
  isDefault: false,
  agents: 0,
  ...partial,
});
const FAST = model({ id: 'fast', providerId: 'acme', model: 'fast-1', name: 'Fast', contextWindow: 128_000, isDefault: true });
const OLD = model({ id: 'old', providerId: 'acme', model: 'old-1', name: 'Old', enabled: false, agents: 2 });
const ACME: AdminProvider = { id: 'acme', name: 'Acme AI', baseUrl: 'https://api.acme.example/v1', hasKey: true, source: 'console', models: [FAST, OLD], updatedAt: '2026-03-01T10:00:00.000Z' };
const ENV_MODEL = model({ id: 'env', providerId: 'env', model: 'qwen', name: 'qwen' });
const ENV: AdminProvider = { id: 'env', name: 'Environment (LLM_BASE_URL)', baseUrl: 'https://llm.example/v1', hasKey: false, source: 'environment', models: [ENV_MODEL], updatedAt: null };
const OFFLINE: AdminProvider = {
  id: 'offline',
  name: 'Offline responder',
  baseUrl: '',
  hasKey: false,
  source: 'offline',
  models: [model({ id: 'offline', providerId: 'offline', model: 'offline', name: 'Offline responder', isDefault: true })],
  updatedAt: null,
};
/** What the server can hold. */
const REGISTRIES: Record<string, AdminProvider[]> = { 'Acme and the environment': [ACME, ENV], 'the offline responder alone': [OFFLINE] };
const DISCOVERED = { list: [{ model: 'fast-1', added: true }, { model: 'new-model', added: false }] };

/** A refusal as the HTTP client gives it: its status, the server's sentence, and the envelope's reason. */
const refused = (status: number, reason?: string, msg = `status ${status}`) =>
  Object.assign(new Error(msg), { status, description: msg, ...(reason ? { cause: { data: { code: 1, msg, data: null, reason } } } : {}) });
/** Each refusal, and why the console must say it is: the kind of the server's sentence, when it has one. */
const REFUSALS = new Map<unknown, { reason?: string; why?: unknown }>();
const refusal = (status: number, reason?: string, msg?: string, why?: unknown) => {
  const error = refused(status, reason, msg);
  REFUSALS.set(error, { ...(reason ? { reason } : {}), ...(why ? { why } : {}) });
  return error;
};
const ADDRESS = refusal(400, 'MODEL_ADDRESS_REFUSED', "The provider's address is refused: 10.0.0.5 is a private address (set MODEL_PROVIDERS_ON_PRIVATE_NETWORK=on to allow this machine and private networks).", { kind: 'privateNetwork' });
const NO_KEY = refusal(409, 'NO_CONNECTOR_KEY', 'Set CONNECTOR_KEY on the server (32 characters or more) before storing a provider key: keys are kept encrypted.');
const TAKEN = refusal(409, undefined, 'Acme AI has a model gpt-4o already.');
const IN_USE = refusal(409, 'MODEL_IN_USE', 'A model of Acme AI answers for 2 published agents: give them another model, or retire them, first.');
const NOT_ENABLED = refusal(400, 'MODEL_UNKNOWN', 'Only an enabled model can be the default.');
const KEY_REFUSED = refusal(502, 'MODEL_DISCOVERY_FAILED', 'Acme AI could not be asked for its models: it answered HTTP 401.', { kind: 'httpStatus', status: 401 });
const FAILED = refusal(500);

const answers = actorAnswers(adminModelsMachine);
const failWith = (src: string, error: Error): ModelEvent => ({ type: answers.error(src, 0).type, error });
const ANSWERS: ModelEvent[] = [
  ...Object.values(REGISTRIES).map((providers) => answers.done('listProviders', providers)),
  failWith('listProviders', FAILED),
  answers.done('saveProvider', { ...ACME, id: 'lab', name: 'Lab', models: [] }),
  failWith('saveProvider', ADDRESS),
  failWith('saveProvider', NO_KEY),
  answers.done('saveModel', model({ id: 'gpt', providerId: 'acme', model: 'gpt-4o', name: 'GPT-4o' })),
  failWith('saveModel', TAKEN),
  answers.done('deleteProvider'),
  failWith('deleteProvider', IN_USE),
  answers.done('deleteModel'),
  failWith('deleteModel', IN_USE),
  answers.done('setDefault', ENV_MODEL),
  failWith('setDefault', NOT_ENABLED),
  answers.done('discoverModels', DISCOVERED),
  failWith('discoverModels', KEY_REFUSED),
  answers.done('addDiscoveredModel', model({ id: 'new', providerId: 'acme', model: 'new-model', name: 'new-model' })),
  failWith('addDiscoveredModel', TAKEN),
];
const PEOPLE: ModelEvent[] = [
  { type: 'retry' },
  { type: 'provider.add' },
  ...['acme', 'env'].map((id): ModelEvent => ({ type: 'provider.edit', id })),
  { type: 'provider.delete', id: 'acme' },
  ...['acme', 'env'].map((id): ModelEvent => ({ type: 'provider.discover', id })),
  ...['acme', 'env'].map((providerId): ModelEvent => ({ type: 'model.add', providerId })),
  ...['fast', 'env'].map((id): ModelEvent => ({ type: 'model.edit', id })),
  ...['old', 'env'].map((id): ModelEvent => ({ type: 'model.delete', id })),
  ...['env', 'fast', 'old', 'offline'].map((id): ModelEvent => ({ type: 'model.setDefault', id })),
  ...['new-model', 'fast-1'].map((model): ModelEvent => ({ type: 'discovered.add', model })),
  { type: 'discovery.close' },
  { type: 'form.cancel' },
  { type: 'save' },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
];
const change = (field: string, value: string | boolean): ModelEvent => ({ type: 'form.change', field, value });
/** What the admin types: a value the contract accepts and one it does not, for each field that has rules. */
const TYPING = {
  provider: [change('name', ''), change('name', 'Lab'), change('baseUrl', 'ftp://lab.example'), change('baseUrl', 'https://lab.example/v1'), change('apiKey', 'sk-new')],
  model: [change('model', 'gpt-4o'), change('name', 'GPT-4o'), change('contextWindow', 'lots'), change('contextWindow', '128,000')],
};
const eventsFor = (state: Snapshot): ModelEvent[] => [...PEOPLE, ...ANSWERS, ...(state.context.form ? TYPING[state.context.form.kind] : [])];

/** The contract's rules, written here: a field broken is `required` when empty once trimmed, `format` otherwise. */
const tokenCount = (text: string) => {
  const digits = text.replace(/[\s,]/g, '');
  return digits === '' ? null : /^\d+$/.test(digits) && Number(digits) >= 1 && Number(digits) <= 10_000_000 ? Number(digits) : Number.NaN;
};
const RULES: Record<string, (text: string) => boolean> = {
  name: (text) => text.trim().length >= 1 && text.trim().length <= 80,
  baseUrl: (text) => /^https?:\/\/[^/\s]+/.test(text.trim()) && text.trim().length <= 500,
  apiKey: (text) => text.trim().length <= 4000,
  model: (text) => text.trim().length >= 1 && text.trim().length <= 200,
  contextWindow: (text) => !Number.isNaN(tokenCount(text)),
  maxOutput: (text) => !Number.isNaN(tokenCount(text)),
};
type Form = Record<string, string | boolean | null>;
const TEXT_FIELDS = { provider: ['name', 'baseUrl', 'apiKey'], model: ['model', 'name', 'contextWindow', 'maxOutput'] };
const fieldsOf = (form: Form) => TEXT_FIELDS[form.kind as 'provider' | 'model'];
const brokenRules = (form: Form): Record<string, string> =>
  Object.fromEntries(fieldsOf(form).flatMap((field) => (RULES[field]!(form[field] as string) ? [] : [[field, (form[field] as string).trim() ? 'format' : 'required']])));

/**
 * What decides what the panel does next: the state, the registry held, the form open (which one,
 * whether each field keeps the rules, which fields say what is wrong), what discovery listed and
 * what waits on a provider or model (a failure shown changes nothing that follows).
 */
const serializeState = (state: Snapshot) => {
  const { providers, form, problems, discovery, pending } = state.context;
  const fields = form && [form.kind, form.id, ...fieldsOf(form as unknown as Form).map((field) => RULES[field]!((form as unknown as Form)[field] as string))];
  return JSON.stringify([state.value, providers.map(({ id }) => id), fields, Object.keys(problems).sort(), discovery, pending]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminModelsMachine, { events: eventsFor, serializeState });

const describeEvent = (event: ModelEvent) => {
  if (event.type === 'form.change') return `${event.field as string} ${JSON.stringify(event.value)}`;
  const src = answers.srcOf(event);
  if (!src) return [event.type, event.id ?? event.providerId ?? event.model].filter(Boolean).join(' ');
  if (event.type.startsWith('xstate.error.')) return `${src} ${(event.error as { status: number }).status}${REFUSALS.get(event.error)?.reason ? ` ${REFUSALS.get(event.error)!.reason}` : ''}`;
  return `${src} ${Object.entries(REGISTRIES).find(([, providers]) => providers === event.output)?.[0] ?? 'ok'}`;
};

type Place =
  | 'loading'
  | 'loadFailed'
  | 'idle'
  | 'editing'
  | 'savingProvider'
  | 'savingModel'
  | 'confirming'
  | 'deletingProvider'
  | 'deletingModel'
  | 'settingDefault'
  | 'discovering'
  | 'addingDiscovered';
type Pending = { action: string; id: string };
/** What the panel must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  providers: AdminProvider[];
  form: Form | null;
  problems: Record<string, string>;
  discovery: { providerId: string; list: { model: string; added: boolean }[] } | null;
  pending: Pending | null;
  failure: Record<string, unknown> | null;
  calls: { src: string; input: unknown }[];
  notices: { kind: string; name: string }[];
};
const PLACES: Record<Place, unknown> = {
  loading: 'loading',
  loadFailed: 'loadFailed',
  ...(Object.fromEntries(
    (['idle', 'editing', 'savingProvider', 'savingModel', 'confirming', 'deletingProvider', 'deletingModel', 'settingDefault', 'discovering', 'addingDiscovered'] as const).map((place) => [place, { ready: place }]),
  ) as Record<Exclude<Place, 'loading' | 'loadFailed'>, unknown>),
};
const call = (before: Expected, src: string, input?: unknown): Expected['calls'] => [...before.calls, { src, input }];
const reload = (before: Expected, changes: Partial<Expected>): Expected => ({ ...before, ...changes, place: 'loading', calls: call(before, 'listProviders') });
const START: Expected = { place: 'loading', providers: [], form: null, problems: {}, discovery: null, pending: null, failure: null, calls: [{ src: 'listProviders', input: undefined }], notices: [] };

const consoleProvider = (before: Expected, id: string) => before.providers.find((provider) => provider.id === id && provider.source === 'console');
const findModel = (before: Expected, id: string) => {
  const provider = before.providers.find((candidate) => candidate.models.some((one) => one.id === id));
  return provider && { provider, model: provider.models.find((one) => one.id === id)! };
};
/** The environment's provider and the offline responder are set where the server starts: only the console's change here. */
const consoleModel = (before: Expected, id: string) => (findModel(before, id)?.provider.source === 'console' ? findModel(before, id)!.model : undefined);
/** An enabled model that is not the default already becomes it: the console's, or the environment's. */
const mayBeDefault = (before: Expected, id: string) => {
  const found = findModel(before, id);
  return found !== undefined && found.model.enabled && !found.model.isDefault && (found.provider.source === 'console' || id === 'env');
};
const failure = (event: ModelEvent, during: string, id: string | null) => ({ status: (event.error as { status: number }).status, ...REFUSALS.get(event.error), during, id });
const textOf = (count: number | null) => (count === null ? '' : String(count));
/** What a form sends: trimmed; a provider's key only when typed (or removed); a model's token counts as numbers, null when empty. */
const requestOf = (form: Form) =>
  form.kind === 'provider'
    ? {
        ...(form.id ? { id: form.id } : {}),
        name: (form.name as string).trim(),
        baseUrl: (form.baseUrl as string).trim(),
        ...(form.removeKey ? { apiKey: '' } : (form.apiKey as string).trim() ? { apiKey: (form.apiKey as string).trim() } : {}),
      }
    : {
        ...(form.id ? { id: form.id } : {}),
        providerId: form.providerId,
        model: (form.model as string).trim(),
        name: (form.name as string).trim(),
        contextWindow: tokenCount(form.contextWindow as string),
        maxOutput: tokenCount(form.maxOutput as string),
        vision: form.vision,
        enabled: form.enabled,
      };

const answered = (before: Expected, event: ModelEvent, src: string): Expected => {
  const done = event.type.startsWith('xstate.done.');
  const output = event.output as { name: string } | AdminProvider[] | typeof DISCOVERED;
  const during = { savingProvider: 'save', savingModel: 'save', deletingProvider: 'deleteProvider', deletingModel: 'deleteModel', settingDefault: 'setDefault', discovering: 'discover', addingDiscovered: 'addDiscovered' }[before.place as string];
  if (src === 'listProviders') {
    if (!done) return { ...before, place: 'loadFailed', failure: failure(event, 'load', null) };
    const providers = output as AdminProvider[];
    // What discovery listed goes with its provider.
    const discovery = before.discovery && providers.some((provider) => provider.id === before.discovery!.providerId && provider.source === 'console') ? before.discovery : null;
    return { ...before, place: 'idle', providers, discovery, failure: null };
  }
  if (!done && (before.place === 'savingProvider' || before.place === 'savingModel')) return { ...before, place: 'editing', failure: failure(event, 'save', before.form!.id as string | null) };
  if (!done) return { ...before, place: 'idle', pending: null, failure: failure(event, during!, before.pending!.id) };
  const notice = (kind: string, name: string) => [...before.notices, { kind, name }];
  const { id } = before.pending ?? { id: '' };
  switch (before.place) {
    case 'savingProvider':
      return reload(before, { form: null, problems: {}, failure: null, notices: notice('providerSaved', (output as { name: string }).name) });
    case 'savingModel':
      return reload(before, { form: null, problems: {}, failure: null, notices: notice('modelSaved', (output as { name: string }).name) });
    case 'deletingProvider':
      return reload(before, { pending: null, notices: notice('providerDeleted', consoleProvider(before, id)!.name) });
    case 'deletingModel':
      return reload(before, { pending: null, notices: notice('modelDeleted', findModel(before, id)!.model.name) });
    case 'settingDefault':
      return reload(before, { pending: null, notices: notice('defaultSet', (output as { name: string }).name) });
    case 'discovering':
      return { ...before, place: 'idle', pending: null, discovery: { providerId: id, list: (output as typeof DISCOVERED).list } };
    default: {
      const list = before.discovery!.list.map((entry) => (entry.model === id ? { ...entry, added: true } : entry));
      return reload(before, { pending: null, discovery: { ...before.discovery!, list }, notices: notice('modelAdded', (output as { name: string }).name) });
    }
  }
};

const INVOKING: Partial<Record<Place, string>> = {
  loading: 'listProviders',
  savingProvider: 'saveProvider',
  savingModel: 'saveModel',
  deletingProvider: 'deleteProvider',
  deletingModel: 'deleteModel',
  settingDefault: 'setDefault',
  discovering: 'discoverModels',
  addingDiscovered: 'addDiscoveredModel',
};

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  if (src) return INVOKING[before.place] === src ? answered(before, event, src) : before;
  if (event.type === 'retry') return before.place === 'loadFailed' ? reload(before, { failure: null }) : before;
  if (before.place === 'editing') return editing(before, event);
  if (before.place === 'confirming') {
    if (event.type === 'delete.cancel') return { ...before, place: 'idle', pending: null };
    if (event.type !== 'delete.confirm') return before;
    const provider = before.pending!.action === 'deleteProvider';
    return { ...before, place: provider ? 'deletingProvider' : 'deletingModel', calls: call(before, provider ? 'deleteProvider' : 'deleteModel', { id: before.pending!.id }) };
  }
  if (before.place !== 'idle') return before;
  const id = (event.id ?? event.providerId) as string;
  const open = (form: Form): Expected => ({ ...before, place: 'editing', form, problems: {}, failure: null });
  const wait = (action: string, pendingId: string, place: Place, invoked?: { src: string; input: unknown }): Expected => ({
    ...before,
    place,
    pending: { action, id: pendingId },
    failure: null,
    calls: invoked ? call(before, invoked.src, invoked.input) : before.calls,
  });
  switch (event.type) {
    case 'provider.add':
      return open({ kind: 'provider', id: null, hasKey: false, name: '', baseUrl: '', apiKey: '', removeKey: false });
    case 'provider.edit': {
      const provider = consoleProvider(before, id);
      return provider ? open({ kind: 'provider', id, hasKey: provider.hasKey, name: provider.name, baseUrl: provider.baseUrl, apiKey: '', removeKey: false }) : before;
    }
    case 'model.add':
      return consoleProvider(before, id) ? open({ kind: 'model', id: null, providerId: id, model: '', name: '', contextWindow: '', maxOutput: '', vision: false, enabled: true }) : before;
    case 'model.edit': {
      const found = consoleModel(before, id);
      if (!found) return before;
      const { providerId, model: name_, name, contextWindow, maxOutput, vision, enabled } = found;
      return open({ kind: 'model', id, providerId, model: name_, name, contextWindow: textOf(contextWindow), maxOutput: textOf(maxOutput), vision, enabled });
    }
    case 'provider.delete':
      return consoleProvider(before, id) ? wait('deleteProvider', id, 'confirming') : before;
    case 'model.delete':
      return consoleModel(before, id) ? wait('deleteModel', id, 'confirming') : before;
    case 'model.setDefault':
      return mayBeDefault(before, id) ? wait('setDefault', id, 'settingDefault', { src: 'setDefault', input: { id } }) : before;
    case 'provider.discover':
      return consoleProvider(before, id) ? wait('discover', id, 'discovering', { src: 'discoverModels', input: { id } }) : before;
    case 'discovered.add': {
      const name = event.model as string;
      if (!before.discovery?.list.some((entry) => entry.model === name && !entry.added)) return before;
      return wait('addDiscovered', name, 'addingDiscovered', { src: 'addDiscoveredModel', input: { providerId: before.discovery.providerId, model: name, name, vision: false, enabled: true } });
    }
    case 'discovery.close':
      return { ...before, discovery: null };
    default:
      return before;
  }
};

const editing = (before: Expected, event: ModelEvent): Expected => {
  const form = before.form!;
  if (event.type === 'form.change') {
    // Typing in a field takes back what was said about it.
    const field = event.field as string;
    const { [field]: _fixed, ...problems } = before.problems;
    return { ...before, form: { ...form, [field]: event.value as string }, problems };
  }
  if (event.type === 'form.cancel') return { ...before, place: 'idle', form: null, problems: {}, failure: null };
  if (event.type !== 'save') return before;
  const problems = brokenRules(form);
  if (Object.keys(problems).length > 0) return { ...before, problems, failure: null };
  const src = form.kind === 'provider' ? 'saveProvider' : 'saveModel';
  return { ...before, place: form.kind === 'provider' ? 'savingProvider' : 'savingModel', problems: {}, failure: null, calls: call(before, src, requestOf(form)) };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const notices: unknown[] = [];
  const srcs = ['listProviders', 'saveProvider', 'deleteProvider', 'discoverModels', 'saveModel', 'addDiscoveredModel', 'deleteModel', 'setDefault'] as const;
  const actor = createActor(
    adminModelsMachine.provide({
      actors: Object.fromEntries(srcs.map((src) => [src, held.stub(src)])) as never,
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    const { providers, form, problems, discovery, pending, failure: refusal } = expected;
    expect(state.context, after).toEqual({ providers, form, problems, discovery, pending, failure: refusal });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(expected.calls);
    expect(notices, `${after}: told`).toEqual(expected.notices);
    // The buttons of each provider and model: the console's only, while nothing else is under way.
    const idle = expected.place === 'idle';
    for (const id of ['acme', 'env', 'offline']) {
      const editable = idle && consoleProvider(expected, id) !== undefined;
      for (const type of ['provider.edit', 'provider.delete', 'provider.discover'] as const) expect(state.can({ type, id }), `${after}: ${type} ${id}`).toBe(editable);
      expect(state.can({ type: 'model.add', providerId: id }), `${after}: model.add ${id}`).toBe(editable);
    }
    for (const id of ['fast', 'old', 'env', 'offline']) {
      const editable = idle && consoleModel(expected, id) !== undefined;
      expect(state.can({ type: 'model.edit', id }), `${after}: model.edit ${id}`).toBe(editable);
      expect(state.can({ type: 'model.delete', id }), `${after}: model.delete ${id}`).toBe(editable);
      expect(state.can({ type: 'model.setDefault', id }), `${after}: model.setDefault ${id}`).toBe(idle && mayBeDefault(expected, id));
    }
    expect(state.can({ type: 'provider.add' }), `${after}: provider.add`).toBe(idle);
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: describeEvent });
};

describe('the model registry, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    // "validating" is a decision taken at once, never a place the panel rests in.
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the panel can be in (the registry held, the form open and what is said of it, what discovery listed, what waits) by the events it takes there.
    expect(transitionCount).toBe(940);
  });

  it.each(paths.map((path) => [path.events.map(describeEvent).join(', '), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
