import type { AgentRuntime } from './agents/runtime';
import type { Sealer } from './auth/sealed';
import type { Mailer } from './mail/mailer';
import type { Clock, ServerConfig } from './config';
import type { Db } from './db/client';
import type { Log } from './http/log-line';
import type { Counters } from './limits/counters';
import type { FileStorage } from './media/storage';
import type { TextReader } from './media/text-reader';
import type { ModelRegistry } from './models/registry';
import type { Publishing } from './publishing/types';
import type { LiveAnswers } from './services/live-answers';
import type { OpenStreams } from './services/open-streams';

/** Everything the app talks to, injected so tests can swap any of it. */
/** One more thing an instance needs to serve (its file storage, its disk): null, or why not. */
export type ReadinessCheck = () => Promise<string | null>;

export type AppDeps = {
  db: Db;
  config: ServerConfig;
  clock: Clock;
  /**
   * Writes the answers. Default: each question's model as the registry resolves it (the
   * environment's, a console provider's, or the offline responder: server/models/runtime.ts);
   * tests give one runtime that answers everything.
   */
  runtime?: AgentRuntime;
  /** Upload bytes: attachments, task images, avatars. */
  storage: FileStorage;
  /** The desktop installers served under /downloads/; default: DOWNLOADS_DIR (or DATA_DIR/downloads) on disk. */
  downloads?: FileStorage;
  /** Where log lines go, one JSON (or, LOG_FORMAT=pretty, readable) line a call; defaults to console.log. */
  log?: (line: string) => void;
  /** How tasks reach their platforms; default: exported by hand, no scheduler. */
  publishing?: Publishing;
  /** How the server pauses (the login slowdown); tests record the pauses instead of waiting. */
  sleep?: (ms: number) => Promise<void>;
  /** The built SPA (`dist/`) to serve for every non-API GET; omitted in API-only tests. */
  spaDir?: string;
  /** The answers being written; default: this process's only (`localLiveAnswers`); the shutdown passes one it watches. */
  answers?: LiveAnswers;
  /** True once the server shuts down: /readyz then answers 503. */
  draining?: () => boolean;
  /** What else /readyz checks: the file storage, the embedded database's disk (server/http/health.ts). */
  readiness?: ReadinessCheck[];
  /**
   * Why a new question cannot be stored now (the embedded database's disk is full), or null;
   * asked before a question is taken, so nothing is shown that could not be kept. Default: none.
   */
  storageRoom?: ReadinessCheck;
  /** This server instance, as leases name it; default: a new id. */
  instanceId?: string;
  /** Seals the companies' publishing secrets (CONNECTOR_KEY); null: none can be stored. */
  sealer?: Sealer | null;
  /** Sends the reset links people ask for (SMTP_URL); null: none is sent, admins issue them. */
  mailer?: Mailer | null;
  /** Reads attachments' text in worker threads; default: one per app, bounded by `config.attachments`. */
  textReader?: TextReader;
  /** The embedded database's snapshot for `npm run backup`, behind DATA_DIR/ops.json's token (server/ops/backup-route.ts). */
  backup?: { token: string; snapshot: () => Promise<Blob> };
  /** The environment the server was started with (the default company's LINKEDIN_* connector); default process.env. */
  env?: NodeJS.ProcessEnv;
};

/** The deps after createApp filled in its own parts. */
export type Services = Required<Omit<AppDeps, 'spaDir' | 'draining' | 'readiness' | 'textReader' | 'log' | 'backup'>> & {
  /** One line per request, per answer, and server-side errors, through the one sink (`safeLog`). */
  log: Log;
  /** Every limit and quota, counted in the database so all instances share them. */
  counters: Counters;
  /** The answer and resume streams open here, bounded per identity and ended with their session. */
  streams: OpenStreams;
  /** The models questions may be answered with, as this instance keeps them (server/models/registry.ts). */
  models: ModelRegistry;
};
