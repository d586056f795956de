import { fromPromise } from 'xstate';
import type { Message } from '../contract/messages';
import type { DraftBook } from '../machines/draft-book';
import { CHAT_DRAFTS_KEY, readPreference, writePreference } from '../services/storage';

/**
 * The chat's versions and drafts, apart from `chat-actors.ts` (the history list's, loaded with
 * the chat screen): the drafts are read on every page (the home page keeps one), and the first
 * page carries neither the HTTP client nor the history list.
 */

/** Shows another version of a message; the server answers the conversation's new path. */
export const selectVersionActor = fromPromise<Message[], { conversationId: string; messageId: string }>(async ({ input }) => {
  const { selectMessage } = await import('../services/api/conversations');
  return selectMessage(input.conversationId, input.messageId, { silent: true });
});

/**
 * Whether the visitor typed a draft in this tab (sessionStorage: one tab, kept across the redirects
 * of a login): what a visitor typed goes with them into the account they log in to, and only then.
 */
const VISITOR_TYPED_KEY = 'kraken.visitorTyped';
export const visitorTyped = {
  mark: (): void => {
    try {
      sessionStorage.setItem(VISITOR_TYPED_KEY, '1');
    } catch {
      // storage refused (private mode): the drafts stay the visitor's
    }
  },
  /** Whether it was marked, unmarking it. */
  take: (): boolean => {
    try {
      const marked = sessionStorage.getItem(VISITOR_TYPED_KEY) !== null;
      sessionStorage.removeItem(VISITOR_TYPED_KEY);
      return marked;
    } catch {
      return false;
    }
  },
};

/** The chat's unsent texts, kept per person like the other preferences (visitors share "visitor"). */
export const chatDrafts = {
  read: (userId: string): DraftBook => readPreference<DraftBook>(CHAT_DRAFTS_KEY, userId) ?? {},
  write: (userId: string, drafts: DraftBook): void => writePreference(CHAT_DRAFTS_KEY, userId, drafts),
};
