import type { UsableModel } from '../../../src/contract/models';
import type { AgentContent, AgentVersion, StudioAgent } from '../../../src/contract/studio';

/** The registry's models in the studio's tests: a default that writes 4,096 tokens at most, and one that sees images. */
export const HOUSE: UsableModel = { id: 'model-house', name: 'House model', contextWindow: 128_000, maxOutput: 4096, vision: false, isDefault: true };
export const SEEING: UsableModel = { id: 'model-seeing', name: 'Seeing model', contextWindow: 32_000, maxOutput: 2048, vision: true, isDefault: false };
export const MODELS = [HOUSE, SEEING];

export const content = (partial: Partial<AgentContent> = {}): AgentContent => ({
  name: 'Tutor',
  avatar: 'data:image/svg+xml;charset=utf-8,T',
  intro: 'Explains things.',
  category: null,
  systemPrompt: 'You are a patient tutor.',
  modelId: null,
  parameters: {},
  starters: {},
  translations: {},
  allowModelChoice: false,
  visibility: 'private',
  ...partial,
});

/** A studio agent as the server answers it. */
export const studioAgent = (partial: Partial<StudioAgent> = {}): StudioAgent => ({
  agentId: 'agent-1',
  isDraft: true,
  hasDraft: true,
  versionId: null,
  published: false,
  retired: false,
  approval: 'none',
  pendingVersionId: null,
  rejectReason: null,
  companyId: 'company-acme',
  createBy: 'user-ada',
  createByName: 'Ada',
  updatedAt: '2026-03-01T10:00:00.000Z',
  content: content(),
  ...partial,
});

/** The same agent once published: live, no draft beside it. */
export const published = (partial: Partial<StudioAgent> = {}): StudioAgent =>
  studioAgent({ isDraft: false, hasDraft: false, versionId: 'version-1', published: true, ...partial });

export const version = (partial: Partial<AgentVersion> = {}): AgentVersion => ({
  versionId: 'version-1',
  agentId: 'agent-1',
  status: 'published',
  live: true,
  createdAt: '2026-03-01T10:00:00.000Z',
  createdByName: 'Ada',
  reviewedAt: null,
  reviewedByName: null,
  reviewNote: null,
  content: content(),
  ...partial,
});

/** A refusal as the app layer hands it to the machine: its status, and the server's reason when it gave one. */
export const refusal = (status: number, reason?: string) => Object.assign(new Error(`status ${status}`), { status, ...(reason ? { reason } : {}) });
