import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { endpoints } from '../../../src/contract/endpoints';
import { isSignedIn } from '../../../src/machines/app.machine';
import OperationsArea from '../../../src/screens/operations/operations-area';
import { getConversation } from '../../../src/services/api/conversations';
import { getToken, setToken } from '../../../src/services/cookies';
import { db, seedUser } from '../../msw/db';
import { recordRequests, server, type SeenRequest } from '../../msw/server';
import { gate } from '../../msw/sse';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * The operations area's door as an operator meets it: without a token, with a forged one or with
 * one the verification refuses they land on the login page with the exact address to come back
 * to; with a good one they wait for the check and then see the area; moving inside the area moves
 * the return address with them, and a 401 mid-visit sends them to login from where they are.
 * No invoke, no after: the real OperationsArea does the work, the model says what must be true.
 */
const operationsGuard = createMachine({
  id: 'operationsGuard',
  types: {} as {
    events:
      | { type: 'VISIT_WITHOUT_TOKEN' }
      | { type: 'VISIT_WITH_FORGED_TOKEN' }
      | { type: 'VISIT_WHILE_VERIFICATION_REFUSES' }
      | { type: 'VISIT_WITH_TOKEN' }
      | { type: 'VERIFICATION_ANSWERS' }
      | { type: 'NAVIGATE_INSIDE' }
      | { type: 'SESSION_EXPIRES' };
  },
  initial: 'notVisited',
  states: {
    notVisited: {
      on: {
        VISIT_WITHOUT_TOKEN: 'sentToLogin',
        VISIT_WITH_FORGED_TOKEN: 'sentToLogin',
        VISIT_WHILE_VERIFICATION_REFUSES: 'sentToLogin',
        VISIT_WITH_TOKEN: 'checking',
      },
    },
    checking: { on: { VERIFICATION_ANSWERS: 'inArea' } },
    inArea: { on: { NAVIGATE_INSIDE: 'movedInside', SESSION_EXPIRES: 'sentToLogin' } },
    movedInside: { on: { SESSION_EXPIRES: 'sentToLogin' } },
    sentToLogin: { type: 'final' },
  },
});

const model = createTestModel(operationsGuard);
const { paths, transitionCount } = planPaths('operations guard', model);

const area = (
  <Switch>
    <Route path="/kraken-operation" component={OperationsArea} />
    <Route path="/kraken-operation/*" component={OperationsArea} />
    <Route path="/login">
      <p>the login page</p>
    </Route>
    <Route>
      <p>elsewhere</p>
    </Route>
  </Switch>
);

const loginUrl = (back: string) => `/login?source=kraken&redirect_url=${encodeURIComponent(back)}`;

/** A deep address with a query, so "exact" means path and query both. */
const DEEP = '/kraken-operation/task/edit/42?tab=images&draft=1';
const OVERVIEW = '/kraken-operation?status=draft';
const XHS_TASK = '/kraken-operation/task/xiaohongshu';

type World = {
  view: Screen | null;
  /** Where the operator is now, so where login must bring them back. */
  at: string;
  verifications: SeenRequest[];
  releaseVerification: () => void;
  expectSignedOut: boolean;
};

const view = (world: World) => world.view!;
const newTaskLink = () => screen.queryByRole('link', { name: 'New Xiaohongshu task' });

const expectNothingOfTheArea = () => {
  expect(newTaskLink()).toBeNull();
  expect(screen.queryByRole('heading', { name: 'Task not found' })).toBeNull();
  expect(screen.queryByRole('heading', { name: 'Xiaohongshu task' })).toBeNull();
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof operationsGuard>, EventFromLogic<typeof operationsGuard>> => ({
  states: {
    notVisited: () => {
      expect(world().view).toBeNull();
      expect(getToken()).toBeNull();
      expect(world().verifications).toHaveLength(0);
    },
    checking: async () => {
      // the check is under way and held: nothing of the area shows before it answers
      await expect.poll(() => world().verifications.length).toBe(1);
      expect(screen.getByRole('status')).toHaveTextContent(/check/i);
      expectNothingOfTheArea();
      expect(view(world()).url()).toBe(world().at);
    },
    inArea: async () => {
      expect(await screen.findByRole('link', { name: 'New Xiaohongshu task' })).toBeInTheDocument();
      expect(view(world()).url()).toBe(world().at);
      expect(world().verifications).toHaveLength(1);
      expect(screen.queryByText('the login page')).toBeNull();
    },
    movedInside: async () => {
      expect(await screen.findByRole('heading', { name: 'Xiaohongshu task' })).toBeInTheDocument();
      expect(view(world()).url()).toBe(XHS_TASK);
      // moving inside the area is not a new visit: the door was checked once
      expect(world().verifications).toHaveLength(1);
    },
    sentToLogin: async () => {
      await expect.poll(view(world()).url).toBe(loginUrl(world().at));
      expect(await screen.findByText('the login page')).toBeInTheDocument();
      expectNothingOfTheArea();
      if (world().expectSignedOut) {
        expect(isSignedIn(view(world()).runtime.app.getSnapshot())).toBe(false);
        expect(getToken()).toBeNull();
      }
    },
  },
  events: {
    VISIT_WITHOUT_TOKEN: async () => {
      world().at = DEEP;
      world().expectSignedOut = true;
      world().view = await renderWithRuntime(area, { url: DEEP });
    },
    VISIT_WITH_FORGED_TOKEN: async () => {
      seedUser();
      setToken('forged.token.value');
      world().at = '/kraken-operation/task/linkedin?draft=3';
      world().expectSignedOut = true;
      world().view = await renderWithRuntime(area, { url: world().at });
    },
    VISIT_WHILE_VERIFICATION_REFUSES: async () => {
      const { user } = seedUser();
      server.use(http.get(endpoints.operationsSession.path, () => HttpResponse.json({ code: 1, msg: 'Account locked', data: null })));
      world().at = DEEP;
      world().view = await renderWithRuntime(area, { url: DEEP, signedInAs: user });
    },
    VISIT_WITH_TOKEN: async () => {
      const { user } = seedUser();
      const held = gate();
      world().releaseVerification = held.open;
      // held until the model says the check answers, then the default handler answers it
      server.use(
        http.get(endpoints.operationsSession.path, async () => {
          await held.promise;
          return undefined;
        }),
      );
      world().at = OVERVIEW;
      world().view = await renderWithRuntime(area, { url: OVERVIEW, signedInAs: user });
    },
    VERIFICATION_ANSWERS: () => world().releaseVerification(),
    NAVIGATE_INSIDE: async () => {
      await view(world()).user.click(screen.getByRole('link', { name: 'New Xiaohongshu task' }));
      world().at = XHS_TASK;
    },
    SESSION_EXPIRES: async () => {
      world().expectSignedOut = true;
      db.sessions.clear();
      await getConversation('conv-1').catch(() => undefined);
    },
  },
});

describe('operations guard, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(operationsGuard, model, params)).toEqual(NO_GAPS);
    expect(transitionCount).toBe(8);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    world = {
      view: null,
      at: '',
      verifications: recordRequests(endpoints.operationsSession.path),
      releaseVerification: () => undefined,
      expectSignedOut: false,
    };
    await path.test(params);
  });
});
