import { assign, fromPromise, setup } from 'xstate';
import * as v from 'valibot';
import { organisationCreateRequestSchema, type Organisation } from '../contract/admin';
import { failureOf, type AdminFailure } from './admin-console.machine';

export type AdminOrganisationsContext = {
  organisations: Organisation[];
  /** The new organisation's name as typed: kept when the server refuses it. */
  name: string;
  failure: AdminFailure | null;
};

export type AdminOrganisationsEvent = { type: 'name.change'; name: string } | { type: 'create' } | { type: 'retry' };

/** Every organisation with its number of members, and a form to add one. */
export const adminOrganisationsMachine = setup({
  types: { context: {} as AdminOrganisationsContext, events: {} as AdminOrganisationsEvent },
  actors: {
    listOrganisations: fromPromise<Organisation[]>(async () => {
      throw new Error('listOrganisations is provided where the app starts');
    }),
    createOrganisation: fromPromise<Organisation, { name: string }>(async () => {
      throw new Error('createOrganisation is provided where the app starts');
    }),
  },
  actions: {
    created: (_, _params: { organisation: Organisation }) => undefined,
    setOrganisations: assign((_, params: { organisations: Organisation[] }) => ({ organisations: params.organisations, failure: null })),
    addOrganisation: assign(({ context }, params: { organisation: Organisation }) => ({
      organisations: [...context.organisations, params.organisation],
      name: '',
      failure: null,
    })),
    setName: assign((_, params: { name: string }) => ({ name: params.name })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: failureOf(params.error) })),
    clearFailure: assign({ failure: null }),
  },
  guards: {
    isNameValid: ({ context }) => v.is(organisationCreateRequestSchema, { name: context.name }),
  },
}).createMachine({
  id: 'adminOrganisations',
  context: { organisations: [], name: '', failure: null },
  on: { 'name.change': { actions: { type: 'setName', params: ({ event }) => event } } },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'listOrganisations',
        onDone: { target: 'ready', actions: { type: 'setOrganisations', params: ({ event }) => ({ organisations: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: { on: { retry: { target: 'loading', actions: 'clearFailure' } } },
    ready: {
      initial: 'idle',
      states: {
        idle: { on: { create: { guard: 'isNameValid', target: 'creating', actions: 'clearFailure' } } },
        creating: {
          invoke: {
            src: 'createOrganisation',
            input: ({ context }) => ({ name: context.name.trim() }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'addOrganisation', params: ({ event }) => ({ organisation: event.output }) },
                { type: 'created', params: ({ event }) => ({ organisation: event.output }) },
              ],
            },
            onError: { target: 'idle', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
  },
});
