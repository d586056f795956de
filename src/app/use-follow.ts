import { useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { EventObject } from 'xstate';

type Receiver<E extends EventObject> = { send: (event: E) => void; getSnapshot?: () => { status: string } };

/**
 * Tells an actor each time something outside it that it follows changes (the address, the agent
 * in view), as an event of its own; what that means is the machine's business, not the screen's.
 */
export const useFollow = <E extends EventObject>(actor: Receiver<E>, event: E): void => {
  const key = JSON.stringify(event);
  useEffect(() => {
    // An actor that has finished (a guard that sent the person elsewhere) follows nothing more.
    if (actor.getSnapshot && actor.getSnapshot().status !== 'active') return;
    actor.send(JSON.parse(key) as E);
  }, [actor, key]);
};

/** The address (path and query), told to the actor as `location.changed`. */
export const useLocationEvents = (actor: Receiver<{ type: 'location.changed'; pathname: string; search: string }>): void => {
  const [pathname] = useLocation();
  const search = useSearch();
  useFollow(actor, { type: 'location.changed', pathname, search });
};
