import { describe, expect, it } from 'vitest';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { UserInfo } from '../contract/users';
import type { KeptConversation } from '../services/offline-library';
import { invokeOf, settle, stubCalls } from '../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { playCheckingEveryStep } from '../../tests/spa/models/play-path';
import { appMachine, isCheckingSession, isSignedIn } from './app.machine';
import { isUnreachable } from './error-status';

/**
 * App start and the session, on paths generated from the machine that ships: loading, the session
 * check (only with a stored token), loaded as a visitor or signed in, or errored with a retry;
 * then signing in, refreshing, updating, expiring and signing out; and a start without the network,
 * which shows the conversations this device kept when it kept some. Each path is played on the
 * production machine as an actor whose calls wait until the path says how they end, and each
 * state is checked against rules written from the product, not read from the machine.
 */
type Snapshot = SnapshotFrom<typeof appMachine>;

const ADA: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };
const ADA_RENAMED: UserInfo = { ...ADA, nickname: 'Countess' };
const GRACE: UserInfo = { id: 'u2', username: 'grace@example.com', nickname: 'Grace', avatar: '' };
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });
/** A call that got no answer: the device is offline, or nothing answers behind a gateway. */
const unreachable = () => Object.assign(new Error('The server cannot be reached.'), { unreachable: true });
const kept = (conversationId: string): KeptConversation => ({
  conversationId,
  title: `Title of ${conversationId}`,
  agentName: 'Baker',
  updatedAt: '2026-11-20T10:00:00.000Z',
  readAt: 1,
  messages: [{ role: 'user', content: 'Rye or wheat?', status: 'complete', sentAt: null }],
  earlierLeftOut: false,
});
const KEPT: KeptConversation[] = [kept('c1'), kept('c2')];

/** Which stub each invocation runs. */
const CALL_OF: Record<string, string> = {
  '0.app.loading': 'prepare',
  '0.app.checkingSession': 'fetchUser',
  '0.app.loaded.refreshing': 'fetchUser',
  '0.app.loaded.signingOut': 'revokeSession',
  '0.app.readingLibrary': 'readLibrary',
};
const done = (invoke: string, output?: unknown): ModelEvent => ({ type: `xstate.done.actor.${invoke}`, output });
const failed = (invoke: string, error: unknown): ModelEvent => ({ type: `xstate.error.actor.${invoke}`, error });

const EVENTS: ModelEvent[] = [
  done('0.app.loading'),
  failed('0.app.loading', new Error('The interface could not be loaded')),
  done('0.app.checkingSession', ADA),
  failed('0.app.checkingSession', httpError(401)),
  failed('0.app.checkingSession', httpError(500)),
  failed('0.app.checkingSession', unreachable()),
  done('0.app.readingLibrary', KEPT),
  done('0.app.readingLibrary', []),
  failed('0.app.readingLibrary', new Error('IndexedDB refused')),
  done('0.app.loaded.refreshing', ADA_RENAMED),
  failed('0.app.loaded.refreshing', httpError(401)),
  failed('0.app.loaded.refreshing', httpError(500)),
  done('0.app.loaded.signingOut'),
  failed('0.app.loaded.signingOut', httpError(500)),
  { type: 'session.signedIn', token: 'token-of-ada', user: ADA },
  { type: 'session.updated', user: ADA_RENAMED },
  { type: 'session.updated', user: GRACE },
  { type: 'session.refresh' },
  { type: 'session.signOut' },
  { type: 'session.expired' },
  { type: 'retry' },
];

/** What the library answered, in a path's name. */
const outputLabel = (event: ModelEvent) => {
  if (!event.type.endsWith('readingLibrary')) return 'ok';
  return (event.output as KeptConversation[]).length === 0 ? 'nothing kept' : 'kept';
};

const serializeState = (state: Snapshot) =>
  `${JSON.stringify(state.value)} ${state.context.user?.nickname ?? '-'}${state.context.error ? ' +error' : ''}${state.context.kept ? ` ${state.context.kept.length} kept` : ''}`;
/** Whether a token is stored decides the start; the machine is asked once with each answer. */
const machineWithToken = (stored: boolean) => appMachine.provide({ guards: { hasToken: () => stored } });
const generated = [true, false].map((stored) => ({ stored, ...productionPaths(machineWithToken(stored), { events: EVENTS, serializeState }) }));

type World = {
  actor: Actor<typeof appMachine>;
  stubs: ReturnType<typeof stubCalls>;
  /** Whether a token is stored now: what the app stored and cleared. */
  token: string | null;
  /** Who the app must show, from what happened. */
  user: UserInfo | null;
  /** The message of the failure that stopped the start, when it did. */
  error: string | null;
  /** Started offline: the kept conversations shown. */
  kept: KeptConversation[] | null;
  last: string;
};

/** Where the app must be after what last happened, from the product's rules. */
const EXPECTED_AFTER: Record<string, string> = {
  'start with a token': 'loading',
  'start without a token': 'loading',
  'interface ready, a token stored': 'checkingSession',
  'interface ready, no token': 'loaded.visitor',
  'interface failed': 'errored',
  'session check: the user': 'loaded.signedIn',
  'session check: 401': 'loaded.visitor',
  'session check: 500': 'errored',
  // without the network, the device's kept conversations are looked for before saying the start failed
  'session check: unreachable': 'readingLibrary',
  'library: kept': 'offline',
  'library: nothing kept': 'errored',
  'library: failed': 'errored',
  'click retry': 'loading',
  'signed in': 'loaded.signedIn',
  'own details saved': 'loaded.signedIn',
  "someone else's details saved": 'loaded.signedIn',
  'refresh asked': 'loaded.refreshing',
  'refresh: the user': 'loaded.signedIn',
  'refresh: 401': 'loaded.visitor',
  // a refresh that fails keeps the person signed in as they were
  'refresh: 500': 'loaded.signedIn',
  'sign out asked': 'loaded.signingOut',
  // logging out always works here, whatever the server answers
  'sign out: ok': 'loaded.visitor',
  'sign out: 500': 'loaded.visitor',
  'token refused': 'loaded.visitor',
};

const checkWorld = (world: World, state: string) => {
  expect(EXPECTED_AFTER[world.last], `after ${world.last}`).toBe(state);
  const snapshot = world.actor.getSnapshot();
  expect(snapshot.matches(state as never), `the app is ${JSON.stringify(snapshot.value)}`).toBe(true);
  expect(snapshot.context.user).toEqual(world.user);
  expect(isSignedIn(snapshot)).toBe(world.user !== null);
  // kept conversations are shown only while started offline, and nothing of them stays after
  expect(snapshot.context.kept).toEqual(state === 'offline' ? world.kept : null);
  // while the device's library is read, the app does not know yet whether the person is signed in
  expect(isCheckingSession(snapshot)).toBe(state === 'checkingSession' || state === 'readingLibrary');
  // the toast queue lives as long as the app, whatever happens
  expect(snapshot.children.toasts).toBeDefined();
};

/** The stubs running now: exactly the calls the state waits on. */
const running = (world: World) => world.stubs.pending.map((call) => call.name).sort();

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    loading: () => {
      checkWorld(world(), 'loading');
      expect(running(world())).toEqual(['prepare']);
    },
    checkingSession: () => {
      checkWorld(world(), 'checkingSession');
      expect(running(world())).toEqual(['fetchUser']);
      expect(world().token).not.toBeNull();
    },
    readingLibrary: () => {
      checkWorld(world(), 'readingLibrary');
      expect(running(world())).toEqual(['readLibrary']);
      // the token stays: the session was not refused, only not reached
      expect(world().token).not.toBeNull();
      expect(world().actor.getSnapshot().context.error).toBe(world().error);
    },
    offline: () => {
      checkWorld(world(), 'offline');
      expect(running(world())).toEqual([]);
      expect(world().token).not.toBeNull();
      expect(world().kept!.map((item) => item.conversationId)).toEqual(['c1', 'c2']);
    },
    errored: () => {
      checkWorld(world(), 'errored');
      expect(running(world())).toEqual([]);
      expect(world().actor.getSnapshot().context.error).toBe(world().error);
      // a session check that failed for another reason than a refused token keeps the token
      if (world().last === 'session check: 500') expect(world().token).not.toBeNull();
    },
    'loaded.visitor': () => {
      checkWorld(world(), 'loaded.visitor');
      expect(running(world())).toEqual([]);
      expect(world().token).toBeNull();
    },
    'loaded.signedIn': () => {
      checkWorld(world(), 'loaded.signedIn');
      expect(running(world())).toEqual([]);
      expect(world().actor.getSnapshot().context.error).toBeNull();
    },
    'loaded.refreshing': () => {
      checkWorld(world(), 'loaded.refreshing');
      expect(running(world())).toEqual(['fetchUser']);
    },
    'loaded.signingOut': () => {
      checkWorld(world(), 'loaded.signingOut');
      expect(running(world())).toEqual(['revokeSession']);
    },
  },
  events: {
    ...Object.fromEntries(
      Object.keys(CALL_OF).flatMap((invoke) => [
        [
          `xstate.done.actor.${invoke}`,
          async ({ event }: { event: ModelEvent }) => {
            const w = world();
            if (invoke === '0.app.loading') w.last = w.token ? 'interface ready, a token stored' : 'interface ready, no token';
            if (invoke === '0.app.checkingSession') {
              w.last = 'session check: the user';
              w.user = event.output as UserInfo;
            }
            if (invoke === '0.app.loaded.refreshing') {
              w.last = 'refresh: the user';
              w.user = event.output as UserInfo;
            }
            if (invoke === '0.app.loaded.signingOut') {
              w.last = 'sign out: ok';
              w.user = null;
            }
            if (invoke === '0.app.readingLibrary') {
              const conversations = event.output as KeptConversation[];
              w.last = `library: ${outputLabel(event)}`;
              if (conversations.length > 0) w.kept = conversations;
            }
            await w.stubs.end(CALL_OF[invokeOf(event)]!, { output: event.output });
          },
        ],
        [
          `xstate.error.actor.${invoke}`,
          async ({ event }: { event: ModelEvent }) => {
            const w = world();
            const status = (event.error as { status?: number }).status;
            if (invoke === '0.app.loading') {
              w.last = 'interface failed';
              w.error = (event.error as Error).message;
            }
            if (invoke === '0.app.checkingSession') {
              w.last = `session check: ${isUnreachable(event.error) ? 'unreachable' : status}`;
              if (status !== 401) w.error = (event.error as Error).message;
            }
            if (invoke === '0.app.readingLibrary') w.last = 'library: failed';
            if (invoke === '0.app.loaded.refreshing') {
              w.last = `refresh: ${status}`;
              if (status === 401) w.user = null;
            }
            if (invoke === '0.app.loaded.signingOut') {
              w.last = `sign out: ${status}`;
              w.user = null;
            }
            await w.stubs.end(CALL_OF[invokeOf(event)]!, { error: event.error });
          },
        ],
      ]),
    ),
    'session.signedIn': ({ event }) => {
      const w = world();
      w.last = 'signed in';
      w.user = (event as ModelEvent & { user: UserInfo }).user;
      w.actor.send(event as never);
    },
    'session.updated': ({ event }) => {
      const w = world();
      const user = (event as ModelEvent & { user: UserInfo }).user;
      // an update after a switch of account must not overwrite the new one
      if (w.user?.id === user.id) {
        w.last = 'own details saved';
        w.user = user;
      } else w.last = "someone else's details saved";
      w.actor.send(event as never);
    },
    'session.refresh': () => {
      world().last = 'refresh asked';
      world().actor.send({ type: 'session.refresh' });
    },
    'session.signOut': () => {
      world().last = 'sign out asked';
      world().actor.send({ type: 'session.signOut' });
    },
    'session.expired': () => {
      const w = world();
      w.last = 'token refused';
      w.user = null;
      w.actor.send({ type: 'session.expired' });
    },
    retry: () => {
      const w = world();
      w.last = 'click retry';
      w.kept = null;
      w.actor.send({ type: 'retry' });
    },
  },
});

describe('app start and session, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state and takes every transition, with a token stored at start and without', () => {
    const reached = new Set(generated.flatMap(({ paths }) => paths.flatMap((path) => path.steps.map((step) => step.state))).map((state) => {
      const value = state.value as string | Record<string, string>;
      return typeof value === 'string' ? value : Object.entries(value).map(([parent, child]) => `${parent}.${child}`)[0]!;
    }));
    const declared = Object.entries(appMachine.root.states).flatMap(([name, node]) =>
      Object.keys(node.states).length > 0 ? Object.keys(node.states).map((child) => `${name}.${child}`) : [name],
    );
    expect([...reached].sort()).toEqual(declared.sort());
    // With a token: 43 transitions, 6 of them a start that cannot reach the server (the library
    // read, from a first start and after a retry; what it found, or its failure; the normal start
    // again); 37 before those. Without one, the session check is never made and 31 remain.
    expect(generated.map(({ transitionCount }) => transitionCount)).toEqual([43, 31]);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  const cases = generated.flatMap(({ stored, paths }) => paths.map((path) => [`${stored ? 'token' : 'no token'}: ${describeEvents(path.events, outputLabel)}`, stored, path] as const));
  it.each(cases)('%s', async (_name, stored, path) => {
    const stubs = stubCalls();
    const w = { stubs, token: stored ? 'stored-token' : null, user: null, error: null, kept: null, last: stored ? 'start with a token' : 'start without a token' } as unknown as World;
    w.actor = createActor(
      appMachine.provide({
        actors: { prepare: stubs.logic('prepare'), fetchUser: stubs.logic('fetchUser'), revokeSession: stubs.logic('revokeSession'), readLibrary: stubs.logic('readLibrary') },
        actions: {
          storeToken: (_, { token }) => {
            w.token = token;
          },
          clearToken: () => {
            w.token = null;
          },
        },
        guards: { hasToken: () => w.token !== null },
      }),
    );
    world = w;
    w.actor.start();
    await settle();
    await playCheckingEveryStep(path, testParams);
    w.actor.stop();
  });
});
