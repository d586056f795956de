import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { Page } from '../../../src/contract/paging';
import type { StudioAgentSummary } from '../../../src/contract/studio';
import { agentStudioListMachine, STUDIO_PAGE_SIZE, type StudioScope } from '../../../src/machines/agent-studio-list.machine';
import { studioAgent } from './agent-studio-kit';
import { actorAnswers, heldCalls } from './held-calls';
import { productionPaths, type ModelEvent } from './production-paths';
import { playAgainstRules } from './rule-walk';

/**
 * The studio's list, on paths generated from the machine that ships: the agents load (two pages,
 * none), fail and are read again; the author turns the page (to one that exists or not), an admin
 * lists everyone's agents and their own again; a file is imported (made into an agent, or
 * refused) while the list does whatever it does. Played on the production machine with its calls
 * held until the path answers them, checked after every step against rules written here.
 */
type Snapshot = SnapshotFrom<typeof agentStudioListMachine>;
const answers = actorAnswers(agentStudioListMachine);
const refused = (status: number) => Object.assign(new Error(`status ${status}`), { status });

const summary = (agentId: string): StudioAgentSummary => {
  const { content, ...standing } = studioAgent({ agentId });
  return { ...standing, name: content.name, avatar: content.avatar, intro: content.intro, category: content.category, visibility: content.visibility };
};
const pageWith = (total: number, current: number): Page<StudioAgentSummary> => ({ list: total ? [summary(`agent-${current}`)] : [], total, current, pageSize: STUDIO_PAGE_SIZE });
const MANY = STUDIO_PAGE_SIZE + 5;
const FILE = new File(['{}'], 'agent.json', { type: 'application/json' });

const worldEvents = (state: Snapshot): ModelEvent[] => [
  answers.done('listAgents', pageWith(MANY, state.context.current)),
  answers.done('listAgents', pageWith(0, state.context.current)),
  { type: answers.error('listAgents', 0).type, error: refused(500) },
  { type: 'retry' },
  { type: 'page', current: 2 },
  { type: 'page', current: 1 },
  { type: 'page', current: 3 },
  { type: 'scope', scope: 'all' },
  { type: 'scope', scope: 'mine' },
  { type: 'import', file: FILE },
  answers.done('importAgent', studioAgent({ agentId: 'agent-imported' })),
  { type: answers.error('importAgent', 0).type, error: refused(400) },
  { type: 'dismiss' },
];

/** What decides what the list does next: where it is, the page, whose agents, how many pages there are. */
const serializeState = (state: Snapshot) => {
  const { current, scope, total } = state.context;
  return JSON.stringify([state.value, current, scope, total > STUDIO_PAGE_SIZE]);
};

type Expected = {
  list: 'loading' | 'failed' | 'loaded';
  importing: boolean;
  scope: StudioScope;
  current: number;
  total: number;
  failure: number | null;
  importFailure: number | null;
  calls: { src: string; input: unknown }[];
  imported: string[];
};
const START: Expected = {
  list: 'loading',
  importing: false,
  scope: 'mine',
  current: 1,
  total: 0,
  failure: null,
  importFailure: null,
  calls: [{ src: 'listAgents', input: { current: 1, pageSize: STUDIO_PAGE_SIZE, scope: 'mine' } }],
  imported: [],
};
const read = (e: Expected, change: Partial<Expected>): Expected => {
  const next = { ...e, ...change, list: 'loading' as const };
  return { ...next, calls: [...e.calls, { src: 'listAgents', input: { current: next.current, pageSize: STUDIO_PAGE_SIZE, scope: next.scope } }] };
};
const statusOf = (event: ModelEvent) => (event.error as { status: number }).status;

const rulesFor =
  (mayListAll: boolean) =>
  (e: Expected, event: ModelEvent): Expected => {
    const src = answers.srcOf(event);
    const done = event.type.startsWith('xstate.done.');
    if (src === 'listAgents') {
      if (!done) return { ...e, list: 'failed', failure: statusOf(event) };
      return { ...e, list: 'loaded', total: (event.output as Page<StudioAgentSummary>).total, failure: null };
    }
    // An imported agent's editor opens; a refused file is said, and the list stays as it is.
    if (src === 'importAgent') return done ? { ...e, importing: false, imported: [...e.imported, 'agent-imported'] } : { ...e, importing: false, importFailure: statusOf(event) };
    switch (event.type) {
      case 'retry':
        return e.list === 'failed' ? read(e, {}) : e;
      // A page that exists, other than the one shown, once the list is there.
      case 'page': {
        const current = event.current as number;
        const pages = Math.max(1, Math.ceil(e.total / STUDIO_PAGE_SIZE));
        return e.list === 'loaded' && current !== e.current && current >= 1 && current <= pages ? read(e, { current }) : e;
      }
      // Everyone's agents for an admin, from the first page, whatever the list was doing.
      case 'scope': {
        const scope = event.scope as StudioScope;
        return scope !== e.scope && (scope === 'mine' || mayListAll) ? read(e, { scope, current: 1 }) : e;
      }
      case 'import':
        return e.importing ? e : { ...e, importing: true, importFailure: null, calls: [...e.calls, { src: 'importAgent', input: { file: FILE } }] };
      case 'dismiss':
        return e.importing ? e : { ...e, importFailure: null };
      default:
        throw new Error(`no rule for ${event.type}`);
    }
  };

const play = async (mayListAll: boolean, events: ModelEvent[]) => {
  const held = heldCalls();
  const imported: string[] = [];
  const actor = createActor(
    agentStudioListMachine.provide({
      actors: { listAgents: held.stub('listAgents'), importAgent: held.stub('importAgent') },
      actions: { agentImported: (_, { agentId }) => void imported.push(agentId) },
    }),
    { input: { mayListAll } },
  ).start();
  const check = (e: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches({ list: e.list }), `${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.matches({ import: e.importing ? 'importing' : 'idle' }), `${after}: importing`).toBe(true);
    const { scope, current, total, failure, importFailure } = state.context;
    expect({ scope, current, total, failure: failure?.status ?? null, importFailure: importFailure?.status ?? null }, after).toEqual({
      scope: e.scope,
      current: e.current,
      total: e.total,
      failure: e.failure,
      importFailure: e.importFailure,
    });
    expect(held.calls.map(({ src, input }) => ({ src, input })), `${after}: calls`).toEqual(e.calls);
    expect(imported, `${after}: opened`).toEqual(e.imported);
    // The scope buttons: an admin's only.
    expect(state.can({ type: 'scope', scope: e.scope === 'mine' ? 'all' : 'mine' }), `${after}: other scope`).toBe(e.scope === 'all' || mayListAll);
  };
  await playAgainstRules(events, { actor, held, answers, start: START, rules: rulesFor(mayListAll), check, describe: (event) => answers.describe(event) ?? event.type });
};

describe.each([
  ['a person', false, 70],
  ['an admin', true, 180],
] as const)('the studio’s list for %s, paths generated from the production machine', (_who, mayListAll, transitions) => {
  const { paths, transitionCount, reachedStates } = productionPaths(agentStudioListMachine, { events: worldEvents, input: { mayListAll }, serializeState });

  it('reaches every state and takes every transition', () => {
    const values = [...reachedStates].map((value) => JSON.parse(value) as { list: string; import: string });
    expect(new Set(values.map((value) => value.list))).toEqual(new Set(['loading', 'failed', 'loaded']));
    expect(new Set(values.map((value) => value.import))).toEqual(new Set(['idle', 'importing']));
    expect(transitionCount).toBe(transitions);
  });

  it.each(paths.map((path) => [path.events.map((event) => answers.describe(event) ?? `${event.type}${'current' in event ? ` ${event.current as number}` : ''}${'scope' in event ? ` ${event.scope as string}` : ''}`).join(', '), path] as const))(
    '%s',
    async (_description, path) => {
      expect(path.steps.length, path.description).toBeGreaterThan(1);
      await play(mayListAll, path.events);
    },
  );
});
