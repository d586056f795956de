import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { expect } from 'vitest';
import { failBody } from '../../msw/handlers';
import { server } from '../../msw/server';

type Endpoint = { method: string; path: string };

/** One request of the screen, waiting for the path to say what the server answers. */
export type HeldCall<C extends string> = { call: C; request: Request; answer: (response: Response | undefined) => void };

/**
 * Every request to these endpoints waits until the test answers it: with a response, or with
 * `undefined` to let the fake API's own handler answer (the server doing what it always does).
 */
export const holdCalls = <C extends string>(calls: Record<C, Endpoint>) => {
  const held: HeldCall<C>[] = [];
  const seen: Record<string, number> = {};
  server.use(
    ...(Object.entries(calls) as [C, Endpoint][]).map(([call, endpoint]) =>
      (endpoint.method === 'GET' ? http.get : http.post)(endpoint.path, ({ request }) => {
        seen[call] = (seen[call] ?? 0) + 1;
        return new Promise<Response | undefined>((answer) => held.push({ call, request: request.clone(), answer }));
      }),
    ),
  );
  return {
    held,
    /** How many requests each call has made so far. */
    count: (call: C) => seen[call] ?? 0,
    /** Waits for the call's request, then answers it. */
    answer: async (call: C, response: Response | undefined) => {
      await waitFor(() => expect(held.map((entry) => entry.call)).toContain(call));
      const index = held.findIndex((entry) => entry.call === call);
      held.splice(index, 1)[0]!.answer(response);
    },
    /** Waits until the call's request is waiting for an answer, and gives it. */
    waiting: async (call: C) => {
      await waitFor(() => expect(held.map((entry) => entry.call)).toContain(call));
      return held.find((entry) => entry.call === call)!.request;
    },
  };
};

export const okResponse = (data: unknown) => HttpResponse.json({ code: 0, msg: 'ok', data: data ?? null, success: true });
export const failResponse = (status: number, msg = `server said ${status}`) => HttpResponse.json(failBody(msg), { status });

export { actorAnswers } from './actor-answers';
