import { defineConfig } from 'drizzle-kit';

/** Regenerate migrations after a schema change: `npx drizzle-kit generate --config server/drizzle.config.ts`. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
