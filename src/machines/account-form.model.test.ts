import { describe, expect, it } from 'vitest';
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import type { FileRef } from '../contract/media';
import type { UpdateUserRequest, UserInfo } from '../contract/users';
import { settle, stubCalls } from '../../tests/spa/models/held-calls';
import { describeEvents, productionPaths, type ModelEvent } from '../../tests/spa/models/production-paths';
import { accountFormMachine } from './account-form.machine';

/**
 * The account form on paths generated from the machine that ships: the account loads or fails,
 * the person types a WeChat id the rules refuse or accept, saves while the server works or fails,
 * and picks, uploads or removes an avatar. Each path is played on the production machine as an
 * actor whose calls wait until the path says how they end. The rules checked: nothing typed is
 * lost on a failure, a broken rule is named and nothing is sent, no save while an avatar uploads.
 */
type Snapshot = SnapshotFrom<typeof accountFormMachine>;

const ADA: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };
const LIMIT = 1000;
const file = (name: string, type: string, size: number) => new File([new Uint8Array(size)], name, { type });
const PICTURE = file('me.png', 'image/png', 100);
const SVG = file('me.svg', 'image/svg+xml', 100);
const HUGE = file('huge.png', 'image/png', LIMIT + 1);
const uploaded = (kind: FileRef['kind']): FileRef => ({ fileId: 'f1', name: 'me.png', url: '/files/me.png', kind, mimeType: 'image/png', size: 100 });
const failure = (description: string, status?: number) => Object.assign(new Error('HTTP error'), { description, status });

const SAVE_DONE = 'xstate.done.actor.0.accountForm.ready.form.saving';
const UPLOAD = '0.accountForm.ready.avatar.uploading';
/** What the world can do; the server saves what it is sent. */
const events = (state: Snapshot): ModelEvent[] => [
  { type: 'xstate.done.actor.0.accountForm.loading', output: ADA },
  { type: 'xstate.error.actor.0.accountForm.loading', error: failure('Database unavailable') },
  { type: 'retry' },
  { type: 'field.change', field: 'wechatId', value: '1-bad' },
  { type: 'field.change', field: 'wechatId', value: 'countess_ada' },
  { type: 'save' },
  { type: SAVE_DONE, output: { ...ADA, wechatId: state.context.values.wechatId, avatar: state.context.values.avatar } },
  { type: 'xstate.error.actor.0.accountForm.ready.form.saving', error: failure('Try later') },
  // a File reads as {} in JSON: the name tells the three picks apart in the traversal
  { type: 'avatar.select', file: PICTURE, name: PICTURE.name },
  { type: 'avatar.select', file: SVG, name: SVG.name },
  { type: 'avatar.select', file: HUGE, name: HUGE.name },
  { type: 'avatar.remove' },
  { type: `xstate.done.actor.${UPLOAD}`, output: uploaded('image') },
  { type: `xstate.done.actor.${UPLOAD}`, output: uploaded('other') },
  { type: `xstate.error.actor.${UPLOAD}`, error: failure('Too large', 413) },
  { type: `xstate.error.actor.${UPLOAD}`, error: failure('Storage down', 500) },
];
/** What decides a save: whether the rules accept the WeChat id (empty is accepted). */
const wechatClass = (value: string) => (value === '1-bad' ? 'refused' : 'accepted');
const serializeState = (state: Snapshot) =>
  [
    JSON.stringify(state.value),
    `wechat ${wechatClass(state.context.values.wechatId)}`,
    state.context.values.avatar ? 'avatar' : 'no avatar',
    Object.keys(state.context.problems).join(',') || 'no problem',
    state.context.avatarProblem ? 'avatar refused' : 'no avatar problem',
  ].join(' ');
const input = { uploadLimitBytes: LIMIT };
const { paths, transitionCount } = productionPaths(accountFormMachine, { events, input, serializeState });

type Place = 'loading' | 'loadFailed' | 'ready';
type World = {
  actor: Actor<typeof accountFormMachine>;
  stubs: ReturnType<typeof stubCalls>;
  savedUsers: UserInfo[];
  /** What the form must show and hold, from what happened. */
  place: Place;
  form: string;
  avatar: string;
  values: { wechatId: string; avatar: string };
  saved: { wechatId: string; avatar: string };
  problem: boolean;
  avatarProblem: string | null;
  saves: number;
  /** What the last accepted save must send. */
  request: UpdateUserRequest | null;
  last: string;
};

/** Where the form must be after what last happened, from the product's rules. */
const EXPECTED_AFTER: Record<string, { place: Place; form?: string; avatar?: string }> = {
  start: { place: 'loading' },
  'account loaded': { place: 'ready', form: 'editing', avatar: 'idle' },
  'account failed': { place: 'loadFailed' },
  'click try again': { place: 'loading' },
  typed: { place: 'ready', form: 'editing' },
  'saved with a broken rule': { place: 'ready', form: 'editing' },
  'saved, rules kept': { place: 'ready', form: 'saving' },
  'save while the avatar uploads': { place: 'ready' },
  'server saved': { place: 'ready', form: 'saved' },
  'server refused the save': { place: 'ready', form: 'failed' },
  'picked a picture': { place: 'ready', avatar: 'uploading' },
  'picked something else': { place: 'ready', avatar: 'idle' },
  'removed the avatar': { place: 'ready', avatar: 'idle' },
  'upload answered': { place: 'ready', avatar: 'idle' },
};

const happened = (world: World, last: string) => {
  world.last = last;
  const expected = EXPECTED_AFTER[last]!;
  world.place = expected.place;
  if (expected.form) world.form = expected.form;
  if (expected.avatar) world.avatar = expected.avatar;
};

const check = (world: World, key: string) => {
  const snapshot = world.actor.getSnapshot();
  const expectedKey = world.place === 'ready' ? key.startsWith('ready.form') ? `ready.form.${world.form}` : `ready.avatar.${world.avatar}` : world.place;
  expect(expectedKey, `after ${world.last}`).toBe(key);
  expect(snapshot.matches(key as never)).toBe(true);
  if (world.place !== 'ready') return;
  // nothing typed is lost, whatever the server said
  expect(snapshot.context.values).toEqual({ nickname: 'Ada', ...world.values });
  expect(snapshot.context.saved).toEqual({ nickname: 'Ada', ...world.saved });
  expect(Object.keys(snapshot.context.problems).length > 0, 'a broken rule is named').toBe(world.problem);
  if (world.problem) expect(snapshot.context.problems).toEqual({ wechatId: 'format' });
  expect(snapshot.context.avatarProblem?.kind ?? null).toBe(world.avatarProblem);
  // the server is asked to save once per accepted save, and the app told once per save done
  expect(world.stubs.calls.filter((call) => call.name === 'saveUser')).toHaveLength(world.saves);
};

const params = (world: () => World): TestParam<Snapshot, ModelEvent> => ({
  states: {
    loading: () => {
      check(world(), 'loading');
      expect(world().stubs.pending.map((call) => call.name)).toEqual(['loadUser']);
    },
    loadFailed: () => {
      check(world(), 'loadFailed');
      expect(world().actor.getSnapshot().context.failure).toBe('Database unavailable');
      expect(world().stubs.pending).toEqual([]);
    },
    'ready.form.editing': () => check(world(), 'ready.form.editing'),
    'ready.form.saving': () => {
      check(world(), 'ready.form.saving');
      const sent = world().stubs.pending.find((call) => call.name === 'saveUser')!.input as UpdateUserRequest;
      expect(sent).toEqual(world().request);
    },
    'ready.form.saved': () => {
      check(world(), 'ready.form.saved');
      expect(world().savedUsers.at(-1)).toMatchObject(world().saved);
      expect(world().actor.getSnapshot().context.failure).toBeNull();
    },
    'ready.form.failed': () => {
      check(world(), 'ready.form.failed');
      expect(world().actor.getSnapshot().context.failure).toBe('Try later');
    },
    'ready.avatar.idle': () => {
      check(world(), 'ready.avatar.idle');
      expect(world().stubs.pending.some((call) => call.name === 'uploadAvatar')).toBe(false);
    },
    'ready.avatar.uploading': () => {
      check(world(), 'ready.avatar.uploading');
      expect(world().stubs.pending.find((call) => call.name === 'uploadAvatar')!.input).toEqual({ file: PICTURE });
      expect(world().actor.getSnapshot().can({ type: 'save' })).toBe(false);
    },
  },
  events: {
    'xstate.done.actor.0.accountForm.loading': async ({ event }: { event: ModelEvent }) => {
      happened(world(), 'account loaded');
      await world().stubs.end('loadUser', { output: event.output });
    },
    'xstate.error.actor.0.accountForm.loading': async ({ event }: { event: ModelEvent }) => {
      happened(world(), 'account failed');
      await world().stubs.end('loadUser', { error: event.error });
    },
    retry: () => {
      happened(world(), 'click try again');
      world().actor.send({ type: 'retry' });
    },
    'field.change': ({ event }) => {
      const { value } = event as ModelEvent & { value: string };
      happened(world(), 'typed');
      world().values.wechatId = value;
      // fixing a field clears what was said about it
      world().problem = false;
      world().actor.send(event as never);
    },
    save: () => {
      const w = world();
      if (w.avatar === 'uploading') happened(w, 'save while the avatar uploads');
      else if (w.values.wechatId === '1-bad') {
        happened(w, 'saved with a broken rule');
        w.problem = true;
      } else {
        happened(w, 'saved, rules kept');
        w.saves += 1;
        // what was typed, and the avatar only when it changed
        const avatarChanged = w.values.avatar !== w.saved.avatar;
        w.request = { nickname: 'Ada', wechatId: w.values.wechatId, ...(avatarChanged ? { avatar: w.values.avatar } : {}) };
      }
      w.actor.send({ type: 'save' });
    },
    [SAVE_DONE]: async ({ event }: { event: ModelEvent }) => {
      happened(world(), 'server saved');
      world().saved = { ...world().values };
      await world().stubs.end('saveUser', { output: event.output });
    },
    'xstate.error.actor.0.accountForm.ready.form.saving': async ({ event }: { event: ModelEvent }) => {
      happened(world(), 'server refused the save');
      await world().stubs.end('saveUser', { error: event.error });
    },
    'avatar.select': ({ event }) => {
      const picked = (event as ModelEvent & { file: File }).file;
      const w = world();
      if (picked === PICTURE) {
        happened(w, 'picked a picture');
        w.avatarProblem = null;
      } else {
        happened(w, 'picked something else');
        w.avatarProblem = picked.type === 'image/png' ? 'tooLarge' : 'notImage';
      }
      w.actor.send(event as never);
    },
    'avatar.remove': () => {
      happened(world(), 'removed the avatar');
      world().values.avatar = '';
      world().avatarProblem = null;
      world().actor.send({ type: 'avatar.remove' });
    },
    [`xstate.done.actor.${UPLOAD}`]: async ({ event }: { event: ModelEvent }) => {
      const ref = event.output as FileRef;
      happened(world(), 'upload answered');
      if (ref.kind === 'image') {
        world().values.avatar = ref.url;
        world().avatarProblem = null;
      } else world().avatarProblem = 'notImage';
      await world().stubs.end('uploadAvatar', { output: ref });
    },
    [`xstate.error.actor.${UPLOAD}`]: async ({ event }: { event: ModelEvent }) => {
      happened(world(), 'upload answered');
      world().avatarProblem = (event.error as { status: number }).status === 413 ? 'tooLarge' : 'failed';
      await world().stubs.end('uploadAvatar', { error: event.error });
    },
  },
});

describe('the account form, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state and takes every transition', () => {
    const reached = new Set(
      paths.flatMap((path) => path.steps.map((step) => step.state)).flatMap((state) =>
        typeof state.value === 'string' ? [state.value] : Object.entries(state.value.ready).map(([region, child]) => `ready.${region}.${child}`),
      ),
    );
    const regions = accountFormMachine.root.states.ready!.states;
    const declared = ['loading', 'loadFailed', ...Object.entries(regions).flatMap(([region, node]) => Object.keys(node.states).map((child) => `ready.${region}.${child}`))]
      // "validating" is a decision taken at once, never a place the form rests in
      .filter((state) => state !== 'ready.form.validating');
    expect([...reached].sort()).toEqual(declared.sort());
    // Every event from every place the form can be in (each region's state, whether the WeChat id is
    // accepted, an avatar set, a rule or an avatar refused) that the machine takes.
    expect(transitionCount).toBe(239);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describeEvents(path.events), path] as const))('%s', async (_name, path) => {
    const stubs = stubCalls();
    const w = {
      stubs, savedUsers: [], place: 'loading', form: 'editing', avatar: 'idle', values: { wechatId: '', avatar: '' }, saved: { wechatId: '', avatar: '' },
      problem: false, avatarProblem: null, saves: 0, request: null, last: 'start',
    } as unknown as World;
    w.actor = createActor(
      accountFormMachine.provide({
        actors: { loadUser: stubs.logic('loadUser'), saveUser: stubs.logic('saveUser'), uploadAvatar: stubs.logic('uploadAvatar') },
        actions: { userSaved: (_, { user }) => void w.savedUsers.push(user) },
      }),
      { input },
    );
    world = w;
    w.actor.start();
    await settle();
    let asserted = 0;
    await path.test({
      ...testParams,
      states: Object.fromEntries(Object.entries(testParams.states!).map(([key, check]) => [key, (state: Snapshot) => ((asserted += 1), check(state))])),
    });
    // every step's state was checked: the two regions of a ready form each once
    expect(asserted).toBe(path.steps.reduce((sum, step) => sum + (step.state.matches('ready') ? 2 : 1), 0));
    w.actor.stop();
  });
});
