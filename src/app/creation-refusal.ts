import { i18n } from '../i18n';
import { formatRetryAfter } from '../i18n/format';
import { statusOf } from '../machines/error-status';

const retryAfterOf = (error: unknown): number | undefined =>
  typeof error === 'object' && error !== null && 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number'
    ? error.retryAfterSeconds
    : undefined;

/**
 * Starts a conversation; one refused because too many were started lately (429) fails with the
 * reason in the reader's language and when to come back, which the chat shows beside the kept message.
 */
export async function startingConversation<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (statusOf(error) !== 429) throw error;
    const seconds = retryAfterOf(error);
    const words =
      seconds === undefined ? i18n.t('chat.createRateLimitedLater') : i18n.t('chat.createRateLimited', { when: formatRetryAfter(seconds, i18n.language) });
    throw Object.assign(new Error(words, { cause: error }), { status: 429 });
  }
}
