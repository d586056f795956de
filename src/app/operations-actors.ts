import { fromCallback, fromPromise } from 'xstate';
import type { FileRef } from '../contract/media';
import { mayOperate } from '../contract/users';
import { PLATFORMS, TASK_STATUSES, type Platform, type TaskStatus } from '../contract/tasks';
import { i18n } from '../i18n';
import { createChatStreamActor, type ChatTransport } from '../machines/chat-stream.actor';
import { isSignedIn } from '../machines/app.machine';
import { operationsGuardMachine, type OperationsGuardEvent, type VerifiedSession } from '../machines/operations-guard.machine';
import { operationsOverviewMachine, type OverviewFilters } from '../machines/operations-overview.machine';
import { taskEditorMachine } from '../machines/task-editor.machine';
import { stopAnswer } from '../services/api/conversations';
import { uploadFile } from '../services/api/media';
import { createTask, getTask, listTasks, startDrafting, transitionTask, updateTask, verifyOperationsSession } from '../services/api/tasks';
import { streamChat, StreamError } from '../services/chat-stream';
import { getToken } from '../services/cookies';
import { loginUrlFor } from '../services/redirect';
import type { Navigate, Runtime } from './runtime';

/**
 * Tells the door when the app's session ends (the operator signed out, or a call answered 401),
 * and when the account, read again, may no longer operate (a call answered 403 after an admin
 * changed its role).
 */
const sessionEnds = (app: Runtime['app']) =>
  fromCallback<OperationsGuardEvent>(({ sendBack }) => {
    let signedIn = isSignedIn(app.getSnapshot());
    const subscription = app.subscribe((state) => {
      if (signedIn && !isSignedIn(state)) sendBack({ type: 'session.ended' });
      else if (state.matches({ loaded: 'signedIn' }) && state.context.user && !mayOperate(state.context.user)) sendBack({ type: 'access.withdrawn' });
      signedIn = isSignedIn(state);
    });
    return () => subscription.unsubscribe();
  });

/**
 * The real side effects of the operations area's screen machines (the door, the overview, the
 * task editor), given here rather than in the screens, so a screen only reads and sends events.
 */
export const operationsGuardLogic = ({ navigate, app }: { navigate: Navigate; app: Runtime['app'] }) =>
  operationsGuardMachine.provide({
    actors: {
      verifySession: fromPromise<VerifiedSession>(() => verifyOperationsSession({ silent: true })),
      watchSession: sessionEnds(app),
    },
    actions: {
      redirectToLogin: (_, { pathname, search }) => navigate(loginUrlFor(pathname, search ? `?${search}` : ''), { replace: true }),
      refreshIdentity: () => app.send({ type: 'session.refresh' }),
    },
    guards: { hasToken: () => Boolean(getToken()) },
  });

/** The overview's filters, as the address holds them (`?platform=&status=&q=&page=`). */
export const filtersFromQuery = (search: string): Partial<OverviewFilters> => {
  const query = new URLSearchParams(search);
  const platform = query.get('platform');
  const status = query.get('status');
  const page = Number(query.get('page'));
  return {
    ...(PLATFORMS.includes(platform as Platform) ? { platform: platform as Platform } : {}),
    ...(TASK_STATUSES.includes(status as TaskStatus) ? { status: status as TaskStatus } : {}),
    ...(query.get('q') ? { keyword: query.get('q')! } : {}),
    ...(Number.isInteger(page) && page > 1 ? { current: page } : {}),
  };
};

const queryOf = (filters: OverviewFilters): string => {
  const query = new URLSearchParams();
  if (filters.platform) query.set('platform', filters.platform);
  if (filters.status) query.set('status', filters.status);
  if (filters.keyword.trim()) query.set('q', filters.keyword.trim());
  if (filters.current > 1) query.set('page', String(filters.current));
  const text = query.toString();
  return text ? `?${text}` : '';
};

export const overviewLogic = ({ navigate }: { navigate: Navigate }) =>
  operationsOverviewMachine.provide({
    actors: { fetchTasks: fromPromise(({ input, signal }) => listTasks(input, { silent: true, signal })) },
    actions: { filtersChanged: (_, filters) => navigate(`/kraken-operation${queryOf(filters)}`, { replace: true }) },
  });

/**
 * The chat transport, where a 401 sends the operator to log in like any other call of the area.
 * A draft has no life beyond the editor: leaving it or stopping it stops its answer on the server
 * too (an answer otherwise goes on without the page that asked).
 */
const draftingTransport =
  (toLogin: () => void): ChatTransport =>
  async (request, options) => {
    let answer: { conversationId: string; messageId: string } | null = null;
    let ended = false;
    const stopOnServer = () => {
      if (answer && !ended) stopAnswer(answer.conversationId, answer.messageId, { silent: true }).catch(() => undefined);
    };
    options.signal.addEventListener('abort', stopOnServer, { once: true });
    try {
      await streamChat(request, {
        ...options,
        onEvent: (event) => {
          if (event.type === 'start') answer = { conversationId: event.conversationId, messageId: event.replyMessageId };
          if (event.type === 'end' || event.type === 'error') ended = true;
          options.onEvent(event);
        },
      });
    } catch (error) {
      if (error instanceof StreamError && error.status === 401) toLogin();
      throw error;
    } finally {
      options.signal.removeEventListener('abort', stopOnServer);
    }
  };

/** Uploads the picked files one after the other; what is not an image is left out, and said. */
const uploadImages = fromCallback<{ type: 'noop' }, { files: File[] }>(({ input, sendBack }) => {
  let cancelled = false;
  void (async () => {
    const uploaded: FileRef[] = [];
    let error: string | null = null;
    for (const file of input.files) {
      try {
        uploaded.push(await uploadFile(file, { silent: true }));
      } catch (caught) {
        error = `${file.name}: ${caught instanceof Error ? caught.message : String(caught)}`;
      }
    }
    const notImage = uploaded.some((file) => file.kind !== 'image') ? i18n.t('operations.images.notImage') : null;
    if (!cancelled) sendBack({ type: 'uploads.done', files: uploaded.filter((file) => file.kind === 'image'), error: error ?? notImage });
  })();
  return () => {
    cancelled = true;
  };
});

type TaskEditorEffects = Pick<Runtime, 'toast'> & {
  navigate: Navigate;
  /** A new task got its id: the route keeps this editor for its edit address. */
  onCreated: (taskId: string) => void;
};

export const taskEditorLogic = ({ navigate, toast, onCreated }: TaskEditorEffects) =>
  taskEditorMachine.provide({
    actors: {
      loadTask: fromPromise(({ input }) => getTask(input.taskId, { silent: true })),
      saveTask: fromPromise(({ input: { taskId, platform, form } }) => {
        const fields = { ...form, images: form.images.map(({ fileId }) => ({ fileId })) };
        return taskId ? updateTask({ id: taskId, ...fields }, { silent: true }) : createTask({ platform, ...fields }, { silent: true });
      }),
      transitionTask: fromPromise(({ input }) => transitionTask({ id: input.taskId, ...input.action }, { silent: true })),
      uploadImages,
      startDrafting: fromPromise(({ input }) => startDrafting(input, { silent: true })),
      chatStream: createChatStreamActor(draftingTransport(() => navigate(loginUrlFor(location.pathname, location.search), { replace: true }))),
    },
    actions: {
      taskCreated: (_, { taskId }) => {
        onCreated(taskId);
        navigate(`/kraken-operation/task/edit/${taskId}`, { replace: true });
      },
      announceSaved: (_, { status }) =>
        toast({ title: i18n.t('operations.editor.saved', { status: i18n.t(`operations.status.${status}`) }), variant: 'success' }),
      leave: (_, { to }) => navigate(to),
    },
  });
