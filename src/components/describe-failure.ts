import type { TFunction } from 'i18next';
import { failureReference } from '../contract/agent-failure';
import { formatRetryAfter } from '../i18n/format';
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

/** What a person reads when a send or an answer fails: the server's words when it gave any. */
export const describeFailure = (t: TFunction, failure: ChatFailure, locale: string): string => {
  if (failure.newAnswer && failure.kind !== 'rate-limited') {
    return failure.message && failure.kind !== 'network' ? `${t('chat.regenerateFailed')} (${failure.message})` : t('chat.regenerateFailed');
  }
  switch (failure.kind) {
    case 'rate-limited':
      // The server's words name the quota in English; the reader is told in their language when to come back.
      return failure.retryAfterSeconds === undefined
        ? t('chat.rateLimitedLater')
        : t('chat.rateLimited', { when: formatRetryAfter(failure.retryAfterSeconds, locale) });
    case 'network':
      return t('chat.networkError');
    case 'create':
      return failure.message ? `${t('chat.createFailed')} (${failure.message})` : t('chat.createFailed');
    case 'load':
      return t('chat.loadFailed');
    case 'version':
      return t('chat.versionFailed');
    case 'agent-error':
      return describeAgentFailure(t, failure.message);
    default:
      // A refusal, or a stream that broke before the question was stored: the question is back
      // in the box. The server's own words (English) follow when it gave any.
      return failure.message ? `${t('chat.notSent')} (${failure.message})` : t('chat.notSent');
  }
};
