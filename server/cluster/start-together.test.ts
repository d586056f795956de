import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../start';
import { openTestDb } from '../test/test-db';

/** Several instances are only possible on PostgreSQL: the embedded database belongs to one. */
describe.runIf(Boolean(process.env.DATABASE_URL))('three instances started at once on an empty PostgreSQL', { timeout: 120_000 }, () => {
  let empty: Awaited<ReturnType<typeof openTestDb>>;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    empty = await openTestDb({ migrated: false });
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await empty.close();
  });

  it('all come up ready, on their own ports, and only one of them prints a demo password', async () => {
    const started = await Promise.allSettled(
      [1, 2, 3].map(() =>
        startServer({ port: 0, dataDir: mkdtempSync(join(tmpdir(), 'kraken-together-')), databaseUrl: empty.url!, env: {}, spaDir: null, log: () => {} }),
      ),
    );
    for (const result of started) if (result.status === 'fulfilled') servers.push(result.value);
    expect(started.map((result) => (result.status === 'rejected' ? String(result.reason) : 'started'))).toEqual(['started', 'started', 'started']);
    expect(new Set(servers.map((server) => server.port)).size).toBe(3);
    for (const server of servers) expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(servers.map((server) => server.demo.source).sort()).toEqual(['existing', 'existing', 'generated']);

    // The generated password signs in through any instance.
    const { username, password } = servers.find((server) => server.demo.source === 'generated')!.demo;
    for (const server of servers) {
      const login = await fetch(`${server.url}/api/system/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      expect(login.status).toBe(200);
    }
  });
});
