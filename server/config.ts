import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../src/contract/media';
import { googleConfigFromEnv, type GoogleConfig } from './auth/google';
import { wechatSettingsFromEnv, type WechatSettings } from './wechat/settings';

export type LlmConfig = { baseUrl: string; apiKey?: string; model: string };

export type ServerConfig = {
  /** OpenAI-compatible model service; null runs the offline responder. */
  llm: LlmConfig | null;
  /** Pause between the offline responder's tokens. */
  offlineTokenDelayMs: number;
  uploadLimitBytes: number;
  /** Largest JSON body any endpoint accepts. */
  jsonBodyLimitBytes: number;
  sessionTtlMs: number;
  /** Failed logins one account may have in the window. */
  loginMaxFailures: number;
  /** Failed logins one client address may make in the window, whatever the accounts. */
  loginMaxFailuresPerAddress: number;
  loginWindowMs: number;
  sseHeartbeatMs: number;
  /** Read the client address from X-Forwarded-For (only behind a proxy you trust). */
  trustProxy: boolean;
  /** WeChat's real API, the local simulator, or neither (see server/wechat/settings.ts). */
  wechat: WechatSettings;
  /** The Google OAuth connector; null refuses Google login. */
  google: GoogleConfig | null;
  /** How long a scan-login ticket waits for its confirmation. */
  scanTicketTtlMs: number;
  /** Scan-login tickets one client address may open per minute. */
  scanTicketsPerMinute: number;
  /** `debug` also logs each request's query string (never headers or bodies). */
  logLevel: 'info' | 'debug';
  /** Send Strict-Transport-Security: only when the site is reached over https. */
  hsts: boolean;
  /** Serve dist/assets/*.map; off, the built code's sources are not published. */
  serveSourceMaps: boolean;
  /** How often a streaming answer's text is saved, so a crash loses at most this much. */
  answerSaveIntervalMs: number;
  /** Parts (fields and files) one upload may have. */
  uploadMaxParts: number;
  /** An upload that sends nothing for this long is cut. */
  uploadIdleMs: number;
  /** Node's headersTimeout and requestTimeout: time to receive a request's headers, and all of it. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
};

export const DEFAULT_MODEL = 'gpt-4o-mini';

export const defaultConfig: ServerConfig = {
  llm: null,
  offlineTokenDelayMs: 15,
  uploadLimitBytes: DEFAULT_UPLOAD_LIMIT_BYTES,
  jsonBodyLimitBytes: 1024 * 1024,
  sessionTtlMs: 7 * 24 * 3600 * 1000,
  loginMaxFailures: 5,
  loginMaxFailuresPerAddress: 20,
  loginWindowMs: 60 * 1000,
  sseHeartbeatMs: 15 * 1000,
  trustProxy: false,
  wechat: { mode: 'simulator' },
  google: null,
  scanTicketTtlMs: 3 * 60 * 1000,
  scanTicketsPerMinute: 20,
  logLevel: 'info',
  hsts: false,
  serveSourceMaps: false,
  answerSaveIntervalMs: 1000,
  uploadMaxParts: 8,
  uploadIdleMs: 30 * 1000,
  headersTimeoutMs: 20 * 1000,
  requestTimeoutMs: 5 * 60 * 1000,
};

const isOn = (value: string | undefined) => ['1', 'on', 'true', 'yes'].includes((value ?? '').trim().toLowerCase());

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/** Reads every setting the server takes from the environment (see docs/api.md, "Configuration"). */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const baseUrl = env.LLM_BASE_URL?.trim();
  return {
    llm: baseUrl
      ? { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: env.LLM_API_KEY || undefined, model: env.LLM_MODEL || DEFAULT_MODEL }
      : null,
    offlineTokenDelayMs: positiveNumber(env, 'OFFLINE_TOKEN_DELAY_MS', defaultConfig.offlineTokenDelayMs),
    uploadLimitBytes: positiveNumber(env, 'UPLOAD_LIMIT_BYTES', defaultConfig.uploadLimitBytes),
    jsonBodyLimitBytes: defaultConfig.jsonBodyLimitBytes,
    sessionTtlMs: positiveNumber(env, 'SESSION_TTL_SECONDS', defaultConfig.sessionTtlMs / 1000) * 1000,
    loginMaxFailures: positiveNumber(env, 'LOGIN_MAX_FAILURES', defaultConfig.loginMaxFailures),
    loginMaxFailuresPerAddress: positiveNumber(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', defaultConfig.loginMaxFailuresPerAddress),
    loginWindowMs: positiveNumber(env, 'LOGIN_WINDOW_SECONDS', defaultConfig.loginWindowMs / 1000) * 1000,
    sseHeartbeatMs: defaultConfig.sseHeartbeatMs,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    wechat: wechatSettingsFromEnv(env),
    google: googleConfigFromEnv(env),
    scanTicketTtlMs: positiveNumber(env, 'SCAN_TICKET_TTL_SECONDS', defaultConfig.scanTicketTtlMs / 1000) * 1000,
    scanTicketsPerMinute: positiveNumber(env, 'SCAN_TICKETS_PER_MINUTE', defaultConfig.scanTicketsPerMinute),
    logLevel: env.LOG_LEVEL?.trim().toLowerCase() === 'debug' ? 'debug' : 'info',
    hsts: isOn(env.HSTS) || (env.HSTS === undefined && /^https:\/\//i.test(env.PUBLIC_URL?.trim() ?? '')),
    serveSourceMaps: isOn(env.SERVE_SOURCEMAPS),
    answerSaveIntervalMs: defaultConfig.answerSaveIntervalMs,
    uploadMaxParts: defaultConfig.uploadMaxParts,
    uploadIdleMs: positiveNumber(env, 'UPLOAD_IDLE_SECONDS', defaultConfig.uploadIdleMs / 1000) * 1000,
    headersTimeoutMs: positiveNumber(env, 'HEADERS_TIMEOUT_SECONDS', defaultConfig.headersTimeoutMs / 1000) * 1000,
    requestTimeoutMs: positiveNumber(env, 'REQUEST_TIMEOUT_SECONDS', defaultConfig.requestTimeoutMs / 1000) * 1000,
  };
}

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
