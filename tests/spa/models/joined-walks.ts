import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import type { ModelEvent, ProductionModelOptions, ProductionPath } from './production-paths';

/** What the walks need of the model `productionPaths` made: its graph, and playing a path. */
type WalkModel = {
  getAdjacencyMap(): object;
  testPath(path: never, params: never): Promise<unknown>;
};

export type JoinedWalkOptions<M extends AnyStateMachine> = ProductionModelOptions<M> & {
  /**
   * What makes two transitions the same for the walks: e.g. the state values and the event as the
   * screen sees them, so the walks take every wire of a screen without every context the actor
   * tells apart (the paths played on the actor take those).
   */
  transitionKey: (from: SnapshotFrom<M>, event: ModelEvent, to: SnapshotFrom<M>) => string;
  /** A walk ends after this many steps (and the next starts from the beginning): a limit per test. */
  maxSteps?: number;
};

/**
 * A few long walks through the production machine that together take every transition (as
 * `transitionKey` names them): from the start, go by the shortest way to the nearest transition
 * not taken yet, take it, and go on, until the walk is `maxSteps` long. For a screen, where every
 * new render costs time, this takes each of its wires in a handful of tests. The ways are searched
 * on the snapshots the walk really reaches, with the events `events` gives for each, so a walk
 * takes exactly what it says.
 */
export const joinedWalks = <M extends AnyStateMachine>(machine: M, model: WalkModel, options: JoinedWalkOptions<M>) => {
  const serialize = options.serializeState;
  const maxSteps = options.maxSteps ?? 40;
  const adjacency = Object.values(model.getAdjacencyMap()) as { state: AnyMachineSnapshot; transitions: Record<string, { event: ModelEvent; state: AnyMachineSnapshot }> }[];
  /** Every transition the traversal found, named by `transitionKey`. */
  const allKeys = new Set(
    adjacency.flatMap(({ state, transitions }) =>
      Object.values(transitions)
        .filter(({ event }) => state.status === 'active' && state.can(event as never))
        .map(({ event, state: next }) => options.transitionKey(state as SnapshotFrom<M>, event, next as SnapshotFrom<M>)),
    ),
  );
  const untaken = new Set(allKeys);
  const [initial] = initialTransition(machine, options.input as never);

  const eventsIn = (state: SnapshotFrom<M>) =>
    (typeof options.events === 'function' ? options.events(state) : options.events)
      .filter((event) => (state as AnyMachineSnapshot).status === 'active' && (state as AnyMachineSnapshot).can(event as never));
  type Step = { state: SnapshotFrom<M>; event: ModelEvent };
  /** The state after the event; none when the machine throws on it (a transition no walk can take, so left untaken). */
  const nextState = (state: SnapshotFrom<M>, event: ModelEvent): SnapshotFrom<M> | null => {
    try {
      return transition(machine, state as never, event as never)[0] as SnapshotFrom<M>;
    } catch {
      return null;
    }
  };
  /**
   * The shortest way from the state the walk stands in to a transition not taken yet, that
   * transition last: searched on the snapshots themselves, as the graph's states only stand for
   * the ones serialized alike (an earlier exchange can make the same step end elsewhere).
   */
  const toNearestUntaken = (from: SnapshotFrom<M>): Step[] | null => {
    const seen = new Set([serialize(from)]);
    const queue: { at: SnapshotFrom<M>; way: Step[] }[] = [{ at: from, way: [] }];
    while (queue.length > 0) {
      const { at, way } = queue.shift()!;
      for (const event of eventsIn(at)) {
        const next = nextState(at, event);
        if (!next) continue;
        const step = { state: next, event };
        if (untaken.has(options.transitionKey(at, event, next))) return [...way, step];
        if (!seen.has(serialize(next))) {
          seen.add(serialize(next));
          queue.push({ at: next, way: [...way, step] });
        }
      }
    }
    return null;
  };

  const walks: ProductionPath<M>[] = [];
  while (untaken.size > 0) {
    const steps: Step[] = [{ state: initial as SnapshotFrom<M>, event: { type: 'xstate.init' } }];
    for (let way = toNearestUntaken(steps[0]!.state); way && steps.length <= maxSteps; way = toNearestUntaken(steps.at(-1)!.state)) {
      for (const step of way) {
        untaken.delete(options.transitionKey(steps.at(-1)!.state, step.event, step.state));
        steps.push(step);
      }
    }
    if (steps.length === 1) break;
    const events = steps.slice(1).map((step) => step.event);
    const path = { state: steps.at(-1)!.state, steps, weight: steps.length };
    walks.push({ ...path, events, description: JSON.stringify(events), test: (params) => model.testPath(path as never, params as never) });
  }
  /** Every transition key each walk takes, to prove together they take them all. */
  const taken = new Set(
    walks.flatMap((walk) => walk.steps.slice(1).map((step, index) => options.transitionKey(walk.steps[index]!.state, step.event, step.state))),
  );
  return { walks, allKeys, taken };
};
