import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../src/contract/media';
import { googleConfigFromEnv, type GoogleConfig } from './auth/google';
import { PROVIDER_PICTURE_SOURCES, type PictureSources } from './media/provider-picture';
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
  /** Where WeChat's and Google's pictures of a new account may be fetched from; not from the environment (tests only loosen it). */
  providerPictures: PictureSources;
  /** How long a scan-login ticket waits for its confirmation. */
  scanTicketTtlMs: number;
  /** Scan-login tickets one client address may open per minute. */
  scanTicketsPerMinute: number;
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
  providerPictures: PROVIDER_PICTURE_SOURCES,
  scanTicketTtlMs: 3 * 60 * 1000,
  scanTicketsPerMinute: 20,
};

function positiveNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

/**
 * Reads every setting the server takes from the environment (see docs/api.md, "Configuration").
 * `listen.host` is where the server will listen: some defaults are safe only on loopback.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, listen: { host?: string } = {}): ServerConfig {
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
    wechat: wechatSettingsFromEnv(env, listen),
    google: googleConfigFromEnv(env),
    providerPictures: PROVIDER_PICTURE_SOURCES,
    scanTicketTtlMs: positiveNumber(env, 'SCAN_TICKET_TTL_SECONDS', defaultConfig.scanTicketTtlMs / 1000) * 1000,
    scanTicketsPerMinute: positiveNumber(env, 'SCAN_TICKETS_PER_MINUTE', defaultConfig.scanTicketsPerMinute),
  };
}

export type Clock = { now(): Date };
export const systemClock: Clock = { now: () => new Date() };
