import { and, eq } from 'drizzle-orm';
import type { ModelChoice } from '../agents/runtime';
import { titleFromQuestion } from '../../src/contract/chat-title';
import { conversations } from '../db/schema';
import type { Services } from '../deps';
import { describeError } from '../http/log-line';
import { searchable } from './search-text';

/** How long naming a conversation may take; past it the question's first words stay. */
export const NAMING_TIMEOUT_MS = 30_000;

/**
 * What the model wrote, as a title: its first line, without quotes, markdown or a final stop, on
 * one line and no longer than a title from the question. Empty when nothing is left.
 */
export const cleanTitle = (raw: string | null): string => {
  const line = (raw ?? '')
    .split('\n')
    .map((one) => one.trim())
    .find((one) => one.length > 0);
  if (!line) return '';
  const bare = line
    .replace(/^(title|titre|titel|标题|タイトル)\s*[:：]\s*/i, '')
    .replace(/[*_`#>]+/g, '')
    .replace(/^["'“”‘’«»「」『』\s]+|["'“”‘’«»「」『』\s]+$/g, '')
    .replace(/[.。!！]+$/u, '')
    .trim();
  return bare ? titleFromQuestion(bare) : '';
};

/**
 * Names a conversation after its first exchange with the model's own short title, kept only while
 * its title is still the one taken from the question (a name the person gave is never replaced,
 * nor one given meanwhile). Runs after the answer is stored; a failure leaves the first words.
 */
export async function nameConversation(services: Services, conversationId: string, question: string, answer: string, model?: ModelChoice): Promise<void> {
  const { runtime } = services;
  if (!runtime.nameConversation) return;
  try {
    const title = cleanTitle(
      await runtime.nameConversation({ question, answer, signal: AbortSignal.timeout(NAMING_TIMEOUT_MS), ...(model ? { model } : {}) }),
    );
    if (!title) return;
    await services.db
      .update(conversations)
      .set({ title, titleSearch: searchable(title), titleBy: 'model' })
      .where(and(eq(conversations.id, conversationId), eq(conversations.titleBy, 'question')));
  } catch (error) {
    services.log(`chat: naming conversation ${conversationId} failed: ${describeError(error, services.config.logLevel)}`, { level: 'debug' });
  }
}
