import type { RuntimeAgent } from '../agents/runtime';
import type { Db } from '../db/client';
import type { Caller } from '../http/caller';
import { findVisibleApplication } from './applications';

/**
 * The agent that answers a workflow conversation whose request names its application (the
 * contract's `agentId` field is kept, not renamed): the reference server runs the application as
 * one step whose instructions are its description. Naming an agent instead lets that agent answer.
 */
export async function applicationAgent(db: Db, caller: Caller, applicationId: string): Promise<RuntimeAgent> {
  return agentOfApplication(await findVisibleApplication(db, caller, applicationId));
}

/** An application as the agent that runs it. */
export const agentOfApplication = (application: { id: string; name: string; intro: string }): RuntimeAgent => ({
  id: application.id,
  name: application.name,
  systemPrompt: `You are ${application.name}, an application that does this: ${application.intro} Carry out the request in the language of the question, step by step, and give the finished result.`,
});
