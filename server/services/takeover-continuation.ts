import { and, eq, lt, ne, sql } from 'drizzle-orm';
import type { RuntimeAgent } from '../agents/runtime';
import { agentDrafts, agents, applications, conversations, messages } from '../db/schema';
import { answeringModel, choiceOf, usableModel } from '../models/registry';
import { contentOfRow } from './agent-content';
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
    const agent = conversation ? await answeringAgent(services, conversation, claimed.modelId) : null;
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
      model: { id: agent.model!.id, name: agent.model!.name },
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

/**
 * The agent of a conversation, as when it was asked: its agent's live version (a preview's: its
 * draft), or the application that runs it, with the model that began the answer while it is
 * still enabled (else the one the agent answers with now); null when gone.
 */
async function answeringAgent(
  services: Services,
  conversation: { source: string; sourceId: string; purpose: string },
  modelId: string | null,
): Promise<RuntimeAgent | null> {
  const registry = await services.models.current();
  const withModel = (agent: { id: string; name: string; systemPrompt: string }, own: { modelId: string | null; allowModelChoice: boolean }, parameters: RuntimeAgent['parameters']) => {
    const model = (modelId ? usableModel(registry, modelId) : undefined) ?? answeringModel(registry, own);
    return { ...agent, vision: model.vision, model: choiceOf(model), parameters: parameters ?? {} };
  };
  if (conversation.source === 'workflow') {
    const [application] = await services.db.select().from(applications).where(eq(applications.id, conversation.sourceId));
    return application?.published ? withModel(agentOfApplication(application), { modelId: null, allowModelChoice: false }, {}) : null;
  }
  const [row] = await services.db.select().from(agents).where(eq(agents.id, conversation.sourceId));
  if (!row) return null;
  if (conversation.purpose === 'preview') {
    const [draft] = await services.db.select({ content: agentDrafts.content }).from(agentDrafts).where(eq(agentDrafts.agentId, row.id));
    const content = draft?.content ?? contentOfRow(row);
    return row.retiredAt ? null : withModel({ id: row.id, name: content.name, systemPrompt: content.systemPrompt }, content, content.parameters);
  }
  return row.published ? withModel({ id: row.id, name: row.name, systemPrompt: row.systemPrompt }, row, row.parameters) : null;
}

/** Not continued after all: the answer is incomplete again, as the takeover left it. */
const giveBack = (services: Services, messageId: string) =>
  services.db
    .update(messages)
    .set({ status: 'incomplete', leaseOwner: null, leaseExpiresAt: null })
    .where(and(eq(messages.id, messageId), eq(messages.leaseOwner, services.instanceId), eq(messages.status, 'streaming')));
