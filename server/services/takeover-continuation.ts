import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { RuntimeAgent } from '../agents/runtime';
import { agents, applications, conversations, messages } from '../db/schema';
import type { Services } from '../deps';
import { leaseUntil } from './answer-leases';
import { startGeneration } from './answer-generation';
import { agentOfApplication } from './answering-agent';
import { historyOf } from './chat';
import type { LiveAnswers, LocalAnswer } from './live-answers';
import { MessageTree } from './message-tree';
import type { MessageRow } from './conversations';

/**
 * Writes on, on this instance, an answer it has just taken over from an instance that was gone
 * (killed, paused past its lease, cut off): the same as a person pressing Continue, without
 * them. Readers who follow the answer see it grow again; a reader who comes back finds it being
 * written.
 *
 * Claimed in one conditional write, so of several instances taking over at once only one writes
 * it on, and at most `continueTakenOverMax` times per answer: an answer whose writing brings its
 * instance down is not continued, and the next instance brought down, for ever. Not for an answer
 * stopped by a person, nor one with no text (that one is retried, by a person).
 *
 * Answers the answer being written, or undefined when it is not continued.
 */
export async function continueTakenOver(services: Services, answers: LiveAnswers, messageId: string): Promise<LocalAnswer | undefined> {
  const { db, config } = services;
  if (config.continueTakenOverMax <= 0) return undefined;
  const [claimed] = await db
    .update(messages)
    .set({
      status: 'streaming',
      error: null,
      leaseOwner: services.instanceId,
      leaseExpiresAt: leaseUntil(config.leaseMs),
      takeoverContinuations: sql`${messages.takeoverContinuations} + 1`,
    })
    .where(
      and(
        eq(messages.id, messageId),
        eq(messages.role, 'assistant'),
        eq(messages.status, 'incomplete'),
        ne(messages.content, ''),
        lt(messages.takeoverContinuations, config.continueTakenOverMax),
      ),
    )
    .returning();
  if (!claimed) return undefined;
  try {
    const [conversation] = await db.select().from(conversations).where(eq(conversations.id, claimed.conversationId));
    const agent = conversation ? await answeringAgent(services, conversation.source, conversation.sourceId) : null;
    const questionId = claimed.parentId ?? claimed.replyTo;
    const rows = (await db.select().from(messages).where(eq(messages.conversationId, claimed.conversationId))) as MessageRow[];
    const question = rows.find((row) => row.id === questionId);
    if (!conversation || !agent || !question) {
      await giveBack(services, messageId);
      return undefined;
    }
    const owner = conversation.ownerUserId ? `user:${conversation.ownerUserId}` : `visitor:${conversation.ownerVisitorId}`;
    services.log(`answers: continuing answer ${messageId}, taken over from an instance that was gone, from ${claimed.content.length} characters`);
    return startGeneration(services, answers, {
      conversationId: conversation.id,
      agent,
      userMessageId: question.id,
      replyMessageId: claimed.id,
      userMessageCreatedAt: question.createdAt,
      replyMessageCreatedAt: claimed.createdAt,
      history: historyOf(new MessageTree(rows).pathTo(question.id), config.historyCharBudget),
      continuing: claimed.content,
    }, owner);
  } catch (error) {
    services.log(`answers: continuing answer ${messageId} failed: ${(error as Error).message}`, { level: 'warn' });
    await giveBack(services, messageId).catch(() => {});
    return undefined;
  }
}

/** The agent of a conversation, as when it was asked: its agent, or the application that runs it; null when gone. */
async function answeringAgent(services: Services, source: string, sourceId: string): Promise<RuntimeAgent | null> {
  if (source === 'workflow') {
    const [application] = await services.db.select().from(applications).where(eq(applications.id, sourceId));
    return application?.published ? agentOfApplication(application) : null;
  }
  const [agent] = await services.db
    .select({ id: agents.id, name: agents.name, systemPrompt: agents.systemPrompt, vision: agents.vision, published: agents.published })
    .from(agents)
    .where(eq(agents.id, sourceId));
  return agent?.published ? { id: agent.id, name: agent.name, systemPrompt: agent.systemPrompt, vision: agent.vision } : null;
}

/** Not continued after all: the answer is incomplete again, as the takeover left it. */
const giveBack = (services: Services, messageId: string) =>
  services.db
    .update(messages)
    .set({ status: 'incomplete', leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(messages.id, messageId), eq(messages.leaseOwner, services.instanceId), eq(messages.status, 'streaming')));
