import * as v from 'valibot';
import { agentTranslationsSchema } from './agents';
import { idSchema } from './common';
import { pageRequestEntries, pageSchema } from './paging';

export const applicationSchema = v.object({
  id: idSchema,
  applicationId: idSchema,
  name: v.string(),
  avatar: v.string(),
  intro: v.string(),
  companyId: v.string(),
  public: v.boolean(),
  published: v.boolean(),
  isDraft: v.boolean(),
  /** The name and intro in other languages, when the application has them; `name` and `intro` stay its own. */
  translations: v.optional(agentTranslationsSchema),
});
export type Application = v.InferOutput<typeof applicationSchema>;

export const applicationListRequestSchema = v.object({
  ...pageRequestEntries,
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
});
export type ApplicationListRequest = v.InferInput<typeof applicationListRequestSchema>;

export const applicationPageSchema = pageSchema(applicationSchema);
