import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { configureHttp } from '../../src/services/http';
import { resetDb } from '../msw/db';
import { server } from '../msw/server';

/** Expires every cookie this document can see, on the root path and on the current one. */
const clearCookies = (): void => {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (!name) continue;
    document.cookie = `${name}=; Path=/; Max-Age=0`;
    document.cookie = `${name}=; Max-Age=0`;
  }
};

// A test waits for what a person would see until it shows, up to 5 s. The limit stops a hang; it
// does not time the screen: on a loaded machine a first page took more than the default 1 s, and
// tests failed that a person would have seen pass.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => {
  // Any request without a handler is a test bug (or a real one): fail instead of reaching out.
  server.listen({ onUnhandledRequest: 'error' });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  server.events.removeAllListeners();
  resetDb();
  configureHttp({});
  clearCookies();
  localStorage.clear();
  sessionStorage.clear();
});

afterAll(() => {
  server.close();
});
