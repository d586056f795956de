import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor, type Actor } from 'xstate';
import { createTestModel } from 'xstate/graph';
import type { UpdateUserRequest, UserInfo } from '../contract/users';
import { accountFormMachine } from './account-form.machine';

/**
 * The account form as a person meets it: type something invalid, be told on save, fix it, save;
 * or save while the server fails, keep what was typed, and save again once it answers.
 */
const accountFlow = createMachine({
  id: 'accountFlow',
  types: {} as { events: { type: 'TYPE_INVALID' } | { type: 'TYPE_VALID' } | { type: 'SAVE' } | { type: 'SAVE_WHILE_DOWN' } },
  initial: 'clean',
  states: {
    clean: { on: { TYPE_INVALID: 'invalid', TYPE_VALID: 'valid' } },
    invalid: { on: { SAVE: 'invalidShown', TYPE_VALID: 'valid' } },
    invalidShown: { on: { TYPE_VALID: 'valid' } },
    valid: { on: { SAVE: 'saved', SAVE_WHILE_DOWN: 'failed' } },
    failed: { on: { SAVE: 'saved' } },
    saved: { type: 'final' },
  },
});

const ada: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '' };

type World = { actor: Actor<typeof accountFormMachine>; serverDown: boolean; saves: UpdateUserRequest[]; savedUsers: UserInfo[] };

const newWorld = async (): Promise<World> => {
  const world = { serverDown: false, saves: [], savedUsers: [] } as unknown as World;
  world.actor = createActor(
    accountFormMachine.provide({
      actors: {
        loadUser: fromPromise(async () => ada),
        saveUser: fromPromise(async ({ input }) => {
          world.saves.push(input);
          if (world.serverDown) throw Object.assign(new Error('HTTP 503'), { description: 'Try later' });
          return { ...ada, ...input } as UserInfo;
        }),
      },
      actions: { userSaved: (_, { user }) => void world.savedUsers.push(user) },
    }),
    { input: {} },
  ).start();
  await waitFor(world.actor, (state) => state.matches('ready'));
  return world;
};

const settle = (world: World) => waitFor(world.actor, (state) => !state.matches({ ready: { form: 'saving' } }));
const form = (world: World) => world.actor.getSnapshot();

const model = createTestModel(accountFlow);
const paths = model.getSimplePaths();

describe('account form model', () => {
  it('has paths through every state', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => String(step.state.value))));
    expect([...reached].sort()).toEqual(['clean', 'failed', 'invalid', 'invalidShown', 'saved', 'valid']);
  });

  for (const path of paths) {
    it(path.description, async () => {
      const world = await newWorld();
      await path.test({
        states: {
          clean: () => {
            expect(form(world).context.values).toEqual({ nickname: 'Ada', wechatId: '', avatar: '' });
            expect(form(world).context.problems).toEqual({});
          },
          invalid: () => {
            expect(form(world).context.problems).toEqual({});
            expect(world.saves).toHaveLength(0);
          },
          invalidShown: () => {
            expect(form(world).context.problems).toEqual({ wechatId: 'format' });
            expect(form(world).matches({ ready: { form: 'editing' } })).toBe(true);
            expect(world.saves).toHaveLength(0);
          },
          valid: () => {
            expect(form(world).context.problems).toEqual({});
            expect(form(world).context.values.nickname).toBe('Countess');
          },
          failed: () => {
            expect(form(world).matches({ ready: { form: 'failed' } })).toBe(true);
            expect(form(world).context).toMatchObject({ failure: 'Try later', values: { nickname: 'Countess', wechatId: 'countess_ada' } });
            expect(world.savedUsers).toHaveLength(0);
          },
          saved: () => {
            expect(form(world).matches({ ready: { form: 'saved' } })).toBe(true);
            expect(world.savedUsers.at(-1)).toMatchObject({ nickname: 'Countess', wechatId: 'countess_ada' });
            expect(form(world).context.saved.nickname).toBe('Countess');
          },
        },
        events: {
          TYPE_INVALID: () => {
            world.actor.send({ type: 'field.change', field: 'wechatId', value: '1-bad' });
          },
          TYPE_VALID: () => {
            world.actor.send({ type: 'field.change', field: 'nickname', value: 'Countess' });
            world.actor.send({ type: 'field.change', field: 'wechatId', value: 'countess_ada' });
          },
          SAVE: async () => {
            world.serverDown = false;
            world.actor.send({ type: 'save' });
            await settle(world);
          },
          SAVE_WHILE_DOWN: async () => {
            world.serverDown = true;
            world.actor.send({ type: 'save' });
            await settle(world);
          },
        },
      });
    });
  }
});
