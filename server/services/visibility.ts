import { and, eq, or, type SQL, type SQLWrapper } from 'drizzle-orm';
import { slot } from '../db/prebuilt';
import { agents, applications } from '../db/schema';
import type { Caller } from '../http/caller';

/** The caller's company, whose own agents and applications it sees beside the public ones; null for none. */
export const companyOf = (caller: Caller): string | null => (caller.kind === 'user' ? caller.user.companyId : null);
/** The signed-in caller's account id, whose private agents it sees; null for a visitor or nobody. */
export const accountOf = (caller: Caller): string | null => (caller.kind === 'user' ? caller.user.id : null);

/**
 * Whom a prebuilt statement's visibility is built for: the public alone (a visitor, nobody), a
 * signed-in account (also its own private agents), or an account of a company (also that
 * company's), whose ids each run puts in the `userId` and `companyId` slots. A caller's audience
 * is part of the statement's shape.
 */
export type Audience = 'company' | 'account' | 'public';
export const audienceOf = (caller: Caller): Audience => (companyOf(caller) ? 'company' : accountOf(caller) ? 'account' : 'public');
/** What a prebuilt statement of this audience passes as the viewer's company, or null. */
export const audienceCompany = (audience: Audience) => (audience === 'company' ? slot('companyId') : null);
/** What a prebuilt statement of this audience passes as the viewer's account, or null. */
export const audienceAccount = (audience: Audience) => (audience === 'public' ? null : slot('userId'));
/** The viewer of a prebuilt statement of this audience, in its slots. */
export const audienceViewer = (audience: Audience): Viewer => ({ companyId: audienceCompany(audience), userId: audienceAccount(audience) });

/** Who looks at the market: an organisation and an account (values, or a prebuilt statement's slots), each or both null. */
export type Viewer = { companyId: string | SQLWrapper | null; userId: string | SQLWrapper | null };
export const viewerOf = (caller: Caller): Viewer => ({ companyId: companyOf(caller), userId: accountOf(caller) });

/**
 * A live agent (a version published, not retired) that the viewer may see: a public one, one of
 * the viewer's organisation shared with it, or one of the viewer's own, whatever its visibility.
 * Drafts live beside the agents (`agent_drafts`) and never show.
 */
export function agentVisibleTo(viewer: Viewer): SQL {
  const audience = or(
    eq(agents.visibility, 'public'),
    viewer.companyId ? and(eq(agents.visibility, 'organisation'), eq(agents.companyId, viewer.companyId)) : undefined,
    viewer.userId ? eq(agents.createBy, viewer.userId) : undefined,
  );
  return and(eq(agents.published, true), audience)!;
}

/** `agentVisibleTo` the caller. */
export const visibleAgent = (caller: Caller): SQL => agentVisibleTo(viewerOf(caller));

/** Published, non-draft, and either public or of this company (a value, or a prebuilt statement's slot); null: public only. */
export function applicationVisibleTo(companyId: string | SQLWrapper | null): SQL {
  const audience = companyId
    ? or(eq(applications.public, true), eq(applications.companyId, companyId))
    : eq(applications.public, true);
  return and(eq(applications.published, true), eq(applications.isDraft, false), audience)!;
}

export const visibleApplication = (caller: Caller): SQL => applicationVisibleTo(companyOf(caller));

/** A LIKE pattern matching the text literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
