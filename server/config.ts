import { SIGNUP_POLICIES, type SignupPolicy } from '../src/contract/accounts';
import { exposureOf } from './net/public-address';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../src/contract/media';
import { googleConfigFromEnv, type GoogleConfig } from './auth/google';
import { DEFAULT_POOL_MAX } from './db/pool-size';
import { isOn } from './env-switch';
import { PROVIDER_PICTURE_SOURCES, type PictureSources } from './media/provider-picture';
import { wechatSettingsFromEnv, type WechatSettings } from './wechat/settings';
import { DEFAULT_MODEL_TIMEOUTS, type ModelTimeouts } from './agents/model-request';

/** `timeouts`: how long the model may keep a reader waiting (server/agents/model-request.ts). */
export type LlmConfig = { baseUrl: string; apiKey?: string; model: string; timeouts?: ModelTimeouts };

/** An S3-compatible bucket for uploads and the desktop downloads (server/media/file-stores.ts). */
export type S3Settings = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (MinIO and the like) rather than in the host name; S3_FORCE_PATH_STYLE, default on. */
  forcePathStyle: boolean;
};

/** Every one of these, or none: half an object storage would quietly fall back to one machine's files. */
export const S3_SETTINGS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;

export function s3SettingsFromEnv(env: NodeJS.ProcessEnv): S3Settings | null {
  const values = Object.fromEntries(S3_SETTINGS.map((name) => [name, env[name]?.trim() ?? ''])) as Record<(typeof S3_SETTINGS)[number], string>;
  const missing = S3_SETTINGS.filter((name) => values[name] === '');
  if (missing.length === S3_SETTINGS.length) return null;
  if (missing.length > 0) {
    throw new Error(
      `Object storage needs all of ${S3_SETTINGS.join(', ')}; missing: ${missing.join(', ')}. Set them all, or none to keep files in the database or on disk.`,
    );
  }
  if (!/^https?:\/\/[^/]/i.test(values.S3_ENDPOINT)) {
    throw new Error(`S3_ENDPOINT must be an http(s) address such as https://s3.eu-west-1.amazonaws.com, got "${values.S3_ENDPOINT}"`);
  }
  return {
    endpoint: values.S3_ENDPOINT.replace(/\/+$/, ''),
    bucket: values.S3_BUCKET,
    region: values.S3_REGION,
    accessKeyId: values.S3_ACCESS_KEY_ID,
    secretAccessKey: values.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE === undefined || env.S3_FORCE_PATH_STYLE.trim() === '' ? true : isOn(env.S3_FORCE_PATH_STYLE),
  };
}

/** What one visitor or one signed-in user may spend; see README, "Configuration". */
export type IdentityQuotas = {
  questionsPerMinute: number;
  questionsPerDay: number;
  uploadBytesPerDay: number;
  /** The sum of the sizes of the identity's uploads kept on the server. */
  storedBytes: number;
  /** New conversations and share links: far above what a person makes, low enough to stop a script. */
  conversationsPerMinute: number;
  conversationsPerDay: number;
  sharesPerMinute: number;
  sharesPerDay: number;
};

/** What visitors from one client address may spend together, whatever ids they make up. */
export type AddressQuotas = {
  questionsPerMinute: number;
  questionsPerDay: number;
  uploadBytesPerDay: number;
  conversationsPerMinute: number;
  conversationsPerDay: number;
};

export type ServerConfig = {
  /** Who may make an account (SIGNUP): anyone, only with an invitation, or nobody. */
  signup: SignupPolicy;
  /** How long an invitation link and a password-reset link work. */
  invitationTtlMs: number;
  resetLinkTtlMs: number;
  /** OpenAI-compatible model service; null runs the offline responder. */
  llm: LlmConfig | null;
  /** Pause between the offline responder's tokens. */
  offlineTokenDelayMs: number;
  uploadLimitBytes: number;
  /** Largest JSON body any endpoint accepts. */
  jsonBodyLimitBytes: number;
  sessionTtlMs: number;
  /** Failed logins one account may have from one client address in the window. */
  loginMaxFailures: number;
  /** Failed logins one client address may make in the window, whatever the accounts. */
  loginMaxFailuresPerAddress: number;
  loginWindowMs: number;
  /**
   * Longest pause before answering a login for an account that had more than `loginMaxFailures`
   * failures in the window from all addresses together (it grows from 0.5 s); 0 never pauses.
   */
  loginSlowdownMaxMs: number;
  sseHeartbeatMs: number;
  /** How long a reader's text may wait to be joined by more into one delta event (see server/routes/delta-batcher.ts). */
  sseDeltaBatchMs: number;
  /**
   * How many reverse proxies in front of the server add to X-Forwarded-For; 0 ignores the header.
   * The client address is the entry that many places from the right (server/http/client-address.ts).
   */
  trustProxy: number;
  visitorQuotas: IdentityQuotas;
  userQuotas: IdentityQuotas;
  addressQuotas: AddressQuotas;
  /** Answers one visitor or user may have streaming at once, on all instances together. */
  streamingAnswersPerIdentity: number;
  /** Whether the model names a conversation after its first answer (MODEL_TITLES, on by default). */
  modelTitles: boolean;
  /** On the embedded database, /readyz fails when its disk has less room than this. */
  minFreeDiskBytes: number;
  /** Answer and resume streams one visitor or user may have open at once on one instance. */
  openStreamsPerIdentity: number;
  /** How often the sessions of open streams are read again, so a signed-out session's streams end. */
  sessionCheckMs: number;
  /** Characters of conversation sent to the model with a question, the question included. */
  historyCharBudget: number;
  /** How long any model service may keep a reader waiting (MODEL_*_TIMEOUT_SECONDS), the console's providers' as the environment's. */
  modelTimeouts: ModelTimeouts;
  /**
   * MODEL_PROVIDERS_ON_PRIVATE_NETWORK: the console's model providers may be on this machine or
   * its private networks (self-hosted models); off, only public addresses (server/net/outbound.ts).
   */
  modelProvidersOnPrivateNetwork: boolean;
  /** WeChat's real API, the local simulator, or neither (see server/wechat/settings.ts). */
  wechat: WechatSettings;
  /** The Google OAuth connector; null refuses Google login. */
  google: GoogleConfig | null;
  /** Object storage for files; null keeps them in PostgreSQL (DATABASE_URL) or on disk (embedded database). */
  s3: S3Settings | null;
  /** Where WeChat's and Google's pictures of a new account may be fetched from; not from the environment (tests only loosen it). */
  providerPictures: PictureSources;
  /** How long a scan-login ticket waits for its confirmation. */
  scanTicketTtlMs: number;
  /** Scan-login tickets one client address may open per minute. */
  scanTicketsPerMinute: number;
  /** WeChat and mini-program sign-ins (each a code exchanged with WeChat) one client address may make per minute. */
  wechatLoginsPerMinute: number;
  /** `debug` also logs each request's query string (never headers or bodies). */
  logLevel: 'info' | 'debug';
  /** LOG_FORMAT: JSON lines, or `pretty` lines for a person at a terminal (the default when stdout is one). */
  logFormat: LogFormat;
  /** METRICS_TOKEN: lets a scraper that is not on this machine read /metrics with it as a bearer token. */
  metricsToken: string | null;
  /** Send Strict-Transport-Security: only when the site is reached over https. */
  hsts: boolean;
  /** Serve dist/assets/*.map; off, the built code's sources are not published. */
  serveSourceMaps: boolean;
  /**
   * A streaming answer's text reaches its readers only once stored: the pieces the model sends
   * within this time are stored in one write and then shown (the first at once). A crash, a pause
   * or a database outage can therefore never leave stored text shorter than what was shown.
   */
  answerCommitMs: number;
  /**
   * How long an answer waits for a database that does not take its writes (an outage, a full
   * disk) before it ends as failed: meanwhile its readers see no new text, and every write is
   * tried again.
   */
  answerStoreRetryMs: number;
  /**
   * How many times an instance writes on, by itself, an answer it took over from an instance that
   * was gone (CONTINUE_TAKEN_OVER: on, the default, is 2; off is 0).
   */
  continueTakenOverMax: number;
  /** An answer nobody has read for this long (every tab gone) is stopped and kept incomplete. */
  answerUnwatchedMaxMs: number;
  /** An answer nobody reads is stopped once its text is this long, and kept incomplete. */
  answerUnwatchedMaxChars: number;
  /**
   * A streaming answer or a task being published belongs to the instance holding its lease, which
   * renews it every `leaseRenewMs`; a lease not renewed for `leaseMs` (the instance is gone) is
   * taken over by any instance.
   */
  leaseMs: number;
  leaseRenewMs: number;
  /**
   * How often the embedded database's tables are checked for analyzing and vacuuming. Autovacuum
   * looks every minute; here a table filling up from empty needs its statistics within seconds
   * (a burst of new visitors planned from none scans every visitor's conversations for each
   * question). A check with nothing due is one read of the statistics.
   */
  databaseUpkeepMs: number;
  /** Parts (fields and files) one upload may have. */
  uploadMaxParts: number;
  /** An upload that sends nothing for this long is cut. */
  uploadIdleMs: number;
  /**
   * Uploads received at once per identity, and how many more wait unread for a turn (a message's
   * files together); the same for the whole instance. Past them an upload is refused unread.
   */
  uploadsAtOnce: { perIdentity: number; waitingPerIdentity: number; perInstance: number; waitingPerInstance: number };
  /** Connections one instance keeps to PostgreSQL (DATABASE_URL); unused on the embedded database. */
  databasePoolMax: number;
  /** What of the attachments reaches the model (see server/services/attachment-reading.ts). */
  attachments: AttachmentLimits;
  /** Node's headersTimeout and requestTimeout: time to receive a request's headers, and all of it. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /**
   * On SIGTERM/SIGINT, how long answers still being written may run before they are stopped and
   * kept incomplete (the server stops taking connections and /readyz answers 503 meanwhile).
   */
  shutdownGraceMs: number;
};

export type AttachmentLimits = {
  /** Characters of file text (text files, PDFs) sent with one question, all files together. */
  textCharBudget: number;
  /** An image larger than this is not sent; the model is told so. */
  imageMaxBytes: number;
  /** Images sent with one request, newest first. */
  imagesPerRequest: number;
  /**
   * Of those, images of earlier questions sent again (newest first), and their bytes together:
   * the others are named in a sentence ("shown earlier"), so a long conversation with pictures
   * does not send every picture again with every question.
   */
  earlierImagesPerRequest: number;
  earlierImageBytes: number;
  /** MODEL_ACCEPTS_IMAGES: overrides every agent's own setting when set (the deployment's model decides). */
  modelAcceptsImages: boolean | null;
  /** A PDF is read up to this many pages and for at most this long. */
  pdfMaxPages: number;
  readTimeoutMs: number;
  /**
   * Files are read in worker threads (server/media/text-reader.ts): this many at once per
   * instance, this many waiting, each with this heap, stopping after this many characters.
   */
  readersAtOnce: number;
  readQueueMax: number;
  readHeapMb: number;
  readStopAfterChars: number;
};

export const DEFAULT_MODEL = 'gpt-4o-mini';

const MB = 1024 * 1024;

export const defaultConfig: ServerConfig = {
  signup: 'invite',
  invitationTtlMs: 7 * 24 * 3600 * 1000,
  resetLinkTtlMs: 24 * 3600 * 1000,
  llm: null,
  offlineTokenDelayMs: 15,
  uploadLimitBytes: DEFAULT_UPLOAD_LIMIT_BYTES,
  jsonBodyLimitBytes: 1024 * 1024,
  sessionTtlMs: 7 * 24 * 3600 * 1000,
  loginMaxFailures: 5,
  loginMaxFailuresPerAddress: 20,
  loginWindowMs: 60 * 1000,
  loginSlowdownMaxMs: 3000,
  sseHeartbeatMs: 15 * 1000,
  sseDeltaBatchMs: 8,
  trustProxy: 0,
  visitorQuotas: {
    questionsPerMinute: 20,
    questionsPerDay: 200,
    uploadBytesPerDay: 100 * MB,
    storedBytes: 500 * MB,
    conversationsPerMinute: 30,
    conversationsPerDay: 500,
    sharesPerMinute: 20,
    sharesPerDay: 200,
  },
  userQuotas: {
    questionsPerMinute: 60,
    questionsPerDay: 2000,
    uploadBytesPerDay: 500 * MB,
    storedBytes: 2048 * MB,
    conversationsPerMinute: 30,
    conversationsPerDay: 500,
    sharesPerMinute: 20,
    sharesPerDay: 200,
  },
  addressQuotas: { questionsPerMinute: 60, questionsPerDay: 1000, uploadBytesPerDay: 1024 * MB, conversationsPerMinute: 60, conversationsPerDay: 1000 },
  streamingAnswersPerIdentity: 2,
  modelTitles: true,
  minFreeDiskBytes: 100 * MB,
  openStreamsPerIdentity: 8,
  sessionCheckMs: 2000,
  historyCharBudget: 24_000,
  modelTimeouts: DEFAULT_MODEL_TIMEOUTS,
  modelProvidersOnPrivateNetwork: false,
  wechat: { mode: 'simulator' },
  google: null,
  s3: null,
  providerPictures: PROVIDER_PICTURE_SOURCES,
  scanTicketTtlMs: 3 * 60 * 1000,
  scanTicketsPerMinute: 20,
  wechatLoginsPerMinute: 30,
  logLevel: 'info',
  logFormat: 'json',
  metricsToken: null,
  hsts: false,
  serveSourceMaps: false,
  answerCommitMs: 50,
  answerStoreRetryMs: 60 * 1000,
  continueTakenOverMax: 2,
  answerUnwatchedMaxMs: 10 * 60 * 1000,
  answerUnwatchedMaxChars: 200_000,
  leaseMs: 15 * 1000,
  leaseRenewMs: 5 * 1000,
  databaseUpkeepMs: 2 * 1000,
  uploadMaxParts: 8,
  uploadIdleMs: 30 * 1000,
  uploadsAtOnce: { perIdentity: 3, waitingPerIdentity: 6, perInstance: 16, waitingPerInstance: 64 },
  databasePoolMax: DEFAULT_POOL_MAX,
  attachments: {
    textCharBudget: 40_000,
    imageMaxBytes: 5 * MB,
    imagesPerRequest: 4,
    earlierImagesPerRequest: 2,
    earlierImageBytes: 4 * MB,
    modelAcceptsImages: null,
    pdfMaxPages: 100,
    readTimeoutMs: 10 * 1000,
    readersAtOnce: 2,
    readQueueMax: 32,
    readHeapMb: 256,
    readStopAfterChars: 1_000_000,
  },
  headersTimeoutMs: 20 * 1000,
  requestTimeoutMs: 5 * 60 * 1000,
  shutdownGraceMs: 20 * 1000,
};

/** MODEL_ACCEPTS_IMAGES: on or off for every agent; unset, each agent's own setting holds. */
function onOffOrUnset(env: NodeJS.ProcessEnv, name: string): boolean | null {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '') return null;
  if (['1', 'on', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'off', 'false', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be on or off, got "${env[name]}"`);
}

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** DATABASE_POOL_MAX: a whole number of connections, at least 1. */
function poolSize(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_POOL_MAX;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`DATABASE_POOL_MAX must be a whole number of connections, at least 1, got "${raw}"`);
  return value;
}

/** TRUST_PROXY: a number of proxies; `true` (and `1`) mean one, as before hops were counted. */
function proxyHops(raw: string | undefined): number {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false' || value === 'off') return 0;
  if (value === 'true') return 1;
  const hops = Number(value);
  if (!Number.isInteger(hops) || hops < 0) throw new Error(`TRUST_PROXY must be the number of proxies in front of the server, got "${raw}"`);
  return hops;
}

function identityQuotasFromEnv(env: NodeJS.ProcessEnv, prefix: 'VISITOR' | 'USER', fallback: IdentityQuotas): IdentityQuotas {
  return {
    questionsPerMinute: positiveNumber(env, `${prefix}_QUESTIONS_PER_MINUTE`, fallback.questionsPerMinute),
    questionsPerDay: positiveNumber(env, `${prefix}_QUESTIONS_PER_DAY`, fallback.questionsPerDay),
    uploadBytesPerDay: positiveNumber(env, `${prefix}_UPLOAD_MB_PER_DAY`, fallback.uploadBytesPerDay / MB) * MB,
    storedBytes: positiveNumber(env, `${prefix}_STORED_MB`, fallback.storedBytes / MB) * MB,
    conversationsPerMinute: positiveNumber(env, `${prefix}_CONVERSATIONS_PER_MINUTE`, fallback.conversationsPerMinute),
    conversationsPerDay: positiveNumber(env, `${prefix}_CONVERSATIONS_PER_DAY`, fallback.conversationsPerDay),
    sharesPerMinute: positiveNumber(env, `${prefix}_SHARES_PER_MINUTE`, fallback.sharesPerMinute),
    sharesPerDay: positiveNumber(env, `${prefix}_SHARES_PER_DAY`, fallback.sharesPerDay),
  };
}

/**
 * SIGNUP: `open`, `invite` or `closed`. Unset, a server only this machine reaches (someone trying
 * it on their own machine) is open and any other is by invitation (`exposureOf`: a server on
 * loopback behind nginx is reached by everyone), so a public server never lets strangers in by
 * default.
 */
export function signupPolicyFromEnv(env: NodeJS.ProcessEnv, listen: { host?: string }): SignupPolicy {
  const raw = env.SIGNUP?.trim().toLowerCase();
  if (!raw) return exposureOf(env, listen.host) === null ? 'open' : 'invite';
  if (!(SIGNUP_POLICIES as readonly string[]).includes(raw)) throw new Error(`SIGNUP must be one of ${SIGNUP_POLICIES.join(', ')}, got "${env.SIGNUP}"`);
  return raw as SignupPolicy;
}

export type LogFormat = 'json' | 'pretty';

/** LOG_FORMAT=json or pretty; unset, pretty when the log goes to a terminal. */
export function logFormatFromEnv(value: string | undefined, tty: boolean): LogFormat {
  const wanted = value?.trim().toLowerCase();
  if (!wanted) return tty ? 'pretty' : 'json';
  if (wanted === 'json' || wanted === 'pretty') return wanted;
  throw new Error(`LOG_FORMAT must be json or pretty, got "${value}"`);
}

/** MODEL_FIRST_BYTE_TIMEOUT_SECONDS and MODEL_SILENCE_TIMEOUT_SECONDS, for every model service. */
const modelTimeoutsFromEnv = (env: NodeJS.ProcessEnv): ModelTimeouts => ({
  firstByteMs: positiveNumber(env, 'MODEL_FIRST_BYTE_TIMEOUT_SECONDS', DEFAULT_MODEL_TIMEOUTS.firstByteMs / 1000) * 1000,
  silenceMs: positiveNumber(env, 'MODEL_SILENCE_TIMEOUT_SECONDS', DEFAULT_MODEL_TIMEOUTS.silenceMs / 1000) * 1000,
});

/**
 * Reads every setting the server takes from the environment (see docs/api.md, "Configuration").
 * `listen.host` is where the server will listen: some defaults are safe only on loopback;
 * `listen.tty`, whether the log goes to a terminal (default: whether stdout is one).
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, listen: { host?: string; tty?: boolean } = {}): ServerConfig {
  const baseUrl = env.LLM_BASE_URL?.trim();
  return {
    signup: signupPolicyFromEnv(env, listen),
    invitationTtlMs: positiveNumber(env, 'INVITATION_TTL_HOURS', defaultConfig.invitationTtlMs / 3600_000) * 3600_000,
    resetLinkTtlMs: positiveNumber(env, 'RESET_LINK_TTL_HOURS', defaultConfig.resetLinkTtlMs / 3600_000) * 3600_000,
    llm: baseUrl
      ? {
          baseUrl: baseUrl.replace(/\/+$/, ''),
          apiKey: env.LLM_API_KEY || undefined,
          model: env.LLM_MODEL || DEFAULT_MODEL,
          timeouts: modelTimeoutsFromEnv(env),
        }
      : null,
    offlineTokenDelayMs: positiveNumber(env, 'OFFLINE_TOKEN_DELAY_MS', defaultConfig.offlineTokenDelayMs),
    uploadLimitBytes: positiveNumber(env, 'UPLOAD_LIMIT_BYTES', defaultConfig.uploadLimitBytes),
    jsonBodyLimitBytes: defaultConfig.jsonBodyLimitBytes,
    sessionTtlMs: positiveNumber(env, 'SESSION_TTL_SECONDS', defaultConfig.sessionTtlMs / 1000) * 1000,
    loginMaxFailures: positiveNumber(env, 'LOGIN_MAX_FAILURES', defaultConfig.loginMaxFailures),
    loginMaxFailuresPerAddress: positiveNumber(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', defaultConfig.loginMaxFailuresPerAddress),
    loginWindowMs: positiveNumber(env, 'LOGIN_WINDOW_SECONDS', defaultConfig.loginWindowMs / 1000) * 1000,
    loginSlowdownMaxMs: positiveNumber(env, 'LOGIN_SLOWDOWN_MAX_MS', defaultConfig.loginSlowdownMaxMs),
    sseHeartbeatMs: defaultConfig.sseHeartbeatMs,
    sseDeltaBatchMs: defaultConfig.sseDeltaBatchMs,
    trustProxy: proxyHops(env.TRUST_PROXY),
    visitorQuotas: identityQuotasFromEnv(env, 'VISITOR', defaultConfig.visitorQuotas),
    userQuotas: identityQuotasFromEnv(env, 'USER', defaultConfig.userQuotas),
    addressQuotas: {
      questionsPerMinute: positiveNumber(env, 'ADDRESS_QUESTIONS_PER_MINUTE', defaultConfig.addressQuotas.questionsPerMinute),
      questionsPerDay: positiveNumber(env, 'ADDRESS_QUESTIONS_PER_DAY', defaultConfig.addressQuotas.questionsPerDay),
      uploadBytesPerDay: positiveNumber(env, 'ADDRESS_UPLOAD_MB_PER_DAY', defaultConfig.addressQuotas.uploadBytesPerDay / MB) * MB,
      conversationsPerMinute: positiveNumber(env, 'ADDRESS_CONVERSATIONS_PER_MINUTE', defaultConfig.addressQuotas.conversationsPerMinute),
      conversationsPerDay: positiveNumber(env, 'ADDRESS_CONVERSATIONS_PER_DAY', defaultConfig.addressQuotas.conversationsPerDay),
    },
    streamingAnswersPerIdentity: positiveNumber(env, 'STREAMING_ANSWERS_PER_IDENTITY', defaultConfig.streamingAnswersPerIdentity),
    modelTitles: env.MODEL_TITLES === undefined ? defaultConfig.modelTitles : isOn(env.MODEL_TITLES),
    minFreeDiskBytes: positiveNumber(env, 'MIN_FREE_DISK_MB', defaultConfig.minFreeDiskBytes / MB) * MB,
    openStreamsPerIdentity: positiveNumber(env, 'OPEN_STREAMS_PER_IDENTITY', defaultConfig.openStreamsPerIdentity),
    sessionCheckMs: defaultConfig.sessionCheckMs,
    historyCharBudget: positiveNumber(env, 'HISTORY_CHAR_BUDGET', defaultConfig.historyCharBudget),
    modelTimeouts: modelTimeoutsFromEnv(env),
    modelProvidersOnPrivateNetwork: isOn(env.MODEL_PROVIDERS_ON_PRIVATE_NETWORK),
    wechat: wechatSettingsFromEnv(env, listen),
    google: googleConfigFromEnv(env),
    s3: s3SettingsFromEnv(env),
    providerPictures: PROVIDER_PICTURE_SOURCES,
    scanTicketTtlMs: positiveNumber(env, 'SCAN_TICKET_TTL_SECONDS', defaultConfig.scanTicketTtlMs / 1000) * 1000,
    scanTicketsPerMinute: positiveNumber(env, 'SCAN_TICKETS_PER_MINUTE', defaultConfig.scanTicketsPerMinute),
    wechatLoginsPerMinute: positiveNumber(env, 'WECHAT_LOGINS_PER_MINUTE', defaultConfig.wechatLoginsPerMinute),
    logLevel: env.LOG_LEVEL?.trim().toLowerCase() === 'debug' ? 'debug' : 'info',
    logFormat: logFormatFromEnv(env.LOG_FORMAT, listen.tty ?? process.stdout.isTTY === true),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
    hsts: isOn(env.HSTS) || (env.HSTS === undefined && /^https:\/\//i.test(env.PUBLIC_URL?.trim() ?? '')),
    serveSourceMaps: isOn(env.SERVE_SOURCEMAPS),
    answerCommitMs: positiveNumber(env, 'ANSWER_COMMIT_MS', defaultConfig.answerCommitMs),
    answerStoreRetryMs: positiveNumber(env, 'ANSWER_STORE_RETRY_SECONDS', defaultConfig.answerStoreRetryMs / 1000) * 1000,
    continueTakenOverMax: onOffOrUnset(env, 'CONTINUE_TAKEN_OVER') === false ? 0 : defaultConfig.continueTakenOverMax,
    answerUnwatchedMaxMs: positiveNumber(env, 'ANSWER_UNWATCHED_MAX_SECONDS', defaultConfig.answerUnwatchedMaxMs / 1000) * 1000,
    answerUnwatchedMaxChars: positiveNumber(env, 'ANSWER_UNWATCHED_MAX_CHARS', defaultConfig.answerUnwatchedMaxChars),
    leaseMs: positiveNumber(env, 'LEASE_SECONDS', defaultConfig.leaseMs / 1000) * 1000,
    leaseRenewMs: positiveNumber(env, 'LEASE_RENEW_SECONDS', defaultConfig.leaseRenewMs / 1000) * 1000,
    databaseUpkeepMs: defaultConfig.databaseUpkeepMs,
    uploadMaxParts: defaultConfig.uploadMaxParts,
    uploadIdleMs: positiveNumber(env, 'UPLOAD_IDLE_SECONDS', defaultConfig.uploadIdleMs / 1000) * 1000,
    uploadsAtOnce: defaultConfig.uploadsAtOnce,
    databasePoolMax: poolSize(env.DATABASE_POOL_MAX),
    attachments: {
      textCharBudget: positiveNumber(env, 'ATTACHMENT_TEXT_CHARS', defaultConfig.attachments.textCharBudget),
      imageMaxBytes: positiveNumber(env, 'ATTACHMENT_IMAGE_MAX_MB', defaultConfig.attachments.imageMaxBytes / MB) * MB,
      imagesPerRequest: positiveNumber(env, 'ATTACHMENT_IMAGES_PER_QUESTION', defaultConfig.attachments.imagesPerRequest),
      earlierImagesPerRequest: positiveNumber(env, 'ATTACHMENT_EARLIER_IMAGES', defaultConfig.attachments.earlierImagesPerRequest),
      earlierImageBytes: positiveNumber(env, 'ATTACHMENT_EARLIER_IMAGES_MB', defaultConfig.attachments.earlierImageBytes / MB) * MB,
      modelAcceptsImages: onOffOrUnset(env, 'MODEL_ACCEPTS_IMAGES'),
      pdfMaxPages: positiveNumber(env, 'PDF_MAX_PAGES', defaultConfig.attachments.pdfMaxPages),
      readTimeoutMs: defaultConfig.attachments.readTimeoutMs,
      readersAtOnce: positiveNumber(env, 'FILE_READERS', defaultConfig.attachments.readersAtOnce),
      readQueueMax: defaultConfig.attachments.readQueueMax,
      readHeapMb: defaultConfig.attachments.readHeapMb,
      readStopAfterChars: defaultConfig.attachments.readStopAfterChars,
    },
    headersTimeoutMs: positiveNumber(env, 'HEADERS_TIMEOUT_SECONDS', defaultConfig.headersTimeoutMs / 1000) * 1000,
    requestTimeoutMs: positiveNumber(env, 'REQUEST_TIMEOUT_SECONDS', defaultConfig.requestTimeoutMs / 1000) * 1000,
    shutdownGraceMs: positiveNumber(env, 'SHUTDOWN_GRACE_SECONDS', defaultConfig.shutdownGraceMs / 1000) * 1000,
  };
}

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
