import type { Db } from '../db/client';
import { agents, applications, companies } from '../db/schema';
import { AGENTS, APPLICATIONS, COMPANIES } from './catalog';

const SEED_START = Date.UTC(2025, 0, 6, 9, 0, 0);
const DAY = 24 * 3600 * 1000;

/** Companies, the agents market and the applications; running it again changes nothing. */
export async function seedCatalog(db: Db): Promise<void> {
  await db.insert(companies).values(COMPANIES).onConflictDoNothing();
  await db
    .insert(agents)
    .values(
      AGENTS.map(({ creator, ...agent }, i) => ({
        ...agent,
        createBy: creator.id,
        createByName: creator.name,
        updateBy: creator.id,
        updateByName: creator.name,
        versionId: `${agent.id}-v1`,
        createdAt: new Date(SEED_START + i * DAY),
        updatedAt: new Date(SEED_START + i * DAY),
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(applications)
    .values(
      APPLICATIONS.map((app, i) => ({
        ...app,
        createdAt: new Date(SEED_START + i * DAY),
        updatedAt: new Date(SEED_START + i * DAY),
      })),
    )
    .onConflictDoNothing();
}
