import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { ModelEvent } from './production-paths';

/**
 * The events a machine receives when its invoked actors answer, by the actor's name (`src`):
 * `xstate.done.actor.<invoke id>` and `xstate.error.actor.<invoke id>`.
 */
export const actorAnswers = (machine: AnyStateMachine) => {
  const answers: Record<string, { done: string; error: string }> = {};
  const walk = (node: AnyStateNode) => {
    for (const invoke of node.invoke) {
      const src = typeof invoke.src === 'string' ? invoke.src : invoke.id;
      answers[src] = { done: `xstate.done.actor.${invoke.id}`, error: `xstate.error.actor.${invoke.id}` };
    }
    Object.values(node.states).forEach(walk);
  };
  walk(machine.root);
  return {
    done: (src: string, output?: unknown): ModelEvent => ({ type: answers[src]!.done, output }),
    error: (src: string, status: number, msg?: string): ModelEvent => ({ type: answers[src]!.error, error: { status, msg } }),
    /** The actor a done/error event answers for, and how: `login ok`, `login 401`. */
    describe: (event: ModelEvent, outputLabel: (output: unknown) => string = () => 'ok'): string | null => {
      for (const [src, types] of Object.entries(answers)) {
        if (event.type === types.done) return `${src} ${outputLabel(event.output)}`;
        if (event.type === types.error) return `${src} ${(event.error as { status: number }).status}`;
      }
      return null;
    },
    srcOf: (event: ModelEvent): string | null =>
      Object.entries(answers).find(([, types]) => event.type === types.done || event.type === types.error)?.[0] ?? null,
  };
};
