import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { agents, applications, tasks, users } from '../db/schema';
import type { FileReader } from '../http/file-reader';
import { fileUrl, type UploadRow } from './uploads';

const containsFile = (fileId: string) => sql`${tasks.images} @> ${JSON.stringify([{ fileId }])}::jsonb`;

/**
 * Whether the reader may see an upload: its owner always; anyone, a picture shown as the avatar
 * of an account, an agent or an application (shown beside their names to others); the members
 * of an organisation, an image of one of its tasks. A share shows files by name only, so it
 * gives no one else a way in.
 */
export async function mayRead(db: Db, file: UploadRow, reader: FileReader): Promise<boolean> {
  if (reader.userId !== null && file.ownerUserId === reader.userId) return true;
  if (reader.visitorId !== null && file.ownerUserId === null && file.ownerVisitorId === reader.visitorId) return true;
  const url = fileUrl(file.id);
  const shown = await Promise.all([
    db.select({ id: users.id }).from(users).where(eq(users.avatar, url)).limit(1),
    db.select({ id: agents.id }).from(agents).where(eq(agents.avatar, url)).limit(1),
    db.select({ id: applications.id }).from(applications).where(eq(applications.avatar, url)).limit(1),
    reader.companyId === null
      ? []
      : db
          .select({ id: tasks.id })
          .from(tasks)
          .where(and(eq(tasks.companyId, reader.companyId), containsFile(file.id)))
          .limit(1),
  ]);
  return shown.some((rows) => rows.length > 0);
}
