import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { openHarness } from '../../server/test/harness';

type Harness = Awaited<ReturnType<typeof openHarness>>;

const doc = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** Each `### METHOD /path` section of the docs, by its heading. */
const sections = new Map(
  doc
    .split(/^### /m)
    .slice(1)
    .map((section) => [section.slice(0, section.indexOf('\n')).trim(), section] as const),
);

const documented = (): Set<string> => new Set([...sections.keys()].filter((heading) => /^(GET|POST|PUT|PATCH|DELETE) \/api\//.test(heading)));

/** `:param` in a Hono route reads `{param}` in the docs. */
const asDocumented = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');

describe('docs/api.md and the server match the contract', () => {
  let harness: Harness;
  let served: Set<string>;

  beforeAll(async () => {
    harness = await openHarness();
    const { app } = harness.makeApp();
    served = new Set(
      app.routes
        .filter((route) => route.path.startsWith('/api/') && route.method !== 'ALL')
        .map((route) => `${route.method} ${asDocumented(route.path)}`),
    );
  });
  afterAll(async () => {
    await harness.close();
  });

  it('documents every endpoint of the contract by its method and path', () => {
    const docs = documented();
    const missing = Object.values(endpoints)
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`)
      .filter((key) => !docs.has(key));
    expect(missing).toEqual([]);
  });

  it('gives each endpoint its access rule', () => {
    const wrong = Object.values(endpoints)
      .filter((endpoint) => !sections.get(`${endpoint.method} ${endpoint.path}`)?.includes(`Access: \`${endpoint.access}\``))
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    expect(wrong).toEqual([]);
  });

  it('serves every endpoint of the contract', () => {
    const missing = Object.values(endpoints)
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`)
      .filter((key) => !served.has(key));
    expect(missing).toEqual([]);
  });

  it('documents nothing the server does not serve', () => {
    const stale = [...documented()].filter((key) => !served.has(key));
    expect(stale).toEqual([]);
  });

  it('documents everything the server serves under /api', () => {
    const docs = documented();
    expect([...served].filter((key) => !docs.has(key))).toEqual([]);
  });
});
