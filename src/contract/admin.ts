import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { pageRequestEntries, pageSchema } from './paging';
import { ROLES } from './users';

const nameSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80));

/** An account as the console lists it. */
export const adminUserSchema = v.object({
  id: idSchema,
  username: v.string(),
  nickname: v.string(),
  role: v.picklist(ROLES),
  companyId: v.nullable(v.string()),
  companyName: v.nullable(v.string()),
  disabled: v.boolean(),
  createdAt: timestampSchema,
  /** The last time any of its sessions was used; null if it never signed in. */
  lastSeenAt: v.nullable(timestampSchema),
});
export type AdminUser = v.InferOutput<typeof adminUserSchema>;

/** The longest search of the accounts list, and of the audit log's action filter, the server takes. */
export const ADMIN_SEARCH_MAX = 100;
export const AUDIT_ACTION_MAX = 60;

export const adminUserListRequestSchema = v.object({
  ...pageRequestEntries,
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(ADMIN_SEARCH_MAX))),
  companyId: v.optional(idSchema),
});
export const adminUserPageSchema = pageSchema(adminUserSchema);

/** Any of role, organisation (`null`: none) and disabled, for one account. */
export const adminUserUpdateRequestSchema = v.object({
  id: idSchema,
  role: v.optional(v.picklist(ROLES)),
  companyId: v.optional(v.nullable(idSchema)),
  disabled: v.optional(v.boolean()),
});
export const adminUserIdRequestSchema = v.object({ id: idSchema });

/** A one-time link for the account to choose a new password; shown once, to the admin who asked. */
export const resetLinkSchema = v.object({ path: v.string(), expiresAt: timestampSchema });

export const organisationSchema = v.object({
  id: idSchema,
  name: v.string(),
  members: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
export type Organisation = v.InferOutput<typeof organisationSchema>;
export const organisationListSchema = v.array(organisationSchema);
export const organisationCreateRequestSchema = v.object({ name: nameSchema });

export const invitationSchema = v.object({
  id: idSchema,
  companyId: idSchema,
  companyName: v.string(),
  role: v.picklist(ROLES),
  /** Whom the admin meant it for, as a note (anyone holding the link may use it). */
  note: v.nullable(v.string()),
  createdByName: v.string(),
  createdAt: timestampSchema,
  expiresAt: timestampSchema,
  acceptedAt: v.nullable(timestampSchema),
  revokedAt: v.nullable(timestampSchema),
});
export type Invitation = v.InferOutput<typeof invitationSchema>;
export const invitationListSchema = v.array(invitationSchema);
export const invitationCreateRequestSchema = v.object({
  companyId: idSchema,
  role: v.picklist(ROLES),
  note: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(120))),
});
/** The new invitation and its link, shown once: only a hash of its token is kept. */
export const createdInvitationSchema = v.object({ invitation: invitationSchema, path: v.string() });
export const invitationIdRequestSchema = v.object({ id: idSchema });

export const CONNECTOR_PLATFORMS = ['linkedin'] as const;
/** A publishing credential of an organisation, as the console shows it: never the secret itself. */
export const connectorSchema = v.object({
  companyId: idSchema,
  platform: v.picklist(CONNECTOR_PLATFORMS),
  configured: v.boolean(),
  /** Where it comes from: set in the console, or the default organisation's environment variables. */
  source: v.picklist(['console', 'environment', 'none']),
  authorUrn: v.nullable(v.string()),
  updatedAt: v.nullable(timestampSchema),
  updatedByName: v.nullable(v.string()),
});
export type Connector = v.InferOutput<typeof connectorSchema>;
export const connectorListSchema = v.array(connectorSchema);
export const connectorQuerySchema = v.object({ companyId: idSchema });
export const connectorSetRequestSchema = v.object({
  companyId: idSchema,
  platform: v.picklist(CONNECTOR_PLATFORMS),
  accessToken: v.pipe(v.string(), v.trim(), v.minLength(10), v.maxLength(4000)),
  authorUrn: v.pipe(v.string(), v.trim(), v.regex(/^urn:li:(person|organization):[A-Za-z0-9_-]{1,100}$/, 'authorUrn must be urn:li:person:… or urn:li:organization:…')),
});
export const connectorClearRequestSchema = v.object({ companyId: idSchema, platform: v.picklist(CONNECTOR_PLATFORMS) });

export const USAGE_DAYS_MAX = 90;
export const usageRequestSchema = v.object({
  days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(USAGE_DAYS_MAX)), 30),
});
const usageFigures = { questions: v.number(), tokens: v.number() };
export const usageSchema = v.object({
  /** One entry per day of the window, oldest first, days without use included (as zeros). */
  days: v.array(v.object({ day: v.string(), ...usageFigures })),
  users: v.array(v.object({ userId: v.string(), name: v.string(), ...usageFigures })),
  agents: v.array(v.object({ agentId: v.string(), name: v.string(), ...usageFigures })),
});
export type Usage = v.InferOutput<typeof usageSchema>;

export const auditEntrySchema = v.object({
  id: idSchema,
  at: timestampSchema,
  /** Null for the scheduler and for `npm run admin`. */
  actorId: v.nullable(v.string()),
  actorName: v.string(),
  /** The public id of the session the action came from. */
  sessionId: v.nullable(v.string()),
  action: v.string(),
  target: v.nullable(v.string()),
  details: v.record(v.string(), v.string()),
});
export type AuditEntry = v.InferOutput<typeof auditEntrySchema>;
export const auditListRequestSchema = v.object({
  ...pageRequestEntries,
  action: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(AUDIT_ACTION_MAX))),
});
export const auditPageSchema = pageSchema(auditEntrySchema);
