import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, type ServerType } from '@hono/node-server';
import { isNotNull } from 'drizzle-orm';
import type { AgentRuntime } from './agents/runtime';
import { createApp } from './app';
import { downloadsDirOf } from './routes/app';
import { configFromEnv, systemClock, type ServerConfig } from './config';
import { lockDataDir } from './data-dir-lock';
import { dumpDataDir, openDb, pgliteDirOf, type DbHandle } from './db/client';
import { newOpsToken, writeOpsFile } from './ops/backup-route';
import { createEmbeddedDatabase } from './db/create-embedded';
import { safeLog } from './http/log-line';
import { openFileStores } from './media/file-stores';
import { sealerFromEnv, type Sealer } from './auth/sealed';
import { createMailer, mailSettingsFromEnv, type Mailer } from './mail/mailer';
import { connectors as connectorRows, modelProviders } from './db/schema';
import { registryRuntimeLabel } from './models/runtime';
import { exposureOf } from './net/public-address';
import { createPublishing } from './publishing/publishing';
import { ensureDemoAccount, type DemoAccount } from './seed/demo-account';
import { seedCatalog } from './seed/seed';
import { takeOverAnswers } from './services/answer-leases';
import { localLiveAnswers, type LiveAnswers } from './services/live-answers';
import { pgLiveAnswers } from './services/pg-live-answers';
import { settleAnswers, watchedAnswers } from './shutdown';
import { diskRoom, lastFor } from './http/health';

/** How long a shutdown waits for the last events of settled answers to reach their readers. */
const LAST_WRITES_MS = 2000;

export const DEFAULT_SPA_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

export type StartOptions = {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Holds the embedded database, uploads and the generated demo account. */
  dataDir: string;
  /** Use this PostgreSQL instead of the embedded database. */
  databaseUrl?: string;
  /** Settings read from this environment (default: process.env), then overridden by `config`. */
  env?: NodeJS.ProcessEnv;
  config?: Partial<ServerConfig>;
  /**
   * Default: each question's model as the registry resolves it: the environment's (config.llm),
   * a provider added in the console, or the offline responder when there is neither.
   */
  runtime?: AgentRuntime;
  /** The built SPA; default `dist/` of the repository; null serves the API only. */
  spaDir?: string | null;
  /** Default: DEMO_USERNAME / DEMO_PASSWORD of `env`, else generated and stored under dataDir. */
  demo?: { username: string; password: string };
  log?: (line: string) => void;
};

export type RunningServer = {
  /** e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  port: number;
  demo: DemoAccount;
  config: ServerConfig;
  runtimeLabel: string;
  /** Where files are kept: object storage, PostgreSQL or disk. */
  filesLabel: string;
  database: DbHandle;
  /** This instance, as its log lines and the answers' leases name it. */
  instanceId: string;
  /**
   * Stops accepting connections (/readyz answers 503 meanwhile), lets running answers finish for
   * config.shutdownGraceMs and stores the rest incomplete, ends open streams, closes the database.
   */
  close(): Promise<void>;
};

/** Refuses to start when companies' secrets or model providers' keys are stored and nothing can open them. */
async function checkConnectorKey(db: DbHandle['db'], sealer: Sealer | null): Promise<void> {
  if (sealer) return;
  const [stored] = await db.select({ companyId: connectorRows.companyId }).from(connectorRows).limit(1);
  if (stored) throw new Error('Publishing connectors are stored encrypted in the database, but CONNECTOR_KEY is not set: start with the same CONNECTOR_KEY they were saved with.');
  const [key] = await db.select({ id: modelProviders.id }).from(modelProviders).where(isNotNull(modelProviders.sealedKey)).limit(1);
  if (key) throw new Error('Model providers\' keys are stored encrypted in the database, but CONNECTOR_KEY is not set: start with the same CONNECTOR_KEY they were saved with.');
}

/** How a process on this machine reaches a server listening on `host`: a wildcard address through loopback. */
const loopbackOf = (host: string) => (host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host);

/** Opens the database, migrates, seeds, and serves the app: what `npm start` and browser tests run. */
export async function startServer(options: StartOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const host = options.host ?? '127.0.0.1';
  const config: ServerConfig = { ...configFromEnv(env, { host }), ...options.config };
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const databaseUrl = options.databaseUrl ?? env.DATABASE_URL;
  // PostgreSQL is shared by design; the embedded database belongs to one server at a time.
  const lock = databaseUrl ? null : lockDataDir(dataDir);
  const pgliteDir = databaseUrl ? null : pgliteDirOf(dataDir);
  let database: DbHandle;
  try {
    // A new embedded database is made in a process of its own, whose memory goes with it.
    if (pgliteDir && !existsSync(join(pgliteDir, 'PG_VERSION'))) await createEmbeddedDatabase(pgliteDir);
    database = await openDb(pgliteDir ? { pgliteDir } : { databaseUrl: databaseUrl!, poolMax: config.databasePoolMax });
  } catch (error) {
    lock?.release();
    throw error;
  }
  let server: ServerType | undefined;
  let mailer: Mailer | null = null;
  let answers: LiveAnswers | undefined;
  let sweeper: ReturnType<typeof setInterval> | undefined;
  let upkeep: ReturnType<typeof setInterval> | undefined;
  // The embedded database can be backed up while it runs: `npm run backup` asks this server.
  const opsToken = pgliteDir ? newOpsToken() : null;
  let removeOpsFile = () => {};
  try {
    await database.migrate();
    await seedCatalog(database.db);
    const instanceId = randomUUID();
    const demo = await ensureDemoAccount(database.db, systemClock, {
      dataDir,
      username: options.demo?.username ?? env.DEMO_USERNAME,
      password: options.demo?.password ?? env.DEMO_PASSWORD,
      reachable: exposureOf(env, host) !== null,
    });
    const runtime = options.runtime;
    const spaDir = options.spaDir === undefined ? DEFAULT_SPA_DIR : options.spaDir;
    const log = safeLog(options.log ?? ((line: string) => console.log(line)), { format: config.logFormat, level: config.logLevel, instance: instanceId });
    const files = await openFileStores({
      s3: config.s3,
      db: database.db,
      driver: database.driver,
      uploadsDir: join(dataDir, 'uploads'),
      downloadsDir: downloadsDirOf({ DOWNLOADS_DIR: env.DOWNLOADS_DIR, DATA_DIR: dataDir }),
      log,
    });
    // A bucket that does not exist (or does not answer) refuses the start: every upload would fail.
    const storageProblem = files.kind === 's3' ? await files.check() : null;
    if (storageProblem) throw new Error(`Object storage: ${storageProblem} at ${config.s3?.endpoint}. Create the bucket, or check the S3_* settings.`);
    const storage = files.uploads;
    // With PostgreSQL, answers of every instance are reached through it; the embedded database
    // has one process, whose answers are all it needs. The shutdown waits for those written here.
    const watched = watchedAnswers(
      databaseUrl
        ? await pgLiveAnswers({ databaseUrl, db: database.db, instanceId, leaseMs: config.leaseMs, leaseRenewMs: config.leaseRenewMs, log })
        : localLiveAnswers((sweep) => takeOverAnswers(database.db, instanceId, sweep)),
    );
    answers = watched.answers;
    // The embedded database has no autovacuum: its tables are analyzed and vacuumed from here, at
    // start (a database never analyzed gets its statistics before the first request) and then as
    // often as autovacuum looks (server/db/upkeep.ts).
    const keepUp = () =>
      database.keepUp().catch((error: unknown) => log(`database: analyzing and vacuuming failed: ${(error as Error).message}`));
    await keepUp();
    upkeep = setInterval(() => void keepUp(), config.databaseUpkeepMs);
    upkeep.unref?.();
    const sealer = sealerFromEnv(env);
    const mailSettings = mailSettingsFromEnv(env);
    mailer = mailSettings ? createMailer(mailSettings) : null;
    await checkConnectorKey(database.db, sealer);
    const publishing = createPublishing({ env, db: database.db, clock: systemClock, storage, log, instanceId, config, exclusive: !databaseUrl, sealer });
    let draining = false;
    const app = createApp({
      draining: () => draining,
      readiness: [files.check, ...(pgliteDir ? [diskRoom(dataDir, config.minFreeDiskBytes)] : [])],
      ...(pgliteDir ? { storageRoom: lastFor(1000, diskRoom(dataDir, config.minFreeDiskBytes)) } : {}),
      db: database.db,
      config,
      clock: systemClock,
      ...(runtime ? { runtime } : {}),
      storage,
      downloads: files.downloads,
      publishing,
      sealer,
      mailer,
      env,
      instanceId,
      answers,
      log: options.log,
      ...(spaDir ? { spaDir } : {}),
      ...(opsToken ? { backup: { token: opsToken, snapshot: () => dumpDataDir(database, 'gzip') } } : {}),
    });
    // The embedded database belongs to this process alone: every answer left streaming was written
    // by a server that stopped. With PostgreSQL only answers whose lease lapsed are taken over.
    // From then on the sweep looks for answers left by another instance that is gone: only on
    // PostgreSQL can there be one. Swept once the app exists: an answer taken over is written on
    // (CONTINUE_TAKEN_OVER) before the first request comes.
    await answers.sweep({ everyOther: !databaseUrl });
    if (databaseUrl) {
      sweeper = setInterval(
        () => void answers?.sweep().catch((error: unknown) => log(`answers: the lease sweep failed: ${(error as Error).message}`)),
        config.leaseRenewMs,
      );
      sweeper.unref?.();
    }
    const listening = await new Promise<ServerType>((resolveListen, reject) => {
      const s = serve(
        {
          fetch: app.fetch,
          port: options.port ?? 0,
          hostname: host,
          // requestTimeout bounds receiving the request only, not the answer: a long chat stream
          // is never cut by it, while a client trickling its headers or body is.
          serverOptions: {
            headersTimeout: config.headersTimeoutMs,
            requestTimeout: config.requestTimeoutMs,
            connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.headersTimeoutMs / 4))),
          },
        },
        () => resolveListen(s),
      );
      s.once('error', reject);
    });
    server = listening;
    await publishing.scheduler.start();
    const port = (listening.address() as AddressInfo).port;
    if (opsToken) removeOpsFile = writeOpsFile(dataDir, { url: `http://${loopbackOf(host)}:${port}`, token: opsToken, pid: process.pid });
    const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    let closing: Promise<void> | undefined;
    return {
      url: `http://${shownHost}:${port}`,
      port,
      demo,
      config,
      runtimeLabel: runtime?.label ?? registryRuntimeLabel(config),
      filesLabel: files.label,
      database,
      instanceId,
      close: () =>
        (closing ??= (async () => {
          // Draining: no new connections, /readyz says 503 on those still open, running answers
          // get the grace to finish, then are stopped and stored incomplete; then all is closed.
          draining = true;
          const closed = new Promise<void>((done) => listening.close(() => done()));
          // No task is claimed from now on; one being published is finished meanwhile.
          const schedulerStopped = publishing.scheduler.stop();
          if ('closeIdleConnections' in listening) listening.closeIdleConnections();
          const { finished, stopped } = await settleAnswers(watched.running, config.shutdownGraceMs);
          if (finished + stopped > 0) log(`shutdown: ${finished} running answers finished, ${stopped} stopped and kept incomplete`);
          // The streams of settled answers end on their own; idle keep-alive connections are closed.
          if ('closeIdleConnections' in listening) listening.closeIdleConnections();
          await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, LAST_WRITES_MS).unref())]);
          if ('closeAllConnections' in listening) listening.closeAllConnections();
          await closed;
          try {
            clearInterval(sweeper);
            clearInterval(upkeep);
            await schedulerStopped;
            await answers?.close();
            mailer?.close();
            await database.close();
          } finally {
            removeOpsFile();
            lock?.release();
          }
        })()),
    };
  } catch (error) {
    server?.close();
    clearInterval(sweeper);
    clearInterval(upkeep);
    await answers?.close().catch(() => {});
    mailer?.close();
    await database.close().catch(() => {});
    removeOpsFile();
    lock?.release();
    throw error;
  }
}
