import { setupServer } from 'msw/node';
import { defaultHandlers } from './handlers';

/** The one msw server of the SPA tests; the setup file starts it and resets it after each test. */
export const server = setupServer(...defaultHandlers);

export type SeenRequest = {
  method: string;
  pathname: string;
  search: string;
  headers: Headers;
  /** The body as text, once read (await `text` to be sure it is). */
  body: string;
  text: Promise<string>;
};

/**
 * Records every request that reaches the fake API whose path matches, with its body, so a test
 * can count them ("exactly one POST") and read what the client sent. The setup file removes the
 * listener after each test.
 */
export const recordRequests = (pathname?: string): SeenRequest[] => {
  const seen: SeenRequest[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (pathname && url.pathname !== pathname) return;
    const text = request
      .clone()
      .text()
      .catch(() => '');
    const entry: SeenRequest = { method: request.method, pathname: url.pathname, search: url.search, headers: request.headers, body: '', text };
    void text.then((value) => {
      entry.body = value;
    });
    seen.push(entry);
  });
  return seen;
};
