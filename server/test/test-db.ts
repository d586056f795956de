import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { dumpDataDir, openDb, type DbHandle } from '../db/client';
import { AGENTS, APPLICATIONS, COMPANIES } from '../seed/catalog';
import { seedCatalog } from '../seed/seed';

/**
 * One migrated, seeded database per test file: in-memory PGlite, or, when DATABASE_URL is set,
 * a fresh database on that PostgreSQL server, dropped again on close.
 *
 * Neither migrates per file. Migrating and seeding happen once, into an image every file starts
 * a copy of (`migrated: false` still gives an empty, unmigrated database):
 * - PGlite: a dump of a migrated, seeded data directory, kept in `.tmp/test-db/` under a key
 *   hashed from everything that decides its content (`imageKey`), so a changed migration or seed
 *   makes a new one. Each file loads it into a new in-memory database of its own: about 0.7 s
 *   instead of 2.5-5 s for initdb, 14 migrations and the seed.
 * - PostgreSQL: a template database of the same key, made by the first file that needs it (under
 *   an advisory lock, so files starting together make it once) and closed to connections; each
 *   file's database is `CREATE DATABASE … TEMPLATE` it.
 */
export async function openTestDb(options: { migrated?: boolean } = {}): Promise<DbHandle & { url?: string; databaseUrl?: string }> {
  const migrated = options.migrated !== false;
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) return openDb(migrated ? { memory: true, loadDataDir: await pgliteImage() } : { memory: true });
  const template = migrated ? await templateDatabase(adminUrl) : undefined;
  const name = `kraken_test_${randomBytes(6).toString('hex')}`;
  await asAdmin(adminUrl, (admin) => admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const url = databaseUrlOf(adminUrl, name);
  const inner = await openDb({ databaseUrl: url });
  return {
    ...inner,
    url,
    databaseUrl: url,
    close: async () => {
      await inner.close();
      await asAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Two instances' views of one database: on PostgreSQL two connection pools, as two server
 * processes have; on PGlite (one connection, one process) the same handle twice, so the code
 * path is the same and only PostgreSQL proves they do not share memory.
 */
export async function openSharedTestDb(options: { migrated?: boolean } = {}): Promise<{ a: DbHandle; b: DbHandle; close(): Promise<void> }> {
  const a = await openTestDb(options);
  if (!a.url) return { a, b: a, close: () => a.close() };
  const b = await openDb({ databaseUrl: a.url });
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
    },
  };
}

// Resolved from the module's path string, as in server/db/client.ts.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const imageDir = join(root, '.tmp', 'test-db');

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => join(dir, file))
    .filter((path) => statSync(path).isFile())
    .sort();

/**
 * What decides the image's content: every migration file, the seed's code and the catalogue it
 * writes (read as data, so whatever the catalogue imports counts too), the schema drizzle writes
 * it through, and the versions of PGlite (its data directory format) and drizzle (its migration table).
 */
export function imageKey(): string {
  const hash = createHash('sha256');
  const inputs = [
    ...filesUnder(join(root, 'server', 'db', 'migrations')),
    join(root, 'server', 'seed', 'seed.ts'),
    join(root, 'server', 'db', 'schema.ts'),
    join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
    join(root, 'node_modules', 'drizzle-orm', 'package.json'),
  ];
  for (const path of inputs) hash.update(`${path.slice(root.length)}\0`).update(readFileSync(path)).update('\0');
  hash.update(JSON.stringify({ COMPANIES, AGENTS, APPLICATIONS }));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The migrated, seeded PGlite data directory as a tarball: read from `.tmp/test-db/` when this
 * key's image is there, made (and kept) otherwise. Files that start together before it exists
 * each make one and the last rename wins; each is complete, so none reads half an image.
 */
async function pgliteImage(): Promise<Blob> {
  const key = imageKey();
  const path = join(imageDir, `pglite-${key}.tar`);
  if (existsSync(path)) return new Blob([readFileSync(path)]);
  const builder = await openDb({ memory: true });
  let image: Blob;
  try {
    await builder.migrate();
    await seedCatalog(builder.db);
    image = await dumpDataDir(builder);
  } finally {
    await builder.close();
  }
  mkdirSync(imageDir, { recursive: true });
  const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, new Uint8Array(await image.arrayBuffer()));
  renameSync(partial, path);
  // Images of other keys are from migrations or seeds since changed.
  for (const file of readdirSync(imageDir)) {
    if (/^pglite-[0-9a-f]+\.tar$/.test(file) && file !== `pglite-${key}.tar`) rmSync(join(imageDir, file), { force: true });
  }
  return image;
}

/** Held while the template database is made, on the admin database (any fixed number). */
const TEMPLATE_LOCK_KEY = 4_812_331_908;
const TEMPLATE_PREFIX = 'kraken_template_';

/**
 * The name of a migrated, seeded template database for this key on the server, made when it is
 * not there yet. It is marked a template only once complete (a half-made one, from a run that
 * died, is made again) and accepts no connections, since a database someone is connected to
 * cannot be copied.
 */
async function templateDatabase(adminUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${imageKey()}`;
  return asAdmin(adminUrl, async (admin) => {
    const ready = async () =>
      (await admin.query<{ datistemplate: boolean }>('select datistemplate from pg_database where datname = $1', [name])).rows[0]?.datistemplate === true;
    if (await ready()) return name;
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await ready()) return name;
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${name}`);
      const builder = await openDb({ databaseUrl: databaseUrlOf(adminUrl, name), poolMax: 1 });
      try {
        await builder.migrate();
        await seedCatalog(builder.db);
      } finally {
        await builder.close();
      }
      await admin.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      // Templates of other keys are from migrations or seeds since changed.
      const stale = await admin.query<{ datname: string }>(`select datname from pg_database where starts_with(datname, $1) and datname <> $2`, [TEMPLATE_PREFIX, name]);
      for (const { datname } of stale.rows) {
        await admin.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`).catch(() => {});
        await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => {});
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
}

async function asAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

const databaseUrlOf = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};
