import type { RuntimeAgent } from '../agents/runtime';
import type { Db } from '../db/client';
import type { Caller } from '../http/caller';
import { badRequest } from '../http/errors';
import { findVisibleAgent } from './agents';
import { findVisibleApplication } from './applications';
import type { ConversationRow } from './conversations';

/**
 * Who answers a conversation. An agent conversation is answered by the agent the request names,
 * which must be the conversation's own. A workflow conversation is answered by its application:
 * when the request's `agentId` names that application (the contract's field is kept, not renamed),
 * the reference server runs it as one step whose instructions are the application's description;
 * naming an agent instead lets that agent answer, as before applications could answer.
 */
export async function answeringAgent(db: Db, caller: Caller, conversation: ConversationRow, agentId: string): Promise<RuntimeAgent> {
  if (conversation.source === 'workflow' && conversation.sourceId === agentId) {
    const application = await findVisibleApplication(db, caller, agentId);
    return {
      id: application.id,
      name: application.name,
      systemPrompt: `You are ${application.name}, an application that does this: ${application.intro} Carry out the request in the language of the question, step by step, and give the finished result.`,
    };
  }
  if (conversation.source === 'agent' && conversation.sourceId !== agentId) {
    throw badRequest('This conversation is with another agent; start a new conversation to talk to this one.');
  }
  const row = await findVisibleAgent(db, caller, agentId);
  return { id: row.id, name: row.name, systemPrompt: row.systemPrompt };
}
