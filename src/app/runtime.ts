import { createActor, fromPromise, type InspectionEvent, type Observer } from 'xstate';
import { i18n, initI18n } from '../i18n';
import { chatMachine } from '../machines/chat.machine';
import { createChatStreamActor } from '../machines/chat-stream.actor';
import { appMachine } from '../machines/app.machine';
import type { ToastInput } from '../machines/toast.machine';
import { logout } from '../services/api/auth';
import { createConversation, getConversation, listMessages } from '../services/api/conversations';
import { getUserInfo } from '../services/api/users';
import { streamChat } from '../services/chat-stream';
import { clearToken, getToken, setToken } from '../services/cookies';
import { configureHttp } from '../services/http';
import { resetVisitorId } from '../services/visitor';
import { isOperationsPath, loginUrlFor } from '../services/redirect';
import { createScreenEvents } from '../services/screen-events';

export type Navigate = (to: string, options?: { replace?: boolean }) => void;

export type RuntimeOptions = {
  navigate: Navigate;
  inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
};

/**
 * Creates the app's long-lived actors and gives each machine its real side effects. Everything
 * a machine does to the outside world is provided here, once, so tests can provide others.
 */
export const createRuntime = ({ navigate, inspect }: RuntimeOptions) => {
  const screenEvents = createScreenEvents();

  const app = createActor(
    appMachine.provide({
      actors: {
        prepare: fromPromise(async () => {
          await initI18n();
        }),
        fetchUser: fromPromise(() => getUserInfo({ silent: true })),
        revokeSession: fromPromise(async () => {
          try {
            await logout({ silent: true });
          } finally {
            resetVisitorId();
          }
        }),
      },
      actions: {
        storeToken: (_, { token }) => setToken(token),
        clearToken: () => clearToken(),
      },
      guards: { hasToken: () => Boolean(getToken()) },
    }),
    { inspect, systemId: 'app' },
  );

  const chat = createActor(
    chatMachine.provide({
      actors: {
        loadConversation: fromPromise(async ({ input }) => {
          const [conversation, messages] = await Promise.all([
            getConversation(input.conversationId),
            listMessages(input.conversationId),
          ]);
          return { conversation, messages };
        }),
        createConversation: fromPromise(({ input }) =>
          createConversation({ sourceId: input.agentId, source: 'agent', title: input.title || undefined }, { silent: true }),
        ),
        chatStream: createChatStreamActor(streamChat),
      },
      actions: {
        conversationCreated: (_, { conversationId }) => {
          navigate(`/chat/${conversationId}`, { replace: true });
          screenEvents.emit('updateChatList');
        },
        exchangeSettled: () => screenEvents.emit('updateChatList'),
      },
    }),
    { inspect, input: {} },
  );

  const toast = (input: ToastInput): void => {
    app.system.get('toasts')?.send({ type: 'toast.add', toast: input });
  };

  configureHttp({
    currentPath: () => location.pathname,
    onRequestError: (error) =>
      toast({ title: i18n.t('errors.requestException'), description: error.description, variant: 'destructive' }),
    onUnauthorized: () => {
      app.send({ type: 'session.expired' });
      if (isOperationsPath(location.pathname)) navigate(loginUrlFor(location.pathname, location.search), { replace: true });
    },
  });

  return {
    app,
    chat,
    screenEvents,
    toast,
    start() {
      app.start();
      chat.start();
    },
    stop() {
      chat.stop();
      app.stop();
    },
  };
};

export type Runtime = ReturnType<typeof createRuntime>;
