import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';

type TreeRow = { id: string; seq: number; parentId: string | null };

/**
 * A conversation's messages as a tree: each message's parent is the one before it on its path,
 * and messages with one parent are versions of each other, oldest first. Built from one read of
 * the conversation's messages (by its index), so a path and every version count cost one query.
 */
export class MessageTree<Row extends TreeRow> {
  private readonly byId = new Map<string, Row>();
  private readonly children = new Map<string | null, Row[]>();

  constructor(rows: readonly Row[]) {
    const inOrder = [...rows].sort((a, b) => a.seq - b.seq);
    for (const row of inOrder) this.add(row);
  }

  /** A message stored after the tree was read (newer than every message in it). */
  add(row: Row): void {
    this.byId.set(row.id, row);
    const siblings = this.children.get(row.parentId) ?? [];
    siblings.push(row);
    this.children.set(row.parentId, siblings);
  }

  get(id: string): Row | undefined {
    return this.byId.get(id);
  }

  /** The ids of a message and its versions (one parent), oldest first. */
  siblingIds(row: Row): string[] {
    return (this.children.get(row.parentId) ?? [row]).map((sibling) => sibling.id);
  }

  childrenOf(id: string): Row[] {
    return this.children.get(id) ?? [];
  }

  /** The end of the chosen path: the stored choice when it is still here, else the newest message. */
  leaf(chosenLeafId: string | null): Row | undefined {
    const chosen = chosenLeafId === null ? undefined : this.byId.get(chosenLeafId);
    if (chosen) return chosen;
    let newest: Row | undefined;
    for (const row of this.byId.values()) if (!newest || row.seq > newest.seq) newest = row;
    return newest;
  }

  /** From the first message to this one, through its parents. */
  pathTo(id: string | undefined): Row[] {
    const path: Row[] = [];
    const visited = new Set<string>();
    for (let row = id === undefined ? undefined : this.byId.get(id); row && !visited.has(row.id); ) {
      visited.add(row.id);
      path.push(row);
      row = row.parentId === null ? undefined : this.byId.get(row.parentId);
    }
    return path.reverse();
  }

  /** Where a path through this message ends: its newest version below, all the way down. */
  newestLeafUnder(id: string): Row | undefined {
    let row = this.byId.get(id);
    const visited = new Set<string>();
    while (row && !visited.has(row.id)) {
      visited.add(row.id);
      const next = this.childrenOf(row.id).at(-1);
      if (!next) return row;
      row = next;
    }
    return row;
  }
}

/** Every message of a conversation, read once. */
export async function readTree(db: Db, conversationId: string): Promise<MessageTree<typeof messages.$inferSelect>> {
  const rows = await db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(messages.seq);
  return new MessageTree(rows);
}
