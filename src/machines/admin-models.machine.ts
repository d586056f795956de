import { and, assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import type { EndpointInput } from '../contract/endpoints';
import {
  ENV_MODEL_ID,
  MODEL_DISPLAY_NAME_MAX,
  modelSaveRequestSchema,
  providerSaveRequestSchema,
  type AdminModel,
  type AdminProvider,
  type DiscoveredModels,
} from '../contract/models';
import { failureOf, type AdminFailure } from './admin-console.machine';
import { registryWhyOf, type RegistryWhy } from './admin-models-refusals';

/** A provider as the form holds it; the key is write-only: empty keeps the one the provider has. */
export type ProviderForm = { kind: 'provider'; id: string | null; hasKey: boolean; name: string; baseUrl: string; apiKey: string; removeKey: boolean };
/** A model as the form holds it; the two token counts as typed (empty: nobody said). */
export type ModelForm = {
  kind: 'model';
  id: string | null;
  providerId: string;
  model: string;
  name: string;
  contextWindow: string;
  maxOutput: string;
  vision: boolean;
  enabled: boolean;
};
export type RegistryForm = ProviderForm | ModelForm;
export type ProviderField = 'name' | 'baseUrl' | 'apiKey' | 'removeKey';
export type ModelField = 'model' | 'name' | 'contextWindow' | 'maxOutput' | 'vision' | 'enabled';
export type RegistryField = ProviderField | ModelField;
/** What is wrong with a field, as a key the screen translates. */
export type RegistryProblems = Partial<Record<RegistryField, 'required' | 'format'>>;

/** What waits on one provider or model: a deletion to confirm, or a call in flight. */
export type RegistryAction = 'deleteProvider' | 'deleteModel' | 'setDefault' | 'discover' | 'addDiscovered';
export type RegistryNotice = { kind: 'providerSaved' | 'modelSaved' | 'providerDeleted' | 'modelDeleted' | 'defaultSet' | 'modelAdded'; name: string };
/** A refusal, with which call it was and on which provider or model, and why in kinds the screen words (an address refused, a provider that did not answer). */
export type RegistryFailure = AdminFailure & { during: 'load' | 'save' | RegistryAction; id: string | null; why?: RegistryWhy };

const registryFailureOf = (error: unknown, during: RegistryFailure['during'], id: string | null): RegistryFailure => {
  const why = registryWhyOf(error);
  return { ...failureOf(error), during, id, ...(why ? { why } : {}) };
};

export type AdminModelsContext = {
  providers: AdminProvider[];
  /** The provider or model being added or changed: kept as typed when the server refuses it. */
  form: RegistryForm | null;
  problems: RegistryProblems;
  /** What a provider's `GET /models` listed, to add with one click. */
  discovery: { providerId: string; list: DiscoveredModels['list'] } | null;
  /** `id`: a provider's or model's id, or for `addDiscovered` the model's name at the provider. */
  pending: { action: RegistryAction; id: string } | null;
  failure: RegistryFailure | null;
};

export type AdminModelsEvent =
  | { type: 'retry' }
  | { type: 'provider.add' }
  | { type: 'provider.edit'; id: string }
  | { type: 'provider.delete'; id: string }
  | { type: 'provider.discover'; id: string }
  | { type: 'model.add'; providerId: string }
  | { type: 'model.edit'; id: string }
  | { type: 'model.delete'; id: string }
  | { type: 'model.setDefault'; id: string }
  | { type: 'discovered.add'; model: string }
  | { type: 'discovery.close' }
  | { type: 'form.change'; field: RegistryField; value: string | boolean }
  | { type: 'form.cancel' }
  | { type: 'save' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

type ProviderRequest = EndpointInput<'adminModelProviderSave'>;
type ModelRequest = EndpointInput<'adminModelSave'>;

/** A token count as typed: empty is "nobody said" (null); digits with spaces or commas between groups; anything else is not a number. */
export const tokenCountOf = (typed: string): number | null => {
  const digits = typed.replace(/[\s,_'’]/g, '');
  if (digits === '') return null;
  return /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
};

/** The request a provider form sends: the key only when one is typed (or removed on purpose). */
export const providerRequestOf = (form: ProviderForm): ProviderRequest => ({
  ...(form.id ? { id: form.id } : {}),
  name: form.name.trim(),
  baseUrl: form.baseUrl.trim(),
  ...(form.removeKey ? { apiKey: '' } : form.apiKey.trim() ? { apiKey: form.apiKey.trim() } : {}),
});

export const modelRequestOf = (form: ModelForm): ModelRequest => ({
  ...(form.id ? { id: form.id } : {}),
  providerId: form.providerId,
  model: form.model.trim(),
  name: form.name.trim(),
  contextWindow: tokenCountOf(form.contextWindow),
  maxOutput: tokenCountOf(form.maxOutput),
  vision: form.vision,
  enabled: form.enabled,
});

/** An address the server can be asked to call: http or https. Which hosts it accepts, the server says. */
const isWebAddress = (text: string): boolean => {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
};

const TEXT_FIELDS: readonly RegistryField[] = ['name', 'baseUrl', 'apiKey', 'model', 'contextWindow', 'maxOutput'];

/** The contract's rules for the form, each broken one named for its field. */
export const registryProblemsOf = (form: RegistryForm): RegistryProblems => {
  const parsed = form.kind === 'provider' ? v.safeParse(providerSaveRequestSchema, providerRequestOf(form)) : v.safeParse(modelSaveRequestSchema, modelRequestOf(form));
  const problems: RegistryProblems = {};
  const typed = form as unknown as Record<RegistryField, string>;
  for (const issue of parsed.success ? [] : parsed.issues) {
    const field = issue.path?.[0]?.key as RegistryField | undefined;
    if (field && TEXT_FIELDS.includes(field)) problems[field] ??= typed[field].trim() ? 'format' : 'required';
  }
  if (form.kind === 'provider' && !problems.baseUrl && !isWebAddress(form.baseUrl.trim())) problems.baseUrl = 'format';
  return problems;
};

const emptyProvider = (): ProviderForm => ({ kind: 'provider', id: null, hasKey: false, name: '', baseUrl: '', apiKey: '', removeKey: false });
const countText = (count: number | null) => (count === null ? '' : String(count));

const providerOf = (providers: AdminProvider[], id: string) => providers.find((provider) => provider.id === id);
const modelOf = (providers: AdminProvider[], id: string): { model: AdminModel; provider: AdminProvider } | undefined => {
  for (const provider of providers) {
    const model = provider.models.find((candidate) => candidate.id === id);
    if (model) return { model, provider };
  }
  return undefined;
};

/** The environment's provider and the offline responder are set where the server starts: only the console's are changed here. */
export const isEditableProvider = (providers: AdminProvider[], id: string) => providerOf(providers, id)?.source === 'console';
export const isEditableModel = (providers: AdminProvider[], id: string) => modelOf(providers, id)?.provider.source === 'console';
/** An enabled model that is not the default already, of the console or the environment's. */
export const mayBeDefault = (providers: AdminProvider[], id: string) => {
  const found = modelOf(providers, id);
  return found !== undefined && found.model.enabled && !found.model.isDefault && (found.provider.source === 'console' || id === ENV_MODEL_ID);
};

/**
 * The console's registry of models: the providers (the console's, the environment's read-only
 * one, and the offline responder when it is what answers) with their models. An admin adds,
 * changes and deletes providers and models, reads what a provider serves to add it with one click,
 * and chooses the default. After each change the registry is read again, since the server decides
 * which model is the default and whether the offline responder answers.
 */
export const adminModelsMachine = setup({
  types: { context: {} as AdminModelsContext, events: {} as AdminModelsEvent },
  actors: {
    listProviders: fromPromise<AdminProvider[]>(async () => {
      throw new Error('listProviders is provided where the app starts');
    }),
    saveProvider: fromPromise<AdminProvider, ProviderRequest>(async () => {
      throw new Error('saveProvider is provided where the app starts');
    }),
    deleteProvider: fromPromise<void, { id: string }>(async () => {
      throw new Error('deleteProvider is provided where the app starts');
    }),
    discoverModels: fromPromise<DiscoveredModels, { id: string }>(async () => {
      throw new Error('discoverModels is provided where the app starts');
    }),
    saveModel: fromPromise<AdminModel, ModelRequest>(async () => {
      throw new Error('saveModel is provided where the app starts');
    }),
    addDiscoveredModel: fromPromise<AdminModel, ModelRequest>(async () => {
      throw new Error('addDiscoveredModel is provided where the app starts');
    }),
    deleteModel: fromPromise<void, { id: string }>(async () => {
      throw new Error('deleteModel is provided where the app starts');
    }),
    setDefault: fromPromise<AdminModel, { id: string }>(async () => {
      throw new Error('setDefault is provided where the app starts');
    }),
  },
  actions: {
    notify: (_, _params: RegistryNotice) => undefined,
    setProviders: assign(({ context }, params: { providers: AdminProvider[] }) => ({
      providers: params.providers,
      // What a deleted provider listed goes with it.
      discovery: context.discovery && isEditableProvider(params.providers, context.discovery.providerId) ? context.discovery : null,
      failure: null,
    })),
    openProviderForm: assign(({ context }, params: { id: string | null }) => {
      const provider = params.id === null ? undefined : providerOf(context.providers, params.id);
      const form: ProviderForm = provider ? { ...emptyProvider(), id: provider.id, hasKey: provider.hasKey, name: provider.name, baseUrl: provider.baseUrl } : emptyProvider();
      return { form, problems: {}, failure: null };
    }),
    openModelForm: assign(({ context }, params: { providerId: string; id: string | null }) => {
      const model = params.id === null ? undefined : modelOf(context.providers, params.id)?.model;
      const form: ModelForm = {
        kind: 'model',
        id: model?.id ?? null,
        providerId: model?.providerId ?? params.providerId,
        model: model?.model ?? '',
        name: model?.name ?? '',
        contextWindow: countText(model?.contextWindow ?? null),
        maxOutput: countText(model?.maxOutput ?? null),
        vision: model?.vision ?? false,
        enabled: model?.enabled ?? true,
      };
      return { form, problems: {}, failure: null };
    }),
    changeField: assign(({ context }, params: { field: RegistryField; value: string | boolean }) => {
      const { form } = context;
      if (!form || !(params.field in form) || typeof form[params.field as keyof RegistryForm] !== typeof params.value) return {};
      const { [params.field]: _fixed, ...problems } = context.problems;
      return { form: { ...form, [params.field]: params.value }, problems };
    }),
    checkForm: assign(({ context }) => ({ problems: context.form ? registryProblemsOf(context.form) : {}, failure: null })),
    closeForm: assign({ form: null, problems: {}, failure: null }),
    setPending: assign((_, params: { action: RegistryAction; id: string }) => ({ pending: params, failure: null })),
    clearPending: assign({ pending: null }),
    setDiscovery: assign(({ context }, params: { list: DiscoveredModels['list'] }) => ({ discovery: { providerId: context.pending!.id, list: params.list } })),
    markDiscoveredAdded: assign(({ context }, params: { model: string }) => ({
      discovery: context.discovery && { ...context.discovery, list: context.discovery.list.map((entry) => (entry.model === params.model ? { ...entry, added: true } : entry)) },
    })),
    closeDiscovery: assign({ discovery: null }),
    setFailure: assign(({ context }, params: { error: unknown; during: RegistryFailure['during'] }) => ({
      failure: registryFailureOf(params.error, params.during, context.pending?.id ?? context.form?.id ?? null),
    })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isEditableProvider: ({ context }, params: { id: string }) => isEditableProvider(context.providers, params.id),
    isEditableModel: ({ context }, params: { id: string }) => isEditableModel(context.providers, params.id),
    mayBeDefault: ({ context }, params: { id: string }) => mayBeDefault(context.providers, params.id),
    isNewDiscovered: ({ context }, params: { model: string }) => context.discovery?.list.some((entry) => entry.model === params.model && !entry.added) ?? false,
    hasNoProblems: ({ context }) => Object.keys(context.problems).length === 0,
    isProviderForm: ({ context }) => context.form?.kind === 'provider',
    isDeletingProvider: ({ context }) => context.pending?.action === 'deleteProvider',
  },
}).createMachine({
  id: 'adminModels',
  context: { providers: [], form: null, problems: {}, discovery: null, pending: null, failure: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'listProviders',
        onDone: { target: 'ready', actions: { type: 'setProviders', params: ({ event }) => ({ providers: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'load' as const }) } },
      },
    },
    loadFailed: { on: { retry: { target: 'loading', actions: 'clearFailure' } } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'provider.add': { target: 'editing', actions: { type: 'openProviderForm', params: { id: null } } },
            'provider.edit': {
              guard: { type: 'isEditableProvider', params: ({ event }) => event },
              target: 'editing',
              actions: { type: 'openProviderForm', params: ({ event }) => event },
            },
            'model.add': {
              guard: { type: 'isEditableProvider', params: ({ event }) => ({ id: event.providerId }) },
              target: 'editing',
              actions: { type: 'openModelForm', params: ({ event }) => ({ providerId: event.providerId, id: null }) },
            },
            'model.edit': {
              guard: { type: 'isEditableModel', params: ({ event }) => event },
              target: 'editing',
              actions: { type: 'openModelForm', params: ({ event }) => ({ providerId: '', id: event.id }) },
            },
            'provider.delete': {
              guard: { type: 'isEditableProvider', params: ({ event }) => event },
              target: 'confirming',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'deleteProvider' as const, id: event.id }) },
            },
            'model.delete': {
              guard: { type: 'isEditableModel', params: ({ event }) => event },
              target: 'confirming',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'deleteModel' as const, id: event.id }) },
            },
            'model.setDefault': {
              guard: { type: 'mayBeDefault', params: ({ event }) => event },
              target: 'settingDefault',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'setDefault' as const, id: event.id }) },
            },
            'provider.discover': {
              guard: { type: 'isEditableProvider', params: ({ event }) => event },
              target: 'discovering',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'discover' as const, id: event.id }) },
            },
            'discovered.add': {
              guard: { type: 'isNewDiscovered', params: ({ event }) => event },
              target: 'addingDiscovered',
              actions: { type: 'setPending', params: ({ event }) => ({ action: 'addDiscovered' as const, id: event.model }) },
            },
            'discovery.close': { actions: 'closeDiscovery' },
          },
        },
        editing: {
          on: {
            'form.change': { actions: { type: 'changeField', params: ({ event }) => event } },
            'form.cancel': { target: 'idle', actions: 'closeForm' },
            save: 'validating',
          },
        },
        validating: {
          entry: 'checkForm',
          always: [
            { guard: and(['hasNoProblems', 'isProviderForm']), target: 'savingProvider' },
            { guard: 'hasNoProblems', target: 'savingModel' },
            { target: 'editing' },
          ],
        },
        savingProvider: {
          invoke: {
            src: 'saveProvider',
            input: ({ context }) => providerRequestOf(context.form as ProviderForm),
            onDone: {
              target: '#adminModels.loading',
              actions: ['closeForm', { type: 'notify', params: ({ event }) => ({ kind: 'providerSaved' as const, name: event.output.name }) }],
            },
            onError: { target: 'editing', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'save' as const }) } },
          },
        },
        savingModel: {
          invoke: {
            src: 'saveModel',
            input: ({ context }) => modelRequestOf(context.form as ModelForm),
            onDone: {
              target: '#adminModels.loading',
              actions: ['closeForm', { type: 'notify', params: ({ event }) => ({ kind: 'modelSaved' as const, name: event.output.name }) }],
            },
            onError: { target: 'editing', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'save' as const }) } },
          },
        },
        confirming: {
          on: {
            'delete.confirm': [{ guard: 'isDeletingProvider', target: 'deletingProvider' }, { target: 'deletingModel' }],
            'delete.cancel': { target: 'idle', actions: 'clearPending' },
          },
        },
        deletingProvider: {
          invoke: {
            src: 'deleteProvider',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: {
              target: '#adminModels.loading',
              actions: [{ type: 'notify', params: ({ context }) => ({ kind: 'providerDeleted' as const, name: providerOf(context.providers, context.pending!.id)?.name ?? '' }) }, 'clearPending'],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'deleteProvider' as const }) }, 'clearPending'] },
          },
        },
        deletingModel: {
          invoke: {
            src: 'deleteModel',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: {
              target: '#adminModels.loading',
              actions: [{ type: 'notify', params: ({ context }) => ({ kind: 'modelDeleted' as const, name: modelOf(context.providers, context.pending!.id)?.model.name ?? '' }) }, 'clearPending'],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'deleteModel' as const }) }, 'clearPending'] },
          },
        },
        settingDefault: {
          invoke: {
            src: 'setDefault',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: {
              target: '#adminModels.loading',
              actions: [{ type: 'notify', params: ({ event }) => ({ kind: 'defaultSet' as const, name: event.output.name }) }, 'clearPending'],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'setDefault' as const }) }, 'clearPending'] },
          },
        },
        discovering: {
          invoke: {
            src: 'discoverModels',
            input: ({ context }) => ({ id: context.pending!.id }),
            onDone: { target: 'idle', actions: [{ type: 'setDiscovery', params: ({ event }) => ({ list: event.output.list }) }, 'clearPending'] },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'discover' as const }) }, 'clearPending'] },
          },
        },
        addingDiscovered: {
          invoke: {
            src: 'addDiscoveredModel',
            input: ({ context }) => ({
              providerId: context.discovery!.providerId,
              model: context.pending!.id,
              name: context.pending!.id.slice(0, MODEL_DISPLAY_NAME_MAX),
              vision: false,
              enabled: true,
            }),
            onDone: {
              target: '#adminModels.loading',
              actions: [
                { type: 'markDiscoveredAdded', params: ({ context }) => ({ model: context.pending!.id }) },
                { type: 'notify', params: ({ event }) => ({ kind: 'modelAdded' as const, name: event.output.name }) },
                'clearPending',
              ],
            },
            onError: { target: 'idle', actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error, during: 'addDiscovered' as const }) }, 'clearPending'] },
          },
        },
      },
    },
  },
});
