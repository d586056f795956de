import type { AnyStateMachine, SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { expect } from 'vitest';
import type { ModelEvent, ProductionPath } from './production-paths';

/**
 * Plays a path and proves that every step's state was checked, once: a state the parameters left
 * without an assertion would otherwise pass unseen.
 */
export const playCheckingEveryStep = async <M extends AnyStateMachine>(path: ProductionPath<M>, params: TestParam<SnapshotFrom<M>, ModelEvent>) => {
  const asserted: string[] = [];
  const states = Object.fromEntries(
    Object.entries(params.states ?? {}).map(([key, check]) => [key, (state: SnapshotFrom<M>) => (asserted.push(key), check(state))]),
  );
  await path.test({ ...params, states });
  expect(asserted).toHaveLength(path.steps.length);
};

/** Starts the actor the path's world holds, plays the path on it checking every step, and stops it, whatever happens. */
export const playOnActor = async <M extends AnyStateMachine>(
  actor: { start(): unknown; stop(): unknown },
  path: ProductionPath<M>,
  params: TestParam<SnapshotFrom<M>, ModelEvent>,
) => {
  actor.start();
  try {
    await playCheckingEveryStep(path, params);
  } finally {
    actor.stop();
  }
};
