import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import type { Role } from '../../src/contract/users';
import { createOfflineResponder } from '../agents/offline-responder';
import type { AgentRuntime } from '../agents/runtime';
import type { Sealer } from '../auth/sealed';
import type { Mailer } from '../mail/mailer';
import { createApp } from '../app';
import { defaultConfig, type Clock, type ServerConfig } from '../config';
import type { Db, DbHandle } from '../db/client';
import type { LiveAnswers } from '../services/live-answers';
import { createMemoryStorage, type FileStorage } from '../media/storage';
import { companies } from '../db/schema';
import { createUser } from '../seed/users';
import { openTestDb } from './test-db';
import type { ReadinessCheck } from '../deps';

export type TestClock = Clock & { advance(ms: number): void; set(date: Date): void };

export function testClock(start = Date.now()): TestClock {
  let current = start;
  return {
    now: () => new Date(current),
    advance: (ms) => void (current += ms),
    set: (date) => void (current = date.getTime()),
  };
}

/** Test replies are read loosely; the contract schemas check the shapes where it matters. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

export type Reply<T = unknown> = { status: number; headers: Headers; body: { code: number; msg: string; data: T; success: boolean; reason?: string } };

/** A log line as the server writes it (server/http/log-line.ts). */
export type LogRecord = { level: string; time: string; instance: string; requestId?: string; msg: string } & Record<string, unknown>;

export type TestApp = {
  app: ReturnType<typeof createApp>;
  clock: TestClock;
  storage: FileStorage;
  /** The message of each log line written, in order (a line that is not JSON, as written). */
  logs: string[];
  /** Each log line as written: JSON, with the time, level, instance, request id and fields. */
  lines: string[];
  /** Each JSON log line, parsed. */
  records: LogRecord[];
  /** Forgets the lines written so far. */
  clearLogs(): void;
  /** The pauses the server made (the login slowdown), in ms; none of them is waited for. */
  pauses: number[];
  /** The address requests come from, as the socket reports it (each app has its own). */
  address: string;
  raw(path: string, init?: RequestInit): Promise<Response>;
  post<T = Loose>(path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply<T>>;
  get<T = Loose>(path: string, query?: Record<string, string>, headers?: Record<string, string>): Promise<Reply<T>>;
};

/** One database per test file (PGlite start is slow); as many apps over it as a test wants. */
export async function openHarness(shared?: { a: DbHandle; b: DbHandle }) {
  const database: DbHandle & { databaseUrl?: string } = shared?.a ?? (await openTestDb());
  const db = database.db;

  function makeApp(
    options: {
      config?: Partial<ServerConfig>;
      /** Answers every question; default the offline responder. `registry`: each question's model, as the server picks it. */
      runtime?: AgentRuntime | 'registry';
      clock?: TestClock;
      address?: string;
      /** Where this app keeps files; default its own memory, as if it ran alone. */
      storage?: FileStorage;
      downloads?: FileStorage;
      /** `b`: the app of a second instance, over its own connections to the same database. */
      instance?: 'a' | 'b';
      draining?: () => boolean;
      /** More for /readyz to check (server/http/health.ts). */
      readiness?: ReadinessCheck[];
      /** Why a question cannot be stored now (a full disk), or null. */
      storageRoom?: ReadinessCheck;
      /** Another connection to the file's database: an instance of its own. */
      db?: Db;
      instanceId?: string;
      answers?: LiveAnswers;
      sealer?: Sealer;
      mailer?: Mailer;
    } = {},
  ): TestApp {
    const config: ServerConfig = { ...defaultConfig, offlineTokenDelayMs: 0, ...options.config };
    const clock = options.clock ?? testClock();
    const storage = options.storage ?? createMemoryStorage();
    const logs: string[] = [];
    const lines: string[] = [];
    const records: LogRecord[] = [];
    const write = (line: string) => {
      lines.push(line);
      let record: LogRecord | null = null;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        // A pretty line (LOG_FORMAT=pretty): its message is the line.
      }
      if (record) records.push(record);
      logs.push(record ? record.msg : line);
    };
    const pauses: number[] = [];
    // Limits are kept in the one database of the file: a fresh address per app keeps one test's
    // spent quotas from refusing the next test's requests.
    const address = options.address ?? `198.51.${randomInt(256)}.${randomInt(256)}`;
    const app = createApp({
      db: options.db ?? (options.instance === 'b' && shared ? shared.b.db : db),
      ...(options.draining ? { draining: options.draining } : {}),
      ...(options.readiness ? { readiness: options.readiness } : {}),
      ...(options.storageRoom ? { storageRoom: options.storageRoom } : {}),
      ...(options.instanceId ? { instanceId: options.instanceId } : {}),
      ...(options.answers ? { answers: options.answers } : {}),
      ...(options.sealer ? { sealer: options.sealer } : {}),
      ...(options.mailer ? { mailer: options.mailer } : {}),
      config,
      clock,
      ...(options.runtime === 'registry' ? {} : { runtime: options.runtime ?? createOfflineResponder(0) }),
      storage,
      ...(options.downloads ? { downloads: options.downloads } : {}),
      log: write,
      sleep: async (ms) => void pauses.push(ms),
    });
    // What @hono/node-server hands the app: the socket the request came in on.
    const raw = async (path: string, init?: RequestInit) => app.request(path, init, { incoming: { socket: { remoteAddress: address } } });
    const wrap = async (response: Response) => ({
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Loose,
    });
    return {
      app,
      clock,
      storage,
      logs,
      lines,
      records,
      clearLogs: () => {
        for (const list of [logs, lines, records]) list.length = 0;
      },
      pauses,
      address,
      raw,
      post: async (path, body, headers = {}) =>
        wrap(
          await raw(path, {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
          }),
        ),
      get: async (path, query = {}, headers = {}) => {
        const qs = new URLSearchParams(query).toString();
        return wrap(await raw(qs ? `${path}?${qs}` : path, { headers }));
      },
    };
  }

  type AccountOptions = { companyId?: string | null; nickname?: string; role?: Role };

  /** A fresh account; answers its credentials and row. */
  async function newUser(options: AccountOptions = {}) {
    const username = `user-${randomBytes(5).toString('hex')}@test.local`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const user = await createUser(db, { now: () => new Date() }, { username, password, ...options });
    return { username, password, user };
  }

  /** A fresh account, logged in through the API; answers the headers that authenticate it. */
  async function loggedIn(t: TestApp, options: AccountOptions = {}) {
    const account = await newUser(options);
    const reply = await t.post('/api/system/auth/login', { username: account.username, password: account.password });
    if (reply.status !== 200) throw new Error(`login failed: ${JSON.stringify(reply.body)}`);
    const token = reply.body.data.token as string;
    return { ...account, token, headers: { authorization: `Bearer ${token}` } };
  }

  /** A new, empty company; answers its id. */
  async function newCompany(name = 'Test company') {
    const id = `company-${randomBytes(5).toString('hex')}`;
    await db.insert(companies).values({ id, name });
    return id;
  }

  /** An operator of a company (the seeded default, Kraken AI, unless named), logged in. */
  const operator = (t: TestApp, options: AccountOptions = {}) => loggedIn(t, { companyId: 'kraken', role: 'operator', ...options });

  const visitor = () => ({ 'x-visitor-id': randomUUID() });

  return { database, db, makeApp, newUser, loggedIn, operator, newCompany, visitor, close: () => database.close() };
}
