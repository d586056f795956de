import { fromPromise, type SnapshotFrom } from 'xstate';
import { i18n } from '../i18n';
import { conversationsMachine, reportingActor, type ConversationsInput, type HistoryCache } from '../machines/conversations.machine';
import { deleteConversation, listConversations, updateConversation } from '../services/api/conversations';
import { forgetConversation } from '../services/offline-library';
import { getVisitorId } from '../services/visitor';
import { noteConversation } from './offline-keeping';
import type { Navigate, Runtime } from './runtime';

/** One undo toast per deleted chat, so it can be withdrawn when its window ends. */
const undoToastId = (conversationId: string) => `undo-delete:${conversationId}`;

/**
 * Chats deleted as the page was left (a reload, a closed tab) before their undo window ended:
 * their deletions go out as the page goes (`keepalive`), and are noted in this tab's session
 * storage, sent again and awaited before the history is next read, so a reload never shows a
 * deleted chat again, whichever request the server answers first.
 */
const LEFT_DELETES_KEY = 'kraken.leftDeletes';
const leftDeletes = {
  read: (): string[] => {
    try {
      const ids: unknown = JSON.parse(sessionStorage.getItem(LEFT_DELETES_KEY) ?? '[]');
      return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
    } catch {
      return [];
    }
  },
  write: (ids: string[]): void => {
    try {
      if (ids.length === 0) sessionStorage.removeItem(LEFT_DELETES_KEY);
      else sessionStorage.setItem(LEFT_DELETES_KEY, JSON.stringify(ids));
    } catch {
      // storage refused: the keepalive deletions alone
    }
  },
};
const finishLeftDeletes = async (): Promise<void> => {
  const ids = leftDeletes.read();
  if (ids.length === 0) return;
  // Already deleted answers 404, which is as good: silent either way.
  await Promise.allSettled(ids.map((id) => deleteConversation(id, { silent: true })));
  for (const id of ids) void forgetConversation(id).catch(() => undefined);
  leftDeletes.write([]);
};

/** The last history fetched, per person: shown at once on the next visit within 5 minutes. */
const historyCache = new Map<string, HistoryCache>();

/** Whose chats these are: the signed-in user (or a visitor) in this browser. */
export const historyOwner = (session: SnapshotFrom<Runtime['app']>): string => `${session.context.user?.id ?? 'visitor'}:${getVisitorId()}`;

export const historyInput = (app: Runtime['app']): ConversationsInput => ({ cache: historyCache.get(historyOwner(app.getSnapshot())) ?? null });

/**
 * The real side effects of the chat history (the list beside the chat): its API calls, its
 * toasts with their undo, the 5-minute cache, and leaving a deleted chat, given here rather than
 * in the chat screen, so the screen only reads the machine and sends events.
 */
export const historyLogic = ({ app, toast, dismissToast, navigate }: Pick<Runtime, 'app' | 'toast' | 'dismissToast'> & { navigate: Navigate }) =>
  conversationsMachine.provide({
    actors: {
      fetchPage: fromPromise(async ({ input }) => {
        await finishLeftDeletes();
        const page = await listConversations(
          { sources: ['agent', 'workflow'], current: input.current, pageSize: input.pageSize, ...(input.keyword ? { keyword: input.keyword } : {}) },
          { silent: true },
        );
        // A title given since (by the person or the model) reaches the conversations kept offline.
        for (const conversation of page.list) noteConversation(conversation);
        return page;
      }),
      saveConversation: reportingActor(
        (input) => updateConversation(input.patch, { silent: true }),
        (input) => input.previous,
        (input) => input.patch.conversationId,
      ),
      deleteConversation: reportingActor(
        async (input) => {
          await deleteConversation(input.conversation.conversationId, { silent: true });
          // Deleted is deleted on this device too: it is no longer kept for reading offline.
          void forgetConversation(input.conversation.conversationId).catch(() => undefined);
          return null;
        },
        (input) => input.conversation,
        (input) => input.conversation.conversationId,
      ),
    },
    actions: {
      storeCache: ({ context }) => {
        if (context.keyword || context.fetchedAt === 0) return;
        historyCache.clear();
        historyCache.set(historyOwner(app.getSnapshot()), { items: context.items, total: context.total, page: context.page, keyword: '', fetchedAt: context.fetchedAt });
      },
      announceDeleted: ({ event, self }) => {
        if (event.type !== 'delete') return;
        const { conversationId } = event;
        toast({
          id: undoToastId(conversationId),
          title: i18n.t('chat.deleted'),
          action: { label: i18n.t('chat.undo'), altText: i18n.t('chat.undoDelete'), onAction: () => self.send({ type: 'delete.undo', conversationId }) },
        });
      },
      withdrawUndo: ({ event }) => {
        if (event.type === 'delete.commit') dismissToast(undoToastId(event.conversationId));
      },
      announceFailure: ({ event }) => {
        if (event.type !== 'mutation.failed') return;
        toast({ title: i18n.t('chat.changeFailed'), description: event.message, variant: 'destructive' });
      },
      leaveConversation: () => navigate('/chat'),
      flushPendingDeletes: ({ context }) => {
        const ids = context.pendingDeletes.map(({ conversation }) => conversation.conversationId);
        if (ids.length === 0) return;
        leftDeletes.write([...leftDeletes.read(), ...ids]);
        for (const id of ids) deleteConversation(id, { silent: true, keepalive: true }).catch(() => undefined);
      },
    },
  });
