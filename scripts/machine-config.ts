// Turns a running machine back into the config the Stately editor opens. `machine.toJSON()` is
// XState's internal definition (internal event names, functions as null), which createMachine
// cannot read back; this walks the same state nodes and writes every guard, action, actor and
// delay by name instead, so the file round-trips through createMachine.
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { actionName, actorName, guardName, isDelayPlumbing, type Place } from './machine-names';

type Transition = {
  target?: AnyStateNode[];
  guard?: unknown;
  actions: readonly unknown[];
  reenter?: boolean;
  description?: string;
  delay?: string | number;
};
type Invoke = { src: string; id: string; systemId?: string };
type Json = Record<string, unknown>;

/** Every name a config uses, so the `.ts` form can declare a stub for each. */
export type Names = { actions: Set<string>; guards: Set<string>; actors: Set<string>; delays: Set<string> };

const listOrOne = <T>(items: T[]): T | T[] | undefined =>
  items.length === 0 ? undefined : items.length === 1 ? items[0] : items;

// A sibling is written by key as a person would; anything else by `#id`, which resolves from anywhere.
const targetRef = (source: AnyStateNode, target: AnyStateNode) =>
  target.parent && target.parent === source.parent ? target.key : `#${target.id}`;

const stateConfig = (node: AnyStateNode, names: Names, machine: AnyStateMachine): Json => {
  const writeActions = (actions: readonly unknown[], stateId: string, slot: string) =>
    actions.map((action, index) => {
      const name = actionName(action, { stateId, slot, index });
      names.actions.add(name);
      return name;
    });

  const writeTransitions = (transitions: Transition[], slot: string) =>
    listOrOne(
      transitions.map((transition, i) => {
        const place: Place = { stateId: node.id, slot, index: i };
        const config: Json = {};
        if (transition.target?.length) {
          config.target = listOrOne(transition.target.map((target) => targetRef(node, target)));
        }
        if (transition.guard !== undefined) {
          config.guard = guardName(transition.guard, place);
          names.guards.add(config.guard as string);
        }
        const actions = writeActions(transition.actions, node.id, `${slot}[${i}]`);
        if (actions.length) config.actions = listOrOne(actions);
        if (transition.reenter) config.reenter = true;
        if (transition.description) config.description = transition.description;
        return config;
      }),
    );

  const config: Json = {};
  if (node.config.id) config.id = node.config.id;
  if (node.type === 'parallel' || node.type === 'final') config.type = node.type;
  if (node.type === 'history') {
    config.type = 'history';
    config.history = node.history;
    const target = (node.config as Json).target;
    if (target !== undefined) config.target = target;
  }
  if (node.description) config.description = node.description;
  if (node.tags.length) config.tags = node.tags;
  if (node.type === 'compound') config.initial = node.initial.target[0]!.key;

  const entry = writeActions(node.entry.filter((action) => !isDelayPlumbing(action)), node.id, 'entry');
  if (entry.length) config.entry = listOrOne(entry);
  const exit = writeActions(node.exit.filter((action) => !isDelayPlumbing(action)), node.id, 'exit');
  if (exit.length) config.exit = listOrOne(exit);

  const invokes = (node.invoke as Invoke[]).map((invoke, index) => {
    const src = actorName(invoke);
    names.actors.add(src);
    const written: Json = { src };
    // XState's own default id would come back the same; writing it only adds noise in the editor.
    if (invoke.id !== `${index}.${node.id}`) written.id = invoke.id;
    if (invoke.systemId) written.systemId = invoke.systemId;
    return written;
  });

  const on: Json = {};
  const after: Json = {};
  for (const [eventType, transitions] of node.transitions as Map<string, Transition[]>) {
    const invokeEvent = /^xstate\.(done\.actor|error\.actor|snapshot)\.(.*)$/.exec(eventType);
    if (invokeEvent) {
      const index = (node.invoke as Invoke[]).findIndex((invoke) => invoke.id === invokeEvent[2]);
      const key = { 'done.actor': 'onDone', 'error.actor': 'onError', snapshot: 'onSnapshot' }[invokeEvent[1]!]!;
      invokes[index]![key] = writeTransitions(transitions, `invoke.${invokeEvent[2]}.${key}`);
    } else if (eventType === `xstate.done.state.${node.id}`) {
      config.onDone = writeTransitions(transitions, 'onDone');
    } else if (!eventType.startsWith('xstate.after.')) {
      on[eventType] = writeTransitions(transitions, `on.${eventType}`);
    }
  }
  // `after` keeps each delay's own key: a name from `delays`, or milliseconds.
  const delayed = new Map<string | number, Transition[]>();
  for (const transition of node.after as Transition[]) {
    delayed.set(transition.delay!, [...(delayed.get(transition.delay!) ?? []), transition]);
  }
  for (const [delay, transitions] of delayed) {
    if (typeof delay === 'string') names.delays.add(delay);
    after[delay] = writeTransitions(transitions, `after.${delay}`);
  }
  if (invokes.length) config.invoke = listOrOne(invokes);
  if (Object.keys(on).length) config.on = on;
  if (Object.keys(after).length) config.after = after;
  if (node.always?.length) config.always = writeTransitions(node.always as Transition[], 'always');

  const children = Object.entries(node.states as Record<string, AnyStateNode>);
  if (children.length) {
    config.states = Object.fromEntries(children.map(([key, child]) => [key, stateConfig(child, names, machine)]));
  }
  return config;
};

export const toStatelyConfig = (machine: AnyStateMachine): { config: Json; names: Names } => {
  const names: Names = { actions: new Set(), guards: new Set(), actors: new Set(), delays: new Set() };
  const config = { id: machine.id, ...stateConfig(machine.root, names, machine) };
  return { config, names };
};

const stubs = (keys: Set<string>, stub: (key: string) => string) =>
  [...keys].sort().map((key) => `    ${JSON.stringify(key)}: ${stub(key)},`).join('\n');

/** The machine as the Stately editor imports it: named stubs in `setup`, then the config. */
export const toStatelySource = (machine: AnyStateMachine): string => {
  const { config, names } = toStatelyConfig(machine);
  const { actors, delays } = machine.implementations;
  const actorStub = (name: string) =>
    actors[name] && 'root' in (actors[name] as object) ? 'createMachine({})' : 'fromPromise(async () => {})';
  const delayStub = (name: string) => (typeof delays[name] === 'number' ? String(delays[name]) : '1000');
  const used = ['setup', ...new Set([...names.actors].map((name) => actorStub(name).replace(/\(.*/s, '')))].sort();
  return `import { ${used.join(', ')} } from 'xstate';

export const machine = setup({
  actions: {
${stubs(names.actions, () => '() => {}')}
  },
  guards: {
${stubs(names.guards, () => '() => true')}
  },
  actors: {
${stubs(names.actors, actorStub)}
  },
  delays: {
${stubs(names.delays, delayStub)}
  },
}).createMachine(${JSON.stringify(config, null, 2)});
`;
};
