import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { Application } from '../../src/contract/applications';
import type { Page } from '../../src/contract/paging';
import type { Db } from '../db/client';
import { applications } from '../db/schema';
import { APPLICATION_WORDS } from '../seed/catalog-words';
import type { Caller } from '../http/caller';
import { notFound } from '../http/errors';
import { containsPattern, visibleApplication } from './visibility';

const toApplication = (row: typeof applications.$inferSelect): Application => ({
  id: row.id,
  applicationId: row.id,
  name: row.name,
  avatar: row.avatar,
  intro: row.intro,
  companyId: row.companyId,
  public: row.public,
  published: row.published,
  isDraft: row.isDraft,
  ...applicationTranslations(row.id),
});

/** The seeded words of an application in the five languages, when it has them. */
export const applicationTranslations = (applicationId: string) =>
  APPLICATION_WORDS[applicationId] ? { translations: APPLICATION_WORDS[applicationId] } : {};

export async function listApplications(
  db: Db,
  caller: Caller,
  query: { current: number; pageSize: number; keyword?: string },
): Promise<Page<Application>> {
  const where = and(
    visibleApplication(caller),
    query.keyword
      ? or(ilike(applications.name, containsPattern(query.keyword)), ilike(applications.intro, containsPattern(query.keyword)))
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(applications)
      .where(where)
      .orderBy(desc(applications.createdAt), applications.id)
      .limit(query.pageSize)
      .offset((query.current - 1) * query.pageSize),
    db.select({ value: count() }).from(applications).where(where),
  ]);
  return { list: rows.map(toApplication), total: total?.value ?? 0, current: query.current, pageSize: query.pageSize };
}

/** The application when the caller may see it; 404 otherwise, whether it exists or not. */
export async function findVisibleApplication(db: Db, caller: Caller, applicationId: string): Promise<typeof applications.$inferSelect> {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.id, applicationId), visibleApplication(caller)))
    .limit(1);
  if (!row) throw notFound('Application');
  return row;
}
