import type { TokenUsage } from '../agents/runtime';
import { and, eq, isNull, lt, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { prebuilt, slot } from '../db/prebuilt';
import { messages } from '../db/schema';
import { metrics } from '../observability/metrics';
import { searchableContent } from './search-text';

/**
 * Leases say which instance writes a streaming answer: the row carries the writer's id and a time
 * past which it is taken for gone. Times are the database's (`now()`), the one clock every
 * instance shares.
 */
export const leaseUntil = (ms: number): SQL => leaseEnding(ms / 1000);
/** `leaseUntil` in seconds, or a prebuilt statement's slot for them. */
export const leaseEnding = (seconds: number | SQLWrapper): SQL => sql`now() + make_interval(secs => ${seconds})`;

/** A lease whose writer is gone: expired, or never set (a row from before leases). */
export const leaseLapsed = (expiresAt: AnyPgColumn): SQL => or(isNull(expiresAt), lt(expiresAt, sql`now()`))!;

const heldBy = (messageId: string | SQLWrapper, instanceId: string | SQLWrapper) =>
  and(eq(messages.id, messageId), eq(messages.status, 'streaming'), eq(messages.leaseOwner, instanceId));

/**
 * Stores the text of an answer this instance still writes, and renews its lease. False when the
 * answer is no longer this instance's: stored, or taken over after a lease that was not renewed;
 * then its text must not be shown to anyone (the instance was fenced off). Text only grows: a
 * save that lands after a longer one keeps the longer. The searchable form is written with the
 * answer's end (or when another instance takes it over), not at every save: it reads the whole
 * markdown.
 */
export async function saveAndRenew(db: Db, messageId: string, instanceId: string, leaseMs: number, content: string): Promise<boolean> {
  const rows = await saveStatement(db, 'save', { messageId, instanceId, content, leaseSeconds: leaseMs / 1000 });
  return rows.length > 0;
}

const saveStatement = prebuilt((db, _shape: 'save') =>
  db
    .update(messages)
    .set({
      content: sql`case when starts_with(${slot('content')}, ${messages.content}) then ${slot('content')} else ${messages.content} end`,
      leaseExpiresAt: leaseEnding(slot('leaseSeconds')),
    } as Record<string, unknown>)
    .where(heldBy(slot('messageId'), slot('instanceId')))
    .returning({ id: messages.id }),
);

/**
 * Renews, in one statement, the lease of every answer this instance is writing: run every
 * `leaseRenewMs` while the instance lives, however many answers it writes. Answers the ids of
 * those it still holds.
 */
export const renewAnswerLeases = (db: Db, instanceId: string, leaseMs: number) =>
  db
    .update(messages)
    .set({ leaseExpiresAt: leaseUntil(leaseMs) })
    .where(and(eq(messages.status, 'streaming'), eq(messages.leaseOwner, instanceId)))
    // The answers still this instance's: one it writes that is not among them was taken over.
    .returning({ id: messages.id });

/** Stores how an answer ended, unless another instance took it over meanwhile. */
export async function storeAnswer(
  db: Db,
  messageId: string,
  instanceId: string,
  outcome: { content: string; status: 'complete' | 'incomplete' | 'failed'; error?: string; usage?: TokenUsage | null },
): Promise<boolean> {
  const { usage } = outcome;
  const rows = await storeAnswerStatement(db, usage ? 'with usage' : 'without usage', {
    messageId,
    instanceId,
    content: outcome.content,
    contentSearch: searchableContent(outcome.content),
    status: outcome.status,
    error: outcome.error ?? null,
    promptTokens: usage?.promptTokens ?? null,
    completionTokens: usage?.completionTokens ?? null,
  });
  return rows.length > 0;
}

/** How an answer ended; its token counts as the model reported them, when it did. */
const storeAnswerStatement = prebuilt((db, shape: 'with usage' | 'without usage') =>
  db
    .update(messages)
    .set({
      content: slot('content'),
      contentSearch: slot('contentSearch'),
      status: slot('status'),
      error: slot('error'),
      ...(shape === 'with usage' ? { promptTokens: slot('promptTokens'), completionTokens: slot('completionTokens') } : {}),
      leaseOwner: null,
      leaseExpiresAt: null,
    } as Record<string, unknown>)
    .where(heldBy(slot('messageId'), slot('instanceId')))
    .returning({ id: messages.id }),
);

/**
 * Stores incomplete, with the text saved so far, the streaming answers whose writer is gone (their
 * lease lapsed); with `everyOther`, every streaming answer another instance held. Answers their ids.
 * An instance never takes over an answer it holds itself, however late its lease: it is alive
 * (the id is new with each start), and a lease it renews late only says it is busy.
 */
export async function takeOverAnswers(db: Db, instanceId: string, options: { everyOther?: boolean; messageId?: string } = {}): Promise<string[]> {
  const rows = await db
    .update(messages)
    .set({ status: 'incomplete', leaseOwner: null, leaseExpiresAt: null })
    .where(
      and(
        eq(messages.role, 'assistant'),
        eq(messages.status, 'streaming'),
        options.messageId ? eq(messages.id, options.messageId) : undefined,
        or(isNull(messages.leaseOwner), ne(messages.leaseOwner, instanceId)),
        options.everyOther ? undefined : leaseLapsed(messages.leaseExpiresAt),
      ),
    )
    .returning({ id: messages.id, content: messages.content });
  metrics.answersTakenOver(rows.length);
  // Their text was saved without its searchable form (that is written with an answer's end).
  for (const row of rows) {
    await db
      .update(messages)
      .set({ contentSearch: searchableContent(row.content) })
      .where(and(eq(messages.id, row.id), eq(messages.content, row.content)));
  }
  return rows.map((row) => row.id);
}
