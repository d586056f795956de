import { initialTransition, transition, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type InputFrom, type SnapshotFrom } from 'xstate';
import { TestModel, type TestParam } from 'xstate/graph';
import { uniquePaths } from './model-coverage';

/** An event as the machine receives it, including the done/error events of its invoked actors. */
export type ModelEvent = EventObject & { output?: unknown; error?: unknown; [key: string]: unknown };

export type ProductionPath<M extends AnyStateMachine> = {
  state: SnapshotFrom<M>;
  steps: { state: SnapshotFrom<M>; event: ModelEvent }[];
  weight: number;
  /** The events from the start, as JSON: the same description means the same path. */
  description: string;
  /** The events after the start, for naming the test. */
  events: ModelEvent[];
  test: (params: TestParam<SnapshotFrom<M>, ModelEvent>) => Promise<unknown>;
};

export type ProductionModelOptions<M extends AnyStateMachine> = {
  /**
   * Every event the world can send: people's events and the answers of the machine's actors; or,
   * per state, the ones that make sense there (the agent of the id being fetched, or what
   * `serializeState` tells apart).
   */
  events: ModelEvent[] | ((state: SnapshotFrom<M>) => ModelEvent[]);
  input?: InputFrom<M>;
  /** One string per state the person can tell apart (the state value, and what the context shows). */
  serializeState: (state: SnapshotFrom<M>) => string;
};

/**
 * Paths generated from the machine that ships, not from a model of it: the production machine is
 * traversed with `xstate/graph` (pure transitions, so its actors never run; their answers are
 * events of the traversal) and every transition it can take becomes the last step of a path that
 * first reaches its source state by the shortest way. A transition that goes somewhere wrong is
 * then always the step a test checks last, against rules written from the product, not the machine.
 */
export const productionPaths = <M extends AnyStateMachine>(machine: M, options: ProductionModelOptions<M>) => {
  const model = new TestModel(machine, {
    events: options.events as never,
    input: options.input,
    serializeState: options.serializeState as never,
    stateMatcher: (state, key) => (state as AnyMachineSnapshot).matches(key as never),
  });

  const pathThrough = (events: ModelEvent[]): ProductionPath<M> => {
    const [initial] = initialTransition(machine, options.input as never);
    const steps: { state: SnapshotFrom<M>; event: ModelEvent }[] = [{ state: initial as SnapshotFrom<M>, event: { type: 'xstate.init' } }];
    for (const event of events) steps.push({ state: transition(machine, steps.at(-1)!.state as never, event as never)[0] as SnapshotFrom<M>, event });
    const path = { state: steps.at(-1)!.state, steps, weight: steps.length };
    return {
      ...path,
      events,
      description: JSON.stringify(events),
      test: (params) => model.testPath(path as never, params as never),
    };
  };

  const traverse = () => {
    const shortestPaths = model.getShortestPaths({ allowDuplicatePaths: true });
    const eventsTo = new Map(
      shortestPaths.map((path) => [options.serializeState(path.state as SnapshotFrom<M>), path.steps.slice(1).map((step) => step.event as ModelEvent)]),
    );
    const adjacency = Object.values(model.getAdjacencyMap());
    const transitionPaths = adjacency.flatMap((entry) =>
      Object.values(entry.transitions as Record<string, { event: ModelEvent }>)
        // A machine that has finished takes no more events, even those its root would handle.
        .filter(({ event }) => (entry.state as AnyMachineSnapshot).status === 'active' && (entry.state as AnyMachineSnapshot).can(event as never))
        .map(({ event }) => pathThrough([...eventsTo.get(options.serializeState(entry.state as SnapshotFrom<M>))!, event])),
    );
    // Shortest paths also end on a transition the list above holds: only the transitions are played.
    const paths = uniquePaths(transitionPaths);
    /** Every state value the traversal reached, as JSON. */
    const reachedStates = new Set(adjacency.map((entry) => JSON.stringify((entry.state as AnyMachineSnapshot).value)));
    return { paths, transitionCount: transitionPaths.length, reachedStates };
  };

  try {
    return { model, pathThrough, ...traverse() };
  } catch (error) {
    // A machine that cannot even be traversed (no initial state, a transition to nowhere) fails
    // every test that plays it, instead of failing the test file as it loads, which would report
    // no test at all, and no failure, to a tool counting failed tests.
    const broken: ProductionPath<M> = {
      state: undefined as never,
      steps: [],
      weight: 0,
      events: [],
      description: 'the machine cannot be traversed',
      test: () => Promise.reject(error instanceof Error ? error : new Error(String(error))),
    };
    return { model, pathThrough, paths: [broken], transitionCount: Number.NaN, reachedStates: new Set<string>() };
  }
};

/** "fetchTicket → waiting, approve": a path's events without the context, for naming its test. */
export const describeEvents = (events: ModelEvent[], outputLabel: (event: ModelEvent) => string = () => 'ok') =>
  events
    .map((event) => {
      const call = event.type.replace(/^xstate\.(done|error)\.actor\./, '');
      if (event.type.startsWith('xstate.done.actor.')) return `${call} → ${outputLabel(event)}`;
      if (event.type.startsWith('xstate.error.actor.')) return `${call} → ${(event.error as { status?: number } | undefined)?.status ?? 'error'}`;
      return event.type;
    })
    .join(', ');

