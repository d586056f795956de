/**
 * Connections one instance keeps to PostgreSQL (DATABASE_POOL_MAX). Each question holds one for
 * its short transaction; with too few, hundreds asking at once queue for a connection rather than
 * for the database. Several instances share the server's max_connections (100 by default).
 */
export const DEFAULT_POOL_MAX = 20;
