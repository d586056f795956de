// Names for the guards, actions and actors of a machine as the Stately editor shows them. XState
// keeps built-ins (and/not/stateIn, assign, raise, ...) and inline lambdas as functions, which a
// JSON file cannot hold; both the exporter and its round-trip test name them through this module
// so that a production machine and its export can be compared name for name.

/** Where an action or guard sits, so that an unnamed one gets a name that survives re-export. */
export type Place = { stateId: string; slot: string; index: number };

type Builtin = ((...args: never[]) => unknown) & {
  type?: string;
  guards?: unknown[];
  stateValue?: unknown;
  assignment?: unknown;
  event?: unknown;
  to?: unknown;
  sendId?: unknown;
  actorRef?: unknown;
  src?: unknown;
  id?: unknown;
  check?: unknown;
};

const describe = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'type' in value && typeof value.type === 'string') return value.type;
  return 'dynamic';
};

// `{ ready: { avatar: 'uploading' } }` reads as `ready.avatar.uploading`; a value naming several
// regions at once has no such path and stays JSON.
const stateValuePath = (value: unknown): string => {
  if (typeof value === 'string') return value;
  const entries = value && typeof value === 'object' ? Object.entries(value) : [];
  return entries.length === 1 ? `${entries[0]![0]}.${stateValuePath(entries[0]![1])}` : JSON.stringify(value);
};

const placeName = (kind: string, { stateId, slot, index }: Place) => `${kind}:${stateId}:${slot}:${index}`;

export const guardName = (guard: unknown, place: Place): string => {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  const fn = guard as Builtin;
  if (typeof fn === 'function' && 'check' in fn) {
    if ('stateValue' in fn) return `stateIn(${stateValuePath(fn.stateValue)})`;
    if (Array.isArray(fn.guards) && ['and', 'or', 'not'].includes(fn.name)) {
      const inner = fn.guards.map((child, i) => guardName(child, { ...place, slot: `${place.slot}.${fn.name}`, index: i }));
      return `${fn.name}(${inner.join(', ')})`;
    }
  }
  return placeName('inline', place);
};

export const actionName = (action: unknown, place: Place): string => {
  if (typeof action === 'string') return action;
  if (typeof action === 'object' && action !== null && 'type' in action) return String(action.type);
  const fn = action as Builtin;
  switch (typeof fn === 'function' ? fn.type : undefined) {
    case 'xstate.assign':
      return fn.assignment && typeof fn.assignment === 'object'
        ? `assign:${Object.keys(fn.assignment).join(',')}`
        : placeName('assign', place);
    case 'xstate.raise':
      return `raise:${describe(fn.event)}`;
    case 'xstate.sendTo':
      return `sendTo:${describe(fn.to)}:${describe(fn.event)}`;
    case 'xstate.emit':
      return `emit:${describe(fn.event)}`;
    case 'xstate.cancel':
      return `cancel:${describe(fn.sendId)}`;
    case 'xstate.stopChild':
      return `stopChild:${describe(fn.actorRef)}`;
    case 'xstate.spawnChild':
      return `spawnChild:${describe(fn.src)}`;
    case 'xstate.log':
      return placeName('log', place);
    case 'xstate.enqueueActions':
      return placeName('enqueueActions', place);
    default:
      return placeName('inline', place);
  }
};

/** A name made from where an unnamed guard or action sits: worth a real name in `setup`. */
export const isPlaceName = (name: string) => /(^|\()inline:|^(assign|log|enqueueActions):.+:\d+$/.test(name);

/** An invoked actor's name: its `src` when the machine names it, else a name from its place. */
export const actorName = (invoke: { src: string; id: string }): string =>
  invoke.src.startsWith('xstate.invoke.') ? `inline:${invoke.src.slice('xstate.invoke.'.length)}` : invoke.src;

/** XState adds a raise on entry and a cancel on exit for each `after`; they are not the author's. */
export const isDelayPlumbing = (action: unknown): boolean => {
  const fn = action as Builtin;
  if (typeof fn !== 'function') return false;
  const id = fn.type === 'xstate.raise' ? fn.id : fn.type === 'xstate.cancel' ? fn.sendId : undefined;
  return typeof id === 'string' && id.startsWith('xstate.after.');
};
