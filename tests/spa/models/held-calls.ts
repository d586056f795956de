import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { failBody } from '../../msw/handlers';
import { server } from '../../msw/server';

/** The fake API's answer to a held request: the machine's done or error event, as the server says it. */
export const responseFor = (outcome: { output?: unknown } | { error: { status: number } }): Response =>
  'error' in outcome
    ? HttpResponse.json(failBody(`server said ${outcome.error.status}`), { status: outcome.error.status })
    : HttpResponse.json({ code: 0, msg: 'ok', data: outcome.output ?? null, success: true });

type Endpoint = { method: string; path: string };

/** One request of the screen, waiting for the path to say what the server answers. */
export type HeldRequest<C extends string> = {
  call: C;
  request: Request;
  url: URL;
  /** A response, or `undefined` to let the fake API's own handler answer. */
  answer: (response: Response | undefined) => void;
};

/** Holds every request to these endpoints in `held` until the test answers it; counts them per call. */
const hold = <C extends string>(calls: Record<C, Endpoint>) => {
  const held: HeldRequest<C>[] = [];
  const seen: Record<string, number> = {};
  server.use(
    ...(Object.entries(calls) as [C, Endpoint][]).map(([call, endpoint]) =>
      (endpoint.method === 'GET' ? http.get : http.post)(endpoint.path, ({ request }) => {
        seen[call] = (seen[call] ?? 0) + 1;
        return new Promise<Response | undefined>((answer) =>
          held.push({ call, request: request.clone(), url: new URL(request.url), answer }),
        );
      }),
    ),
  );
  /** Waits until a request of the call that `which` accepts is held, and takes it out. */
  const take = async (call: C, pick: 'oldest' | 'newest', which: (url: URL) => boolean = () => true) => {
    const matches = (entry: HeldRequest<C>) => entry.call === call && which(entry.url);
    await waitFor(() => expect(held.some(matches), `${call} was not asked`).toBe(true));
    const index = pick === 'newest' ? held.findLastIndex(matches) : held.findIndex(matches);
    return held.splice(index, 1)[0]!;
  };
  return { held, seen, take };
};

/**
 * Requests to the fake API that wait until the path says how the server answers: a page's call
 * is then in flight for as long as the machine's state says it is.
 */
export const holdRequests = (calls: Record<string, Endpoint>) => {
  const { held, take } = hold(calls);
  return {
    held,
    /**
     * Answers the newest request of this call (that `which` accepts), once the page has sent it:
     * the one the page waits on; an older one was left behind when the page moved on.
     */
    answer: async (call: string, response: Response, which?: (url: URL) => boolean) => {
      const request = await take(call, 'newest', which);
      request.answer(response);
      return request;
    },
  };
};

/** The timer functions as loaded, before a test fakes them: settling must not wait on fake time. */
const realSetTimeout = globalThis.setTimeout;

/** Lets every promise already settled deliver its result, and the actors react to it. */
export const settle = () => new Promise<void>((resolve) => realSetTimeout(resolve, 0));

type StubCall = { name: string; input: unknown; resolve: (output: unknown) => void; reject: (error: unknown) => void };

/**
 * Promise actors that wait until the path says how they end: each call is recorded with its
 * input, and a call whose invoking state was left is forgotten (its signal aborted).
 */
export const stubCalls = () => {
  const pending: StubCall[] = [];
  const calls: { name: string; input: unknown }[] = [];
  const forget = (call: StubCall) => {
    const index = pending.indexOf(call);
    if (index >= 0) pending.splice(index, 1);
  };
  return {
    pending,
    calls,
    /** Typed as whatever the machine's actor is: a stub stands in for any promise actor. */
    logic: (name: string): never =>
      fromPromise<unknown, unknown>(
        ({ input, signal }) =>
          new Promise<unknown>((resolve, reject) => {
            const call: StubCall = { name, input, resolve, reject };
            pending.push(call);
            calls.push({ name, input });
            signal.addEventListener('abort', () => forget(call));
          }),
      ) as never,
    /** Ends the oldest running call of this actor: it must be running. */
    end: async (name: string, outcome: { output?: unknown } | { error: unknown }) => {
      const call = pending.find((item) => item.name === name);
      expect(call, `${name} is not running`).toBeDefined();
      forget(call!);
      if ('error' in outcome) call!.reject(outcome.error);
      else call!.resolve(outcome.output);
      await settle();
    },
  };
};

/** "0.agentDetail.loading" from "xstate.done.actor.0.agentDetail.loading". */
export const invokeOf = (event: { type: string }) => event.type.replace(/^xstate\.(done|error)\.actor\./, '');

/** One call of a machine's actor, waiting for the path to say how the world answers it. */
export type HeldCall<I = unknown> = { src: string; input: I; settled: boolean; resolve: (output: unknown) => void; reject: (error: unknown) => void };

/**
 * Stubs for a machine's promise actors that hold every call until a test answers it, so a path
 * generated from the machine can be played on a real actor: `xstate.done.actor.<id>` resolves the
 * call, `xstate.error.actor.<id>` rejects it. Unlike `stubCalls`, every call stays listed.
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

/**
 * Every request to these endpoints waits until the test answers it: with a response, or with
 * `undefined` to let the fake API's own handler answer (the server doing what it always does).
 * Answers the oldest request of a call, and counts how many each call made.
 */
export const holdCalls = <C extends string>(calls: Record<C, Endpoint>) => {
  const { held, seen, take } = hold(calls);
  return {
    held,
    /** How many requests each call has made so far. */
    count: (call: C) => seen[call] ?? 0,
    /** Waits for the call's request, then answers it. */
    answer: async (call: C, response: Response | undefined) => (await take(call, 'oldest')).answer(response),
    /** Waits until the call's request is waiting for an answer, and gives it. */
    waiting: async (call: C) => {
      await waitFor(() => expect(held.map((entry) => entry.call)).toContain(call));
      return held.find((entry) => entry.call === call)!.request;
    },
  };
};

export const okResponse = (data: unknown) => responseFor({ output: data });
export const failResponse = (status: number, msg = `server said ${status}`) => HttpResponse.json(failBody(msg), { status });

export { actorAnswers } from './actor-answers';
