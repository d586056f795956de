import type { PGlite } from '@electric-sql/pglite';

/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none: PGlite runs
 * PostgreSQL in one process without its background workers, so no table is ever analyzed or
 * vacuumed unless someone asks. Without statistics the planner guesses (it took "the visitors'
 * conversations" for a rare few and scanned them all to find one visitor's); without vacuum the
 * old versions of every answer's periodic save stay in the files.
 *
 * The same thresholds as autovacuum's defaults: a table is analyzed once 50 rows plus a tenth of
 * it changed since its last analysis (or it has rows and was never analyzed), and vacuumed once 50
 * rows plus a fifth of it are dead. The figures come from PostgreSQL's own activity counters.
 */
export const ANALYZE_THRESHOLD = 50;
export const ANALYZE_SCALE = 0.1;
export const VACUUM_THRESHOLD = 50;
export const VACUUM_SCALE = 0.2;

export type TableActivity = {
  table: string;
  /** The planner's row count; -1 before the table was first analyzed or vacuumed. */
  reltuples: number;
  liveRows: number;
  deadRows: number;
  changedSinceAnalyze: number;
};

export type Upkeep = { analyzed: string[]; vacuumed: string[] };

/** Which tables need analyzing and which vacuuming, by autovacuum's rules. */
export function upkeepFor(tables: TableActivity[]): Upkeep {
  const analyzed: string[] = [];
  const vacuumed: string[] = [];
  for (const t of tables) {
    const size = Math.max(t.reltuples, 0);
    if (t.deadRows > VACUUM_THRESHOLD + VACUUM_SCALE * size) vacuumed.push(t.table);
    const neverAnalyzed = t.reltuples < 0 && t.liveRows > 0;
    if (neverAnalyzed || t.changedSinceAnalyze > ANALYZE_THRESHOLD + ANALYZE_SCALE * size) analyzed.push(t.table);
  }
  return { analyzed, vacuumed };
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Analyzes and vacuums the application's tables that need it, one statement per table (VACUUM
 * cannot run in a transaction), and says which. Each statement holds the embedded database while
 * it runs, like any other: it is proportional to the rows sampled (at most 30,000 per table) and
 * the pages with dead rows, not to the whole database.
 */
export async function keepUp(client: PGlite): Promise<Upkeep> {
  // The activity counters reach the statistics at most once a second unless told otherwise: the
  // statement that ends now hands over what this session counted, for the read that follows.
  await client.query('select pg_stat_force_next_flush()');
  const { rows } = await client.query<{ table: string; reltuples: number; live: number; dead: number; changed: number }>(
    `select s.relname as table, c.reltuples::float8 as reltuples, s.n_live_tup::float8 as live,
            s.n_dead_tup::float8 as dead, s.n_mod_since_analyze::float8 as changed
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where s.schemaname = 'public'
      order by s.relname`,
  );
  const due = upkeepFor(
    rows.map((row) => ({ table: row.table, reltuples: row.reltuples, liveRows: row.live, deadRows: row.dead, changedSinceAnalyze: row.changed })),
  );
  for (const table of new Set([...due.vacuumed, ...due.analyzed])) {
    const vacuum = due.vacuumed.includes(table);
    const analyze = due.analyzed.includes(table);
    const command = vacuum && analyze ? 'vacuum (analyze)' : vacuum ? 'vacuum' : 'analyze';
    await client.exec(`${command} public.${quoted(table)}`);
  }
  return due;
}
