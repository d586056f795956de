import { vi } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import type { ChatRequest } from '../../src/contract/chat';
import type { FileRef } from '../../src/contract/media';
import type { Brief, DraftingSession, Platform, PostLanguage, Task } from '../../src/contract/tasks';
import type { ChatStreamReport } from '../../src/machines/chat-stream.actor';
import { taskEditorMachine, type SaveInput, type TransitionAction } from '../../src/machines/task-editor.machine';

/** The harness of the task editor's tests (src/machines/task-editor.machine*.test.ts): every call faked and recorded. */
export const task = (patch: Partial<Task> = {}): Task => ({
  id: 't1',
  platform: 'linkedin',
  title: 'Launch',
  brief: { topic: 'Launch', audience: '', tone: '', keywords: [], language: 'en-US' },
  drafts: [],
  chosenDraft: null,
  body: 'We launched.',
  images: [],
  status: 'draft',
  scheduledAt: null,
  failureReason: null,
  publishedAt: null,
  externalId: null,
  externalUrl: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  history: [],
  ...patch,
});

type Fakes = {
  load?: (input: { taskId: string }) => Promise<Task>;
  save?: (input: SaveInput) => Promise<Task>;
  transition?: (input: { taskId: string; action: TransitionAction }) => Promise<Task>;
  startDrafting?: (input: DraftingInput) => Promise<DraftingSession>;
  stream?: (request: ChatRequest, report: (event: ChatStreamReport) => void) => void;
};

type DraftingInput = { platform: Platform; brief: Brief; count: number };

/** What each call to the server was given, in order. */
type Received = {
  load: { taskId: string }[];
  save: SaveInput[];
  transition: { taskId: string; action: TransitionAction }[];
  drafting: DraftingInput[];
  upload: File[][];
};

export const start = (fakes: Fakes, input: { taskId: string | null; platform?: Platform; language?: PostLanguage } = { taskId: 't1' }) => {
  const calls: string[] = [];
  const received: Received = { load: [], save: [], transition: [], drafting: [], upload: [] };
  const taskCreated = vi.fn();
  const announceSaved = vi.fn();
  const leave = vi.fn();
  const actor = createActor(
    taskEditorMachine.provide({
      actors: {
        loadTask: fromPromise(async ({ input: loadInput }) => {
          calls.push('load');
          received.load.push(loadInput);
          return (fakes.load ?? (async () => task()))(loadInput);
        }),
        saveTask: fromPromise(async ({ input: saveInput }) => {
          calls.push('save');
          received.save.push(saveInput);
          return (fakes.save ?? (async (i: SaveInput) => task({ ...i.form, images: [] })))(saveInput);
        }),
        transitionTask: fromPromise(async ({ input: transitionInput }) => {
          calls.push(`transition:${transitionInput.action.action}`);
          received.transition.push(transitionInput);
          return (fakes.transition ?? (async () => task({ status: 'ready' })))(transitionInput);
        }),
        uploadImages: fromCallback<{ type: 'noop' }, { files: File[] }>(({ input: upload }) => {
          calls.push('upload');
          received.upload.push(upload.files);
        }),
        startDrafting: fromPromise(async ({ input: drafting }) => {
          received.drafting.push(drafting);
          return (
            fakes.startDrafting ??
            (async () => ({
              conversationId: 'c1',
              agentId: 'linkedin-post-writer',
              agentName: 'LinkedIn Post Writer',
              prompt: `drafts about ${drafting.brief.topic}`,
              count: drafting.count,
            }))
          )(drafting);
        }),
        chatStream: fromCallback<{ type: 'noop' }, ChatRequest>(({ input: request, sendBack }) => {
          calls.push(request.retryMessageId ? `retry:${request.retryMessageId}` : `stream:${request.text}`);
          fakes.stream?.(request, sendBack);
        }),
      },
      actions: {
        taskCreated: (_, params) => taskCreated(params.taskId),
        announceSaved: (_, params) => announceSaved(params.status),
        leave: (_, params) => leave(params.to),
      },
    }),
    { input: { platform: 'linkedin', ...input } },
  ).start();
  return { actor, calls, received, taskCreated, announceSaved, leave };
};

/** A call the test answers when it chooses, to act while it is out. */
export const held = <T>() => {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
};

export const editing = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (state) => state.matches({ task: { editing: 'idle' } }));

export const image = (fileId: string): FileRef => ({ fileId, name: `${fileId}.png`, url: `/files/${fileId}`, kind: 'image', mimeType: 'image/png', size: 1000 });

export const imageIds = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.form.images.map((file) => file.fileId);

/** Drafts being written for the task, the writer's answer reported by the test. */
export const writing = async (fakes: Fakes = {}, input?: { taskId: string | null; platform?: Platform }) => {
  let report: (event: ChatStreamReport) => void = () => undefined;
  const started = start({ ...fakes, stream: (_request, send) => (report = send) }, input);
  await editing(started.actor);
  started.actor.send({ type: 'drafts.generate' });
  await waitFor(started.actor, (state) => state.matches({ drafting: 'streaming' }));
  return { ...started, report: (event: ChatStreamReport) => report(event) };
};
