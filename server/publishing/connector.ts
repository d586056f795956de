import type { Platform, PublishMode } from '../../src/contract/tasks';
import type { StoredFileRef } from '../db/schema';

/** What a connector is given to publish: the task's final text and its images with their bytes. */
export type PublishInput = {
  taskId: string;
  title: string;
  body: string;
  images: (StoredFileRef & { bytes: Uint8Array })[];
  signal?: AbortSignal;
};

export type PublishResult = { externalId: string; externalUrl: string | null };

/**
 * How tasks of one platform reach it. An `export` connector cannot post: at the scheduled time
 * the task waits for the operator to post it by hand.
 */
export type Connector =
  | { platform: Platform; mode: 'api'; label: string; publish(input: PublishInput): Promise<PublishResult> }
  | { platform: Platform; mode: 'export'; label: string };

/** A refusal from the platform, worded for the operator (it becomes the task's failure reason). */
export class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublishError';
  }
}

export const exportConnector = (platform: Platform): Connector => ({
  platform,
  mode: 'export',
  label: `${platform}: exported and posted by hand`,
});

export type Connectors = Record<Platform, Connector>;

export const modesOf = (connectors: Connectors): Record<Platform, PublishMode> => ({
  xiaohongshu: connectors.xiaohongshu.mode,
  linkedin: connectors.linkedin.mode,
});
