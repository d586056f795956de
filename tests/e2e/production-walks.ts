import { initialTransition, type AnyMachineSnapshot, type AnyStateMachine, type SnapshotFrom } from 'xstate';
import { productionPaths, type ModelEvent, type ProductionModelOptions } from '../spa/models/production-paths';

type Edge = { id: string; event: ModelEvent; to: string };

/**
 * A few long walks through the production machine that together take every transition, for the
 * browser, where each new page costs seconds: from the start, go by the shortest way to the
 * nearest transition not taken yet, take it, and go on; a walk ends in a final state (or when
 * nothing is left to take from where it stands), and the next one starts from the beginning.
 * `allow` leaves out what the real world cannot do from a state (the real server answers as the
 * typed password says; it always accepts a question before its first word).
 */
export const coveringWalks = <M extends AnyStateMachine>(
  machine: M,
  options: ProductionModelOptions<M> & { allow?: (state: SnapshotFrom<M>, event: ModelEvent) => boolean },
) => {
  const { model, pathThrough } = productionPaths(machine, options);
  const allow = options.allow ?? (() => true);
  const edges = new Map<string, Edge[]>();
  for (const entry of Object.values(model.getAdjacencyMap())) {
    const state = entry.state as AnyMachineSnapshot;
    const from = options.serializeState(state as SnapshotFrom<M>);
    const out = Object.values(entry.transitions as Record<string, { event: ModelEvent; state: AnyMachineSnapshot }>)
      .filter(({ event }) => state.status === 'active' && state.can(event as never) && allow(state as SnapshotFrom<M>, event))
      .map(({ event, state: next }, index) => ({ id: `${from}#${index}`, event, to: options.serializeState(next as SnapshotFrom<M>) }));
    edges.set(from, out);
  }
  const start = options.serializeState(initialTransition(machine, options.input as never)[0] as SnapshotFrom<M>);
  // Only what the allowed steps reach from the start counts.
  const reachable = new Set([start]);
  for (const queue = [start]; queue.length > 0; ) {
    for (const edge of edges.get(queue.shift()!) ?? []) {
      if (!reachable.has(edge.to)) {
        reachable.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  const untaken = new Set([...reachable].flatMap((state) => (edges.get(state) ?? []).map((edge) => edge.id)));
  const transitionCount = untaken.size;
  // States from which every way leads to an end: a walk goes there last.
  const doomed = new Set([...reachable].filter((state) => (edges.get(state) ?? []).length === 0));
  for (let grew = true; grew; ) {
    grew = false;
    for (const state of reachable) {
      if (!doomed.has(state) && (edges.get(state) ?? []).every((edge) => doomed.has(edge.to))) {
        doomed.add(state);
        grew = true;
      }
    }
  }

  /** A step after which the walk can only end: taken last, so one walk covers as much as it can. */
  const endsWalk = (edge: Edge) => doomed.has(edge.to);
  /** The shortest way from a state to a transition not taken yet, that transition last. */
  const toNearestUntaken = (start: string, mayEnd: boolean): Edge[] | null => {
    const seen = new Set([start]);
    const queue: { at: string; way: Edge[] }[] = [{ at: start, way: [] }];
    while (queue.length > 0) {
      const { at, way } = queue.shift()!;
      for (const edge of edges.get(at) ?? []) {
        if (untaken.has(edge.id) && (mayEnd || !endsWalk(edge))) return [...way, edge];
        if (endsWalk(edge)) continue;
        if (!seen.has(edge.to)) {
          seen.add(edge.to);
          queue.push({ at: edge.to, way: [...way, edge] });
        }
      }
    }
    return null;
  };

  const walks = [];
  while (untaken.size > 0) {
    const events: ModelEvent[] = [];
    let at = start;
    const next = () => toNearestUntaken(at, false) ?? toNearestUntaken(at, true);
    for (let way = next(); way; way = next()) {
      for (const edge of way) {
        events.push(edge.event);
        untaken.delete(edge.id);
        at = edge.to;
      }
    }
    if (events.length === 0) break;
    walks.push(pathThrough(events));
  }
  return { walks, transitionCount, untaken, pathThrough };
};
