import { and, eq, or, type SQL } from 'drizzle-orm';
import { agents, applications } from '../db/schema';
import type { Caller } from '../http/caller';

const companyOf = (caller: Caller) => (caller.kind === 'user' ? caller.user.companyId : null);

/** Published, non-draft, and either public or of the caller's company. Drafts never show. */
export function visibleAgent(caller: Caller): SQL {
  const companyId = companyOf(caller);
  const audience = companyId ? or(eq(agents.public, true), eq(agents.companyId, companyId)) : eq(agents.public, true);
  return and(eq(agents.published, true), eq(agents.isDraft, false), audience)!;
}

export function visibleApplication(caller: Caller): SQL {
  const companyId = companyOf(caller);
  const audience = companyId
    ? or(eq(applications.public, true), eq(applications.companyId, companyId))
    : eq(applications.public, true);
  return and(eq(applications.published, true), eq(applications.isDraft, false), audience)!;
}

/** A LIKE pattern matching the text literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
