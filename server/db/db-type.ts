import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema';

/** The one database type every service takes, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
