import { fromPromise } from 'xstate';

/** One call of a machine's actor, waiting for the path to say how the world answers it. */
export type HeldCall<I = unknown> = { src: string; input: I; settled: boolean; resolve: (output: unknown) => void; reject: (error: unknown) => void };

/**
 * Stubs for a machine's promise actors that hold every call until a test answers it, so a path
 * generated from the machine can be played on a real actor: `xstate.done.actor.<id>` resolves the
 * call, `xstate.error.actor.<id>` rejects it.
 */
export const heldCalls = () => {
  const calls: HeldCall[] = [];
  const stub = <O, I>(src: string) =>
    fromPromise<O, I>(
      ({ input }) =>
        new Promise<O>((resolve, reject) => {
          const call: HeldCall = {
            src,
            input,
            settled: false,
            resolve: (output) => ((call.settled = true), resolve(output as O)),
            reject: (error) => ((call.settled = true), reject(error)),
          };
          calls.push(call);
        }),
    );
  /** The call of `src` still waiting (the latest: an earlier one was cancelled with its state). */
  const waiting = (src: string) => calls.filter((call) => call.src === src && !call.settled).at(-1);
  return { calls, stub, waiting };
};

/** Lets a settled promise reach the actor (its done or error event) before the next step. */
export const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
