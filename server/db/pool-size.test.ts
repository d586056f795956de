import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../config';
import { openDb } from './client';
import { DEFAULT_POOL_MAX } from './pool-size';

describe('the PostgreSQL connection pool', () => {
  it('is DATABASE_POOL_MAX connections, 20 unless set', () => {
    expect(DEFAULT_POOL_MAX).toBe(20);
    expect(configFromEnv({}).databasePoolMax).toBe(20);
    expect(configFromEnv({ DATABASE_POOL_MAX: ' 40 ' }).databasePoolMax).toBe(40);
    expect(configFromEnv({ DATABASE_POOL_MAX: '' }).databasePoolMax).toBe(20);
  });

  it('refuses a size that is not a whole number of connections', () => {
    for (const raw of ['0', '-5', '2.5', 'many', '1e400']) {
      expect(() => configFromEnv({ DATABASE_POOL_MAX: raw }), raw).toThrow(/DATABASE_POOL_MAX must be a whole number/);
    }
  });

  it.runIf(process.env.DATABASE_URL)('opens the pool with that many connections at most', async () => {
    const handle = await openDb({ databaseUrl: process.env.DATABASE_URL!, poolMax: 3 });
    try {
      expect((handle.db as unknown as { $client: pg.Pool }).$client.options.max).toBe(3);
    } finally {
      await handle.close();
    }
  });
});
