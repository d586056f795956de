import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { pageRequestEntries, pageSchema } from './paging';

export { DEFAULT_AGENT_ID } from './constants';

export const agentSchema = v.object({
  id: idSchema,
  agentId: idSchema,
  name: v.string(),
  avatar: v.string(),
  intro: v.string(),
  category: v.optional(v.string()),
  createBy: v.string(),
  createByName: v.string(),
  updateBy: v.string(),
  updateByName: v.string(),
  versionId: v.string(),
  companyId: v.string(),
  public: v.boolean(),
  published: v.boolean(),
  isDraft: v.boolean(),
  updatedAt: v.optional(timestampSchema),
});
export type Agent = v.InferOutput<typeof agentSchema>;

export const publishedListRequestSchema = v.object({
  ...pageRequestEntries,
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  category: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(50))),
});
export type PublishedListRequest = v.InferInput<typeof publishedListRequestSchema>;

export const agentPageSchema = pageSchema(agentSchema);

export const agentDetailQuerySchema = v.object({ agentId: idSchema });
export type AgentDetailQuery = v.InferInput<typeof agentDetailQuerySchema>;
