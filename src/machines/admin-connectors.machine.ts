import { assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import { connectorSetRequestSchema, type Connector, type Organisation } from '../contract/admin';
import { failureOf, type AdminFailure } from './admin-console.machine';

export type ConnectorForm = { accessToken: string; authorUrn: string };
export type ConnectorField = keyof ConnectorForm;
/** What is wrong with a field, as a key the screen translates. */
export type ConnectorProblems = Partial<Record<ConnectorField, 'required' | 'format'>>;
export type ConnectorNotice = { kind: 'saved' | 'cleared' };

export type AdminConnectorsContext = {
  organisations: Organisation[];
  companyId: string | null;
  connectors: Connector[];
  /** The LinkedIn form as typed: kept when the server refuses it; the token is forgotten once saved. */
  form: ConnectorForm;
  problems: ConnectorProblems;
  failure: AdminFailure | null;
};

export type AdminConnectorsEvent =
  | { type: 'organisation.pick'; companyId: string }
  | { type: 'form.change'; field: ConnectorField; value: string }
  | { type: 'save' }
  | { type: 'clear' }
  | { type: 'retry' };

const emptyForm = (): ConnectorForm => ({ accessToken: '', authorUrn: '' });

/** The contract's rules for a LinkedIn credential, each broken one named for its field. */
export const connectorProblemsOf = (companyId: string, form: ConnectorForm): ConnectorProblems => {
  const parsed = v.safeParse(connectorSetRequestSchema, { companyId, platform: 'linkedin', ...form });
  const problems: ConnectorProblems = {};
  if (parsed.success) return problems;
  for (const issue of parsed.issues) {
    const field = issue.path?.[0]?.key;
    if (field === 'accessToken' || field === 'authorUrn') problems[field] ??= form[field].trim() ? 'format' : 'required';
  }
  return problems;
};

/**
 * An organisation's publishing connectors: pick the organisation, see whether LinkedIn is
 * configured (in the console or by the environment) without ever seeing its secret, set its
 * token and author, or clear it.
 */
export const adminConnectorsMachine = setup({
  types: { context: {} as AdminConnectorsContext, events: {} as AdminConnectorsEvent },
  actors: {
    listOrganisations: fromPromise<Organisation[]>(async () => {
      throw new Error('listOrganisations is provided where the app starts');
    }),
    listConnectors: fromPromise<Connector[], { companyId: string }>(async () => {
      throw new Error('listConnectors is provided where the app starts');
    }),
    setConnector: fromPromise<Connector, { companyId: string; platform: 'linkedin' } & ConnectorForm>(async () => {
      throw new Error('setConnector is provided where the app starts');
    }),
    clearConnector: fromPromise<void, { companyId: string; platform: 'linkedin' }>(async () => {
      throw new Error('clearConnector is provided where the app starts');
    }),
  },
  actions: {
    notify: (_, _params: ConnectorNotice) => undefined,
    setOrganisations: assign((_, params: { organisations: Organisation[] }) => ({
      organisations: params.organisations,
      companyId: params.organisations[0]?.id ?? null,
      failure: null,
    })),
    pickOrganisation: assign((_, params: { companyId: string }) => ({ companyId: params.companyId, connectors: [], form: emptyForm(), problems: {}, failure: null })),
    setConnectors: assign(({ context }, params: { connectors: Connector[] }) => ({
      connectors: params.connectors,
      // The author in place is offered again; the token never comes back from the server.
      form: { ...context.form, authorUrn: context.form.authorUrn || (params.connectors.find((connector) => connector.platform === 'linkedin')?.authorUrn ?? '') },
      failure: null,
    })),
    replaceConnector: assign(({ context }, params: { connector: Connector }) => ({
      connectors: [...context.connectors.filter((connector) => connector.platform !== params.connector.platform), params.connector],
      form: { accessToken: '', authorUrn: params.connector.authorUrn ?? context.form.authorUrn },
      failure: null,
    })),
    changeField: assign(({ context }, params: { field: ConnectorField; value: string }) => {
      const { [params.field]: _fixed, ...problems } = context.problems;
      return { form: { ...context.form, [params.field]: params.value }, problems };
    }),
    checkForm: assign(({ context }) => ({ problems: connectorProblemsOf(context.companyId ?? '', context.form), failure: null })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: failureOf(params.error) })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    hasOrganisation: ({ context }) => context.companyId !== null,
    hasNoProblems: ({ context }) => Object.keys(context.problems).length === 0,
    isConfiguredInConsole: ({ context }) => context.connectors.some((connector) => connector.platform === 'linkedin' && connector.source === 'console'),
  },
}).createMachine({
  id: 'adminConnectors',
  context: { organisations: [], companyId: null, connectors: [], form: emptyForm(), problems: {}, failure: null },
  on: { 'form.change': { actions: { type: 'changeField', params: ({ event }) => event } } },
  initial: 'loadingOrganisations',
  states: {
    loadingOrganisations: {
      invoke: {
        src: 'listOrganisations',
        onDone: { target: 'choosing', actions: { type: 'setOrganisations', params: ({ event }) => ({ organisations: event.output }) } },
        onError: { target: 'organisationsFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    organisationsFailed: { on: { retry: { target: 'loadingOrganisations', actions: 'clearFailure' } } },
    choosing: {
      always: [{ guard: 'hasOrganisation', target: 'chosen' }, { target: 'noOrganisation' }],
    },
    noOrganisation: {},
    chosen: {
      on: {
        'organisation.pick': { target: '.loading', actions: { type: 'pickOrganisation', params: ({ event }) => event } },
      },
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'listConnectors',
            input: ({ context }) => ({ companyId: context.companyId! }),
            onDone: { target: 'loaded', actions: { type: 'setConnectors', params: ({ event }) => ({ connectors: event.output }) } },
            onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        loadFailed: { on: { retry: { target: 'loading', actions: 'clearFailure' } } },
        loaded: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                save: 'validating',
                clear: { guard: 'isConfiguredInConsole', target: 'clearing', actions: 'clearFailure' },
              },
            },
            validating: {
              entry: 'checkForm',
              always: [{ guard: 'hasNoProblems', target: 'saving' }, { target: 'idle' }],
            },
            saving: {
              invoke: {
                src: 'setConnector',
                input: ({ context }) => ({ companyId: context.companyId!, platform: 'linkedin' as const, ...context.form }),
                onDone: {
                  target: 'idle',
                  actions: [{ type: 'replaceConnector', params: ({ event }) => ({ connector: event.output }) }, { type: 'notify', params: { kind: 'saved' } }],
                },
                onError: { target: 'idle', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            clearing: {
              invoke: {
                src: 'clearConnector',
                input: ({ context }) => ({ companyId: context.companyId!, platform: 'linkedin' as const }),
                onDone: { target: '#adminConnectors.chosen.loading', actions: { type: 'notify', params: { kind: 'cleared' } } },
                onError: { target: 'idle', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
          },
        },
      },
    },
  },
});
