import type { TFunction } from 'i18next';
import { formatRetryAfter } from '../i18n/format';
import type { ChatFailure } from '../machines/chat.machine';

/** What a person reads when a send or an answer fails: the server's words when it gave any. */
export const describeFailure = (t: TFunction, failure: ChatFailure, locale: string): string => {
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
    case 'agent-error':
      return failure.message || t('chat.defaultError');
    default:
      // A refusal, or a stream that broke before the question was stored: the question is back
      // in the box. The server's own words (English) follow when it gave any.
      return failure.message ? `${t('chat.notSent')} (${failure.message})` : t('chat.notSent');
  }
};
