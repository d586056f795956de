// What a statechart shows, read from a machine's state nodes: the yardstick the export test holds
// a production machine and its exported copies against. XState's internal event names for
// done/error/after are replaced by the names a person wrote (`onDone:<actor>`, `after:<delay>`).
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { actionName, actorName, guardName, isDelayPlumbing } from '../../scripts/machine-names';

export type GraphTransition = {
  source: string;
  event: string;
  guard?: string;
  targets: string[];
  actions: string[];
  reenter: boolean;
};
export type GraphState = { id: string; type: string; initial?: string; entry: string[]; exit: string[]; invoke: string[] };
export type MachineGraph = { states: GraphState[]; transitions: GraphTransition[] };

type Transition = { target?: AnyStateNode[]; guard?: unknown; actions: readonly unknown[]; reenter?: boolean; delay?: string | number };
type Invoke = { src: string; id: string };

const eventName = (node: AnyStateNode, eventType: string): { event: string; slot: string } | undefined => {
  const invokeEvent = /^xstate\.(done\.actor|error\.actor|snapshot)\.(.*)$/.exec(eventType);
  if (invokeEvent) {
    const invoke = (node.invoke as Invoke[]).find(({ id }) => id === invokeEvent[2])!;
    const key = { 'done.actor': 'onDone', 'error.actor': 'onError', snapshot: 'onSnapshot' }[invokeEvent[1]!]!;
    return { event: `${key}:${actorName(invoke)}`, slot: `invoke.${invoke.id}.${key}` };
  }
  if (eventType === `xstate.done.state.${node.id}`) return { event: 'onDone', slot: 'onDone' };
  // Delayed transitions are read from `node.after`, which still knows each delay's name.
  if (eventType.startsWith('xstate.after.')) return undefined;
  return { event: eventType, slot: `on.${eventType}` };
};

export const machineGraph = (machine: AnyStateMachine): MachineGraph => {
  const states: GraphState[] = [];
  const transitions: GraphTransition[] = [];
  const visit = (node: AnyStateNode) => {
    const actionsAt = (actions: readonly unknown[], slot: string) =>
      actions.filter((action) => !isDelayPlumbing(action)).map((action, index) => actionName(action, { stateId: node.id, slot, index }));
    const add = (list: Transition[], event: string, slot: string) =>
      list.forEach((transition, index) =>
        transitions.push({
          source: node.id,
          event,
          guard: transition.guard === undefined ? undefined : guardName(transition.guard, { stateId: node.id, slot, index }),
          targets: (transition.target ?? []).map((target) => target.id).sort(),
          actions: actionsAt(transition.actions, `${slot}[${index}]`),
          reenter: transition.reenter ?? false,
        }),
      );
    states.push({
      id: node.id,
      type: node.type,
      initial: node.type === 'compound' ? node.initial.target.map((target: AnyStateNode) => target.id).join() : undefined,
      entry: actionsAt(node.entry, 'entry'),
      exit: actionsAt(node.exit, 'exit'),
      invoke: (node.invoke as Invoke[]).map((invoke) => `${actorName(invoke)}#${invoke.id}`),
    });
    for (const [eventType, list] of node.transitions as Map<string, Transition[]>) {
      const named = eventName(node, eventType);
      if (named) add(list, named.event, named.slot);
    }
    const delays = [...new Set((node.after as Transition[]).map((transition) => transition.delay))];
    for (const delay of delays) {
      add((node.after as Transition[]).filter((transition) => transition.delay === delay), `after:${delay}`, `after.${delay}`);
    }
    add((node.always ?? []) as Transition[], 'always', 'always');
    Object.values(node.states as Record<string, AnyStateNode>).forEach(visit);
  };
  visit(machine.root);
  return { states, transitions };
};
