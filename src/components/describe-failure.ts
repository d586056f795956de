import type { TFunction } from 'i18next';
import { failureReference } from '../contract/agent-failure';
import { MESSAGE_TEXT_MAX } from '../contract/constants';
import { formatRetryAfter } from '../i18n/format';
import { refusalKey } from '../i18n/refusal';
import type { ChatFailure } from '../machines/chat.machine';

/**
 * A failed answer in the reader's language, with the reference the server logged the details
 * under (the server's own sentence is English). Text without a reference, stored by an older
 * server, is shown as it is.
 */
export const describeAgentFailure = (t: TFunction, text: string | null | undefined): string => {
  const ref = failureReference(text);
  if (ref) return t('chat.agentFailed', { ref });
  return text || t('chat.defaultError');
};

/** The server's words for a question's text past the contract's limit (server/http/route.ts). */
const TEXT_TOO_LONG = /^Invalid request: text: Invalid length/;

/**
 * Why the server refused, in the reader's language: chosen by the status (a question too long
 * by its own words), never the server's English, which stays for the logs. Nothing when no
 * server answered. A creation refused for a quota was already put in the reader's words.
 */
const reasonOf = (t: TFunction, failure: ChatFailure): string => {
  if (failure.status === undefined) return '';
  if (failure.kind === 'create' && failure.status === 429) return failure.message;
  if (failure.status === 400 && TEXT_TOO_LONG.test(failure.message)) return t('chat.refusedTooLong', { max: MESSAGE_TEXT_MAX });
  return t(refusalKey({ status: failure.status }));
};

const withReason = (sentence: string, reason: string) => (reason ? `${sentence} (${reason})` : sentence);

/** What a person reads when a send or an answer fails, all in their language. */
export const describeFailure = (t: TFunction, failure: ChatFailure, locale: string): string => {
  if (failure.newAnswer && failure.kind !== 'rate-limited') return withReason(t('chat.regenerateFailed'), reasonOf(t, failure));
  switch (failure.kind) {
    case 'rate-limited':
      // The server's words name the quota in English; the reader is told in their language when to come back.
      return failure.retryAfterSeconds === undefined
        ? t('chat.rateLimitedLater')
        : t('chat.rateLimited', { when: formatRetryAfter(failure.retryAfterSeconds, locale) });
    case 'network':
      return t('chat.networkError');
    case 'create':
      return withReason(t('chat.createFailed'), reasonOf(t, failure));
    case 'load':
      return t('chat.loadFailed');
    case 'version':
      return t('chat.versionFailed');
    case 'agent-error':
      return describeAgentFailure(t, failure.message);
    default:
      // A refusal, or a stream that broke before the question was stored: the question is back in the box.
      return withReason(t('chat.notSent'), reasonOf(t, failure));
  }
};
