import { http, HttpResponse, type HttpHandler } from 'msw';
import * as v from 'valibot';
import { endpoints, type EndpointData, type EndpointName } from '../../src/contract/endpoints';
import {
  ACTIONS_BY_STATUS,
  contentIssues,
  isEditable,
  TASK_STATUSES,
  type PublishMode,
  type StatusCounts,
  type Task,
  type TaskSummary,
} from '../../src/contract/tasks';
import { mayOperate } from '../../src/contract/users';
import { db, nextId, nextTimestamp, publicUser, userOwner } from './db';

/**
 * The fake task API of the operations area: the same rules as the server (ownership, platform
 * limits, allowed status changes), kept in memory. Its store follows the fake database's resets.
 */
type StoredTask = Task & { owner: string };
const stores = new WeakMap<object, Map<string, StoredTask>>();
const taskStore = (): Map<string, StoredTask> => {
  let store = stores.get(db.users);
  if (!store) {
    store = new Map();
    stores.set(db.users, store);
  }
  return store;
};

/** How the fake server says each platform publishes (tests may switch LinkedIn to `api`). */
export const fakePublishing: { linkedin: PublishMode } = { linkedin: 'export' };

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const ok = <N extends EndpointName>(name: N, data: EndpointData<N>) => {
  const endpoint = endpoints[name];
  if ('response' in endpoint) v.parse(endpoint.response as v.GenericSchema, data);
  return HttpResponse.json({ code: 0, msg: 'ok', data: data ?? null, success: true });
};

const operatorOf = (request: Request): string => {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  const userId = token ? db.sessions.get(token) : undefined;
  if (!userId || !db.users.has(userId)) throw new Refusal(401, 'Your session has expired or was ended. Please log in again.');
  // Like the server: only an operator or admin of an organisation (or an account without a role, from before roles).
  if (!mayOperate(db.users.get(userId)!)) throw new Refusal(403, 'The operations area is for the operators and admins of an organisation.');
  return userId;
};

type Input<N extends EndpointName> = (typeof endpoints)[N] extends { request: infer S extends v.GenericSchema } ? v.InferOutput<S> : undefined;

const route = <N extends EndpointName>(name: N, resolve: (ctx: { input: Input<N>; userId: string }) => Response): HttpHandler => {
  const endpoint = endpoints[name];
  return (endpoint.method === 'GET' ? http.get : http.post)(endpoint.path, async ({ request }) => {
    try {
      const userId = operatorOf(request);
      let input: unknown;
      if ('request' in endpoint) {
        const raw = endpoint.input === 'query' ? Object.fromEntries(new URL(request.url).searchParams) : JSON.parse((await request.text()) || '{}');
        const parsed = v.safeParse(endpoint.request as v.GenericSchema, raw);
        if (!parsed.success) throw new Refusal(400, `Invalid request: ${parsed.issues[0]?.message ?? ''}`);
        input = parsed.output;
      }
      return resolve({ input: input as Input<N>, userId });
    } catch (error) {
      if (error instanceof Refusal) return HttpResponse.json({ code: 1, msg: error.message, data: null, success: false }, { status: error.status });
      throw error;
    }
  });
};

const own = (userId: string, id: string): StoredTask => {
  const task = taskStore().get(id);
  if (!task || task.owner !== userOwner(userId)) throw new Refusal(404, 'Task not found');
  return task;
};

const visible = ({ owner: _owner, ...task }: StoredTask): Task => task;

const summary = (task: StoredTask): TaskSummary => ({
  id: task.id,
  platform: task.platform,
  title: task.title,
  excerpt: task.body.slice(0, 80),
  status: task.status,
  scheduledAt: task.scheduledAt,
  failureReason: task.failureReason,
  imageCount: task.images.length,
  updatedAt: task.updatedAt,
});

const imagesOf = (refs: { fileId: string }[]) =>
  refs.map(({ fileId }) => {
    const file = db.uploads.get(fileId);
    if (!file) throw new Refusal(404, `Attached file not found among your uploads: ${fileId}`);
    return file;
  });

const checkContent = (task: Pick<Task, 'platform' | 'title' | 'body' | 'images' | 'status'>, publishable: boolean) => {
  const issues = contentIssues(task.platform, { title: task.title, body: task.body, imageCount: task.images.length }, publishable);
  if (issues.length > 0) throw new Refusal(400, `This post is not ready: ${issues.map((issue) => `${issue.field} ${issue.kind}`).join('; ')}.`);
};

/** Puts a task straight into the fake store (tests that start from an existing task). */
export const seedTask = (userId: string, partial: Partial<Task> & Pick<Task, 'platform'>): Task => {
  const now = nextTimestamp();
  const task: StoredTask = {
    id: nextId('task'),
    title: '',
    brief: { topic: '', audience: '', tone: '', keywords: [], language: 'zh-CN' },
    drafts: [],
    chosenDraft: null,
    body: '',
    images: [],
    status: 'draft',
    scheduledAt: null,
    failureReason: null,
    publishedAt: null,
    externalId: null,
    externalUrl: null,
    createdAt: now,
    updatedAt: now,
    history: [{ at: now, from: null, to: 'draft', by: 'operator', note: null }],
    ...partial,
    owner: userOwner(userId),
  };
  taskStore().set(task.id, task);
  return visible(task);
};

export const storedTask = (id: string): Task | undefined => {
  const task = taskStore().get(id);
  return task ? visible(task) : undefined;
};

export const taskHandlers = {
  operationsSession: route('operationsSession', ({ userId }) =>
    ok('operationsSession', { userId, nickname: publicUser(userId)?.nickname ?? '', publishing: { xiaohongshu: 'export', linkedin: fakePublishing.linkedin } }),
  ),
  taskList: route('taskList', ({ input, userId }) => {
    const scoped = [...taskStore().values()]
      .filter((task) => task.owner === userOwner(userId))
      .filter((task) => !input.platform || task.platform === input.platform)
      .filter((task) => task.title.toLowerCase().includes((input.keyword ?? '').toLowerCase()));
    const counts = Object.fromEntries(TASK_STATUSES.map((status) => [status, scoped.filter((task) => task.status === status).length])) as StatusCounts;
    const items = scoped.filter((task) => !input.status || task.status === input.status).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    return ok('taskList', {
      list: items.slice((input.current - 1) * input.pageSize, input.current * input.pageSize).map(summary),
      total: items.length,
      current: input.current,
      pageSize: input.pageSize,
      counts,
    });
  }),
  taskDetail: route('taskDetail', ({ input, userId }) => ok('taskDetail', visible(own(userId, input.id)))),
  taskCreate: route('taskCreate', ({ input, userId }) => {
    const draft = {
      platform: input.platform,
      title: input.title ?? '',
      body: input.body ?? '',
      images: imagesOf(input.images ?? []),
      status: 'draft' as const,
    };
    checkContent(draft, false);
    return ok('taskCreate', seedTask(userId, { ...draft, ...(input.brief ? { brief: input.brief } : {}), drafts: input.drafts ?? [], chosenDraft: input.chosenDraft ?? null }));
  }),
  taskUpdate: route('taskUpdate', ({ input, userId }) => {
    const task = own(userId, input.id);
    if (!isEditable(task.status)) throw new Refusal(409, 'This task is published; its content can no longer change.');
    const next = {
      ...task,
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.brief !== undefined ? { brief: input.brief } : {}),
      ...(input.drafts !== undefined ? { drafts: input.drafts } : {}),
      ...(input.chosenDraft !== undefined ? { chosenDraft: input.chosenDraft } : {}),
      ...(input.body !== undefined ? { body: input.body } : {}),
      ...(input.images !== undefined ? { images: imagesOf(input.images) } : {}),
    };
    checkContent(next, task.status !== 'draft' && task.status !== 'failed');
    Object.assign(task, next, { updatedAt: nextTimestamp() });
    return ok('taskUpdate', visible(task));
  }),
  taskTransition: route('taskTransition', ({ input, userId }) => {
    const task = own(userId, input.id);
    if (!ACTIONS_BY_STATUS[task.status].includes(input.action)) throw new Refusal(409, `A ${task.status} task cannot be moved on with "${input.action}".`);
    const from = task.status;
    if (input.action === 'markReady' || input.action === 'schedule') checkContent(task, true);
    if (input.action === 'markReady') task.status = 'ready';
    if (input.action === 'backToDraft') Object.assign(task, { status: 'draft', scheduledAt: null, failureReason: null });
    if (input.action === 'unschedule') Object.assign(task, { status: 'ready', scheduledAt: null });
    if (input.action === 'schedule') Object.assign(task, { status: 'scheduled', scheduledAt: input.scheduledAt, failureReason: null });
    if (input.action === 'markPublished') Object.assign(task, { status: 'published', publishedAt: nextTimestamp(), externalUrl: input.postUrl || null });
    task.updatedAt = nextTimestamp();
    task.history = [...task.history, { at: task.updatedAt, from, to: task.status, by: 'operator', note: null }];
    return ok('taskTransition', visible(task));
  }),
  taskDelete: route('taskDelete', ({ input, userId }) => {
    own(userId, input.id);
    taskStore().delete(input.id);
    return ok('taskDelete', null);
  }),
  taskDrafting: route('taskDrafting', ({ input, userId }) => {
    if (!input.brief.topic) throw new Refusal(400, 'Invalid request: brief.topic: write the topic of the post first.');
    const agentId = input.platform === 'xiaohongshu' ? 'xhs-note-writer' : 'linkedin-post-writer';
    const now = nextTimestamp();
    const conversationId = nextId('conv');
    db.conversations.set(conversationId, {
      conversationId,
      source: 'agent',
      sourceId: agentId,
      title: input.brief.topic,
      pinned: false,
      createdAt: now,
      updatedAt: now,
      owner: userOwner(userId),
    });
    db.messages.set(conversationId, []);
    return ok('taskDrafting', {
      conversationId,
      agentId,
      agentName: input.platform === 'xiaohongshu' ? '小红书笔记写手' : 'LinkedIn Post Writer',
      prompt: `Write ${input.count} drafts about ${input.brief.topic}`,
      count: input.count,
    });
  }),
} satisfies Partial<Record<EndpointName, HttpHandler>>;
