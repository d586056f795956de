import { settle, type heldCalls } from './held-calls';

/** An event of a generated path: one a person or the world causes, or an actor's done or error. */
type PathEvent = { type: string; output?: unknown; error?: unknown };

/**
 * Plays a path generated from a machine on a running actor whose promise actors are `held`
 * stubs: an `xstate.done.actor.*` or `xstate.error.actor.*` event answers the waiting call of its
 * actor, any other event is sent. From `start`, after each step the test's own `rules` say what
 * must hold next, and `check` compares that with what the actor shows. The actor is stopped at
 * the end.
 */
export async function playAgainstRules<E extends PathEvent, X>(
  events: E[],
  walk: {
    actor: { send(event: never): void; stop(): void };
    held: ReturnType<typeof heldCalls>;
    answers: { srcOf(event: E): string | null | undefined };
    start: X;
    rules: (expected: X, event: E) => X;
    check: (expected: X, after: string) => void;
    describe: (event: E) => string;
  },
): Promise<void> {
  let expected = walk.start;
  walk.check(expected, 'start');
  for (const event of events) {
    const src = walk.answers.srcOf(event);
    if (src && event.type.startsWith('xstate.done.')) walk.held.waiting(src)!.resolve(event.output);
    else if (src) walk.held.waiting(src)!.reject(event.error);
    else walk.actor.send(event as never);
    await settle();
    expected = walk.rules(expected, event);
    walk.check(expected, walk.describe(event));
  }
  walk.actor.stop();
}
