import type { AnyStateMachine, EventObject, Snapshot } from 'xstate';
import type { TestModel, TestParam } from 'xstate/graph';

type ModelSnapshot = Snapshot<unknown> & { value: unknown };

/** Every state value the model can reach and every event type it can take on the way. */
export const reachable = <S extends ModelSnapshot, E extends EventObject, I = unknown>(model: TestModel<S, E, I>) => {
  const adjacency = Object.values(model.getAdjacencyMap());
  const states = new Set(adjacency.map((entry) => String(entry.state.value)));
  const events = new Set(
    adjacency.flatMap((entry) => Object.values<{ event: E }>(entry.transitions).map((transition) => transition.event.type)),
  );
  return { states, events };
};

/**
 * What a model-based test leaves unchecked: reachable states without an assertion, events
 * without an executor, and assertions or executors for things the model no longer has.
 */
export const coverageGaps = <S extends ModelSnapshot, E extends EventObject, I = unknown>(
  machine: AnyStateMachine,
  model: TestModel<S, E, I>,
  params: TestParam<S, E>,
) => {
  const { states, events } = reachable(model);
  const asserted = Object.keys(params.states ?? {});
  const executed = Object.keys(params.events ?? {});
  const declaredStates = Object.keys(machine.root.states);
  return {
    statesWithoutAssertion: [...states].filter((state) => !asserted.includes(state)),
    eventsWithoutExecutor: [...events].filter((event) => !executed.includes(event)),
    unreachableStates: declaredStates.filter((state) => !states.has(state)),
    staleAssertions: asserted.filter((state) => !states.has(state)),
    staleExecutors: executed.filter((event) => !events.has(event)),
  };
};

export const NO_GAPS = {
  statesWithoutAssertion: [],
  eventsWithoutExecutor: [],
  unreachableStates: [],
  staleAssertions: [],
  staleExecutors: [],
};

type PathLike = { steps: ReadonlyArray<{ state: { value: unknown }; event: { type: string } }> };

/** The transitions a path takes, as "from-state|event". */
export const transitionsOf = (path: PathLike): string[] =>
  path.steps.slice(1).map((step, index) => `${JSON.stringify(path.steps[index]!.state.value)}|${step.event.type}`);

/**
 * A few of the given paths that together take every transition the paths take: each state is
 * still asserted after every step, but a long model does not cost one screen per simple path.
 */
export const pathsCoveringEveryTransition = <P extends PathLike>(paths: readonly P[]): P[] => {
  const uncovered = new Set(paths.flatMap(transitionsOf));
  const chosen: P[] = [];
  while (uncovered.size > 0) {
    let best: P | undefined;
    let bestGain = 0;
    for (const path of paths) {
      const gain = new Set(transitionsOf(path).filter((transition) => uncovered.has(transition))).size;
      if (gain > bestGain) {
        best = path;
        bestGain = gain;
      }
    }
    if (!best) break;
    chosen.push(best);
    for (const transition of transitionsOf(best)) uncovered.delete(transition);
  }
  return chosen;
};

/** The paths without repeats (the same description means the same events from the start). */
export const uniquePaths = <P extends { description: string }>(paths: readonly P[]): P[] => [
  ...new Map(paths.map((path) => [path.description, path])).values(),
];

/**
 * The paths a model test runs: every transition at least once, and every state at the end of its
 * shortest path. Prints how many paths the model produced, as every model test run should.
 */
export const planPaths = <S extends ModelSnapshot, E extends EventObject>(name: string, model: TestModel<S, E, unknown>, note = '') => {
  const simplePaths = model.getSimplePaths();
  const shortestPaths = model.getShortestPaths();
  const paths = uniquePaths([...pathsCoveringEveryTransition(simplePaths), ...shortestPaths]);
  const transitionCount = new Set(simplePaths.flatMap(transitionsOf)).size;
  console.log(
    `${name} model: ${simplePaths.length} simple paths, ${shortestPaths.length} shortest paths; running ${paths.length} that take all ${transitionCount} transitions${note}`,
  );
  return { simplePaths, shortestPaths, paths, transitionCount };
};
