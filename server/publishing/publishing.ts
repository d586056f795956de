import type { Clock, ServerConfig } from '../config';
import type { Db } from '../db/client';
import type { FileStorage } from '../media/storage';
import type { Sealer } from '../auth/sealed';
import { exportConnector, type Connectors } from './connector';
import { createConnectorDirectory } from './directory';
import { createLinkedInConnector, linkedInConfigFromEnv, linkedInEndpointFromEnv } from './linkedin';
import type { Publishing } from './types';
import { createScheduler, DEFAULT_PUBLISH_INTERVAL_MS, type Scheduler } from './scheduler';

export type { Publishing } from './types';

/** Without a scheduler (API-only tests): every platform is exported by hand and nothing runs. */
export const exportOnlyPublishing: Publishing = {
  modesFor: async () => ({ xiaohongshu: 'export', linkedin: 'export' }),
  kick: () => undefined,
};

/** Xiaohongshu has no public posting API; LinkedIn posts through its API when a token is configured. */
export function connectorsFromEnv(env: NodeJS.ProcessEnv): Connectors {
  const linkedin = linkedInConfigFromEnv(env);
  return {
    xiaohongshu: exportConnector('xiaohongshu'),
    linkedin: linkedin ? createLinkedInConnector(linkedin) : exportConnector('linkedin'),
  };
}

export function publishIntervalFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.PUBLISH_INTERVAL_SECONDS?.trim();
  if (!raw) return DEFAULT_PUBLISH_INTERVAL_MS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 1) throw new Error(`PUBLISH_INTERVAL_SECONDS must be at least 1, got "${raw}"`);
  return seconds * 1000;
}

/** The connectors and the scheduler of a running server, configured from the environment. */
export function createPublishing(options: {
  env: NodeJS.ProcessEnv;
  db: Db;
  clock: Clock;
  storage: FileStorage;
  log: (line: string) => void;
  instanceId: string;
  config: Pick<ServerConfig, 'leaseMs' | 'leaseRenewMs'>;
  /** This instance owns the database alone (the embedded database). */
  exclusive: boolean;
  sealer: Sealer | null;
}): Publishing & { scheduler: Scheduler } {
  const connectors = createConnectorDirectory({
    db: options.db,
    sealer: options.sealer,
    environment: connectorsFromEnv(options.env),
    linkedIn: linkedInEndpointFromEnv(options.env),
  });
  const { config, sealer: _sealer, ...rest } = options;
  const scheduler = createScheduler({
    ...rest,
    connectors,
    intervalMs: publishIntervalFromEnv(options.env),
    leaseMs: config.leaseMs,
    leaseRenewMs: config.leaseRenewMs,
  });
  return { modesFor: connectors.modesFor, kick: scheduler.kick, scheduler };
}
