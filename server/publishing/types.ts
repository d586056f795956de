import type { Platform, PublishMode } from '../../src/contract/tasks';

/**
 * What the task routes need from publishing: how each platform publishes for a company, and a
 * nudge after scheduling. A leaf, so the server's dependencies can name it without importing the
 * scheduler and all it imports.
 */
export type Publishing = {
  modesFor(companyId: string | null): Promise<Record<Platform, PublishMode>>;
  kick(): void;
};
