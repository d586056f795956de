import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { Connector, Organisation } from '../contract/admin';
import { actorAnswers, heldCalls } from '../../tests/spa/models/held-calls';
import { playAgainstRules } from '../../tests/spa/models/rule-walk';
import { productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { adminConnectorsMachine, type ConnectorField, type ConnectorForm, type ConnectorProblems } from './admin-connectors.machine';

/**
 * An organisation's publishing connectors in the console, on paths generated from the machine
 * that ships: the organisations load (two, none), fail and are tried again; the admin picks one;
 * its LinkedIn connector is set in the console, comes from the environment, or is not configured,
 * or fails to load; the admin types a token (too short, long enough) and an author (not a LinkedIn
 * URN, one), saves, clears; the server saves, clears or refuses. Each path is played on the
 * production machine as an actor whose calls wait until the path says how they end, and checked
 * after every step against rules written here: nothing is saved that breaks the contract's rules,
 * each broken rule named for its field; only a connector set in the console can be cleared; a
 * failure keeps the form; the token is forgotten once saved, and the author in place is offered.
 */
type Snapshot = SnapshotFrom<typeof adminConnectorsMachine>;
const ACME: Organisation = { id: 'o1', name: 'Acme', members: 3 };
const BAKERY: Organisation = { id: 'o2', name: 'Bakery', members: 0 };
const linkedin = (source: Connector['source'], authorUrn: string | null): Connector => ({
  companyId: 'o1',
  platform: 'linkedin',
  configured: source !== 'none',
  source,
  authorUrn,
  updatedAt: source === 'console' ? '2026-03-01T10:00:00.000Z' : null,
  updatedByName: source === 'console' ? 'Ada' : null,
});
/** What the server can hold for LinkedIn. */
const HELD: Record<string, Connector[]> = {
  'set in the console': [linkedin('console', 'urn:li:person:ada')],
  'from the environment': [linkedin('environment', null)],
  'not configured': [linkedin('none', null)],
};
const SAVED = linkedin('console', 'urn:li:organization:acme');
const answers = actorAnswers(adminConnectorsMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });

/** What the contract says of each value typed: a token of 10 characters or more, an author `urn:li:person:…` or `urn:li:organization:…`. */
const RULES: Record<ConnectorField, Record<string, 'required' | 'format' | null>> = {
  accessToken: { '': 'required', short: 'format', 'a-long-enough-token': null },
  authorUrn: { '': 'required', bad: 'format', 'urn:li:organization:acme': null, 'urn:li:person:ada': null },
};
const TYPED: [ConnectorField, string][] = [
  ['accessToken', 'short'],
  ['accessToken', 'a-long-enough-token'],
  ['authorUrn', 'bad'],
  ['authorUrn', 'urn:li:organization:acme'],
];

const EVENTS: ModelEvent[] = [
  answers.done('listOrganisations', [ACME, BAKERY]),
  answers.done('listOrganisations', []),
  { type: answers.error('listOrganisations', 0).type, error: refused(500) },
  { type: 'retry' },
  { type: 'organisation.pick', companyId: 'o2' },
  ...Object.values(HELD).map((connectors) => answers.done('listConnectors', connectors)),
  { type: answers.error('listConnectors', 0).type, error: refused(500) },
  ...TYPED.map(([field, value]): ModelEvent => ({ type: 'form.change', field, value })),
  { type: 'save' },
  answers.done('setConnector', SAVED),
  { type: answers.error('setConnector', 0).type, error: refused(400) },
  { type: 'clear' },
  answers.done('clearConnector'),
  { type: answers.error('clearConnector', 0).type, error: refused(500) },
];
/**
 * What decides what the panel does next: the state, where LinkedIn's connector comes from,
 * whether each field is acceptable, which fields say what is wrong (the organisation only travels
 * in the requests; a failure shown changes nothing that follows).
 */
const serializeState = (state: Snapshot) => {
  const { connectors, form, problems } = state.context;
  const valid = (field: ConnectorField) => RULES[field][form[field]] === null;
  return JSON.stringify([state.value, connectors.map(({ source }) => source), valid('accessToken'), valid('authorUrn'), Object.keys(problems).sort()]);
};
const { paths, transitionCount, reachedStates } = productionPaths(adminConnectorsMachine, { events: EVENTS, serializeState });

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'form.change') return `${event.field as string} ${JSON.stringify(event.value)}`;
      if (event.type === 'organisation.pick') return `pick ${event.companyId as string}`;
      const src = answers.srcOf(event);
      if (!src) return event.type;
      if (event.type.startsWith('xstate.error.')) return `${src} ${(event.error as { status?: number }).status}`;
      const held = Object.entries(HELD).find(([, connectors]) => connectors === event.output)?.[0];
      return `${src} ${held ?? (Array.isArray(event.output) ? `${event.output.length} listed` : 'ok')}`;
    })
    .join(', ');

type Place = 'loadingOrganisations' | 'organisationsFailed' | 'noOrganisation' | 'loading' | 'loadFailed' | 'idle' | 'saving' | 'clearing';
/** What the panel must show and have done: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  organisations: Organisation[];
  companyId: string | null;
  connectors: Connector[];
  form: ConnectorForm;
  problems: ConnectorProblems;
  failure: { status: number | undefined } | null;
  calls: { src: string; input: unknown }[];
  notices: { kind: 'saved' | 'cleared' }[];
};
const EMPTY_FORM: ConnectorForm = { accessToken: '', authorUrn: '' };
const START: Expected = {
  place: 'loadingOrganisations',
  organisations: [],
  companyId: null,
  connectors: [],
  form: EMPTY_FORM,
  problems: {},
  failure: null,
  calls: [{ src: 'listOrganisations', input: undefined }],
  notices: [],
};
const PLACES: Record<Place, unknown> = {
  loadingOrganisations: 'loadingOrganisations',
  organisationsFailed: 'organisationsFailed',
  noOrganisation: 'noOrganisation',
  loading: { chosen: 'loading' },
  loadFailed: { chosen: 'loadFailed' },
  idle: { chosen: { loaded: 'idle' } },
  saving: { chosen: { loaded: 'saving' } },
  clearing: { chosen: { loaded: 'clearing' } },
};
const CHOSEN: Place[] = ['loading', 'loadFailed', 'idle', 'saving', 'clearing'];

const statusOf = (event: ModelEvent) => (event.error as { status?: number }).status;
const brokenRules = (form: ConnectorForm): ConnectorProblems =>
  Object.fromEntries((['accessToken', 'authorUrn'] as const).flatMap((field) => (RULES[field][form[field]] ? [[field, RULES[field][form[field]]]] : [])));
/** A connector set in the console can be cleared; one from the environment or none cannot. */
const setInConsole = (connectors: Connector[]) => connectors.some((connector) => connector.platform === 'linkedin' && connector.source === 'console');
/** Reading an organisation's connectors. */
const load = (before: Expected, companyId: string): Expected => ({ ...before, place: 'loading', calls: [...before.calls, { src: 'listConnectors', input: { companyId } }] });

const EXPECTED_AFTER = (before: Expected, event: ModelEvent): Expected => {
  const src = answers.srcOf(event);
  const done = event.type.startsWith('xstate.done.');
  if (src === 'listOrganisations') {
    if (before.place !== 'loadingOrganisations') return before;
    if (!done) return { ...before, place: 'organisationsFailed', failure: { status: statusOf(event) } };
    const organisations = event.output as Organisation[];
    // The first organisation is shown; without any there is nothing to configure.
    if (organisations.length === 0) return { ...before, place: 'noOrganisation', organisations, companyId: null, failure: null };
    return load({ ...before, organisations, companyId: organisations[0]!.id, failure: null }, organisations[0]!.id);
  }
  if (src === 'listConnectors') {
    if (before.place !== 'loading') return before;
    if (!done) return { ...before, place: 'loadFailed', failure: { status: statusOf(event) } };
    const connectors = event.output as Connector[];
    // The author in place is offered unless one is typed; the token never comes back.
    const authorUrn = before.form.authorUrn || (connectors.find((connector) => connector.platform === 'linkedin')?.authorUrn ?? '');
    return { ...before, place: 'idle', connectors, form: { ...before.form, authorUrn }, failure: null };
  }
  if (src === 'setConnector') {
    if (before.place !== 'saving') return before;
    if (!done) return { ...before, place: 'idle', failure: { status: statusOf(event) } };
    // Saved: the connector shown is the server's, the token typed is forgotten.
    return {
      ...before,
      place: 'idle',
      connectors: [SAVED],
      form: { accessToken: '', authorUrn: SAVED.authorUrn! },
      failure: null,
      notices: [...before.notices, { kind: 'saved' }],
    };
  }
  if (src === 'clearConnector') {
    if (before.place !== 'clearing') return before;
    if (!done) return { ...before, place: 'idle', failure: { status: statusOf(event) } };
    // Cleared: read again, so the panel says what is left (the environment's, or none).
    return load({ ...before, notices: [...before.notices, { kind: 'cleared' }] }, before.companyId!);
  }
  if (event.type === 'form.change') {
    // What is typed is kept whatever the panel is doing; typing in a field takes back what was said about it.
    const field = event.field as ConnectorField;
    const { [field]: _fixed, ...problems } = before.problems;
    return { ...before, form: { ...before.form, [field]: event.value as string }, problems };
  }
  if (event.type === 'organisation.pick') {
    if (!CHOSEN.includes(before.place)) return before;
    // Another organisation: its connectors from scratch, nothing typed for the last one kept.
    const companyId = event.companyId as string;
    return load({ ...before, companyId, connectors: [], form: EMPTY_FORM, problems: {}, failure: null }, companyId);
  }
  if (event.type === 'retry') {
    if (before.place === 'organisationsFailed') return { ...before, place: 'loadingOrganisations', failure: null, calls: [...before.calls, { src: 'listOrganisations', input: undefined }] };
    if (before.place === 'loadFailed') return load({ ...before, failure: null }, before.companyId!);
    return before;
  }
  if (before.place !== 'idle') return before;
  if (event.type === 'save') {
    const problems = brokenRules(before.form);
    if (Object.keys(problems).length > 0) return { ...before, problems, failure: null };
    const request = { companyId: before.companyId, platform: 'linkedin', ...before.form };
    return { ...before, place: 'saving', problems: {}, failure: null, calls: [...before.calls, { src: 'setConnector', input: request }] };
  }
  if (!setInConsole(before.connectors)) return before;
  return { ...before, place: 'clearing', failure: null, calls: [...before.calls, { src: 'clearConnector', input: { companyId: before.companyId, platform: 'linkedin' } }] };
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const notices: unknown[] = [];
  const actor = createActor(
    adminConnectorsMachine.provide({
      actors: {
        listOrganisations: held.stub('listOrganisations'),
        listConnectors: held.stub('listConnectors'),
        setConnector: held.stub('setConnector'),
        clearConnector: held.stub('clearConnector'),
      },
      actions: { notify: (_, notice) => void notices.push(notice) },
    }),
  ).start();
  const check = (expected: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches(PLACES[expected.place] as never), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    const { organisations, companyId, connectors, form, problems, failure } = expected;
    expect(state.context, after).toEqual({ organisations, companyId, connectors, form, problems, failure });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(expected.calls);
    expect(notices, `${after}: told`).toEqual(expected.notices);
    // The panel's Clear button.
    expect(state.can({ type: 'clear' }), `${after}: Clear offered`).toBe(expected.place === 'idle' && setInConsole(expected.connectors));
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: EXPECTED_AFTER, check, describe: (event) => describePath([event]) });
};

describe('an organisation’s connectors, paths generated from the production machine', () => {
  it('reaches every state and takes every transition', () => {
    // "choosing" and "validating" are decisions taken at once, never places the panel rests in.
    expect([...reachedStates].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // Every place the panel can be in (where LinkedIn's connector comes from, the form's fields, what they say is wrong) by the events it takes there.
    expect(transitionCount).toBe(577);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_name, path) => {
    // a machine that cannot be traversed gives one path without steps: it must fail, not pass empty
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
