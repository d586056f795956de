import type { Hono } from 'hono';
import type { Services } from '../deps';
import { ownerOf } from '../http/caller';
import { clientAddress } from '../http/client-address';
import { defineRoute, type AppEnv } from '../http/route';
import { conversationQuotas } from '../limits/identity-quotas';
import { spendOnce } from '../limits/quotas';
import { badRequest } from '../http/errors';
import {
  createConversation,
  createPreviewConversation,
  deleteConversation,
  describeConversation,
  findOwnedConversation,
  listConversations,
  listMessages,
  rateAnswer,
  selectMessage,
  updateConversation,
} from '../services/conversations';

export function conversationRoutes(app: Hono<AppEnv>, services: Services) {
  const { db, clock } = services;
  defineRoute(app, services, 'conversationCreate', ({ input, caller, c }) => {
    const owner = ownerOf(caller);
    const quotas = conversationQuotas(services.config, owner, clientAddress(c, services.config.trustProxy));
    if (input.preview && input.source !== 'agent') throw badRequest('Invalid request: preview: only an agent’s draft can be previewed.');
    return spendOnce(services.counters, quotas, clock.now(), () =>
      input.preview ? createPreviewConversation(db, clock, caller, input) : createConversation(db, clock, caller, owner, input),
    );
  });
  defineRoute(app, services, 'conversationList', ({ input, caller }) => listConversations(db, caller, ownerOf(caller), input));
  defineRoute(app, services, 'conversationDetail', async ({ input, caller }) =>
    describeConversation(db, caller, await findOwnedConversation(db, ownerOf(caller), input.conversationId)),
  );
  defineRoute(app, services, 'conversationUpdate', ({ input, caller }) => updateConversation(db, caller, ownerOf(caller), input));
  defineRoute(app, services, 'conversationDelete', async ({ input, caller }) => {
    await deleteConversation(services, ownerOf(caller), input.conversationId);
    return null;
  });
  defineRoute(app, services, 'messages', ({ input, caller }) => listMessages(db, ownerOf(caller), input.conversationId));
  defineRoute(app, services, 'messageSelect', ({ input, caller }) => selectMessage(db, ownerOf(caller), input));
  defineRoute(app, services, 'messageFeedback', ({ input, caller }) => rateAnswer(db, ownerOf(caller), input));
}
