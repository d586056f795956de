import { fromPromise } from 'xstate';
import { conversationSharesMachine } from '../machines/conversation-shares.machine';
import { sharedConversationMachine } from '../machines/shared-conversation.machine';
import { i18n } from '../i18n';
import { getConversation, listMessages } from '../services/api/conversations';
import { createShare, listShares, readSharedConversation, revokeShare } from '../services/api/shares';
import { saveFile } from '../services/save-file';
import { conversationJson, conversationMarkdown } from './conversation-export';

/** The real effects of share links and exports: the share calls, and a file the browser downloads. */
export const conversationSharesLogic = conversationSharesMachine.provide({
  actors: {
    fetchShares: fromPromise(({ input }) => listShares(input.conversationId ?? undefined, { silent: true })),
    createShare: fromPromise(({ input }) => createShare(input, { silent: true })),
    revokeShare: fromPromise(async ({ input }) => {
      await revokeShare(input.shareId, { silent: true });
      return input.shareId;
    }),
    exportConversation: fromPromise(async ({ input }) => {
      const [conversation, messages] = await Promise.all([
        getConversation(input.conversationId, { silent: true }),
        listMessages(input.conversationId, { silent: true }),
      ]);
      const file =
        input.format === 'json'
          ? conversationJson(conversation, messages, new Date().toISOString())
          : conversationMarkdown(conversation, messages, {
              you: i18n.t('share.exportYou'),
              assistant: i18n.t('share.exportAssistant'),
              attachments: i18n.t('share.exportAttachments'),
              untitled: i18n.t('share.untitled'),
            });
      saveFile(file.name, file.type, file.text);
    }),
  },
});

export const sharedConversationLogic = sharedConversationMachine.provide({
  actors: { fetchShared: fromPromise(({ input }) => readSharedConversation(input.token, { silent: true })) },
});
