import { and, eq, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import { slot } from '../db/prebuilt';
import { agents, applications } from '../db/schema';
import type { Caller } from '../http/caller';

/** The caller's company, whose own agents and applications it sees beside the public ones; null for none. */
export const companyOf = (caller: Caller): string | null => (caller.kind === 'user' ? caller.user.companyId : null);

/**
 * Whom a prebuilt statement's visibility is built for: the public alone, or also a company, whose
 * id each run puts in the `companyId` slot. A caller's audience is part of the statement's shape.
 */
export type Audience = 'company' | 'public';
export const audienceOf = (companyId: string | null): Audience => (companyId ? 'company' : 'public');
/** What a prebuilt statement of this audience passes to `agentVisibleTo` or `applicationVisibleTo`. */
export const audienceCompany = (audience: Audience) => (audience === 'company' ? slot('companyId') : null);

/**
 * Published, non-draft, and either public or of this company (a value, or a prebuilt
 * statement's slot); null: public only. Drafts never show.
 */
export function agentVisibleTo(companyId: string | SQLWrapper | null): SQL {
  const audience = companyId ? or(eq(agents.public, true), eq(agents.companyId, companyId)) : eq(agents.public, true);
  return and(eq(agents.published, true), eq(agents.isDraft, false), audience)!;
}

/** Published, non-draft, and either public or of the caller's company. Drafts never show. */
export const visibleAgent = (caller: Caller): SQL => agentVisibleTo(companyOf(caller));

/** `agentVisibleTo` for applications. */
export function applicationVisibleTo(companyId: string | SQLWrapper | null): SQL {
  const audience = companyId
    ? or(eq(applications.public, true), eq(applications.companyId, companyId))
    : eq(applications.public, true);
  return and(eq(applications.published, true), eq(applications.isDraft, false), audience)!;
}

export const visibleApplication = (caller: Caller): SQL => applicationVisibleTo(companyOf(caller));

/** A LIKE pattern matching the text literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
