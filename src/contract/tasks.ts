import * as v from 'valibot';
import { idSchema, timestampSchema } from './common';
import { fitText } from './fit-text';
import { fileRefSchema } from './media';
import { pageRequestEntries } from './paging';

/** The social platforms the operations area writes for. */
export const PLATFORMS = ['xiaohongshu', 'linkedin'] as const;
export const platformSchema = v.picklist(PLATFORMS);
export type Platform = (typeof PLATFORMS)[number];

/**
 * A task's life: written (`draft`), approved (`ready`), waiting for its time (`scheduled`),
 * being sent (`publishing`), waiting to be posted by hand (`due`), live (`published`), or
 * `failed` with a reason.
 */
export const TASK_STATUSES = ['draft', 'ready', 'scheduled', 'publishing', 'due', 'published', 'failed'] as const;
export const taskStatusSchema = v.picklist(TASK_STATUSES);
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** What each platform accepts; the composer counts against these and the server refuses beyond them. */
export const PLATFORM_LIMITS = {
  xiaohongshu: { titleMax: 20, bodyMax: 1000, imagesMax: 9, imagesMin: 1, seeMoreAt: null },
  linkedin: { titleMax: 100, bodyMax: 3000, imagesMax: 9, imagesMin: 0, seeMoreAt: 210 },
} as const satisfies Record<Platform, { titleMax: number; bodyMax: number; imagesMax: number; imagesMin: number; seeMoreAt: number | null }>;

export const TASK_TITLE_MAX = 100;
export const TASK_BODY_MAX = 3000;
export const TASK_IMAGES_MAX = 9;
export const DRAFTS_MAX = 10;
export const DRAFT_COUNT_MAX = 5;
export const DRAFT_COUNT_DEFAULT = 3;
export const KEYWORDS_MAX = 10;

/** The languages a post can be written in. */
export const POST_LANGUAGES = ['zh-CN', 'en-US', 'fr-FR', 'de-DE', 'ja'] as const;
export type PostLanguage = (typeof POST_LANGUAGES)[number];

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Characters as a person counts them: grapheme clusters, so an emoji (👨‍👩‍👧, 🇫🇷, 👍🏽), a letter
 * with its accents or a CJK character is one. The composer and the server both count with this.
 */
export const countChars = (text: string): number => {
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
};

/** The `#tags` of a text, without the `#`, each once, in order. Xiaohongshu's `#tag#` form counts too. */
export const hashtagsOf = (text: string): string[] => {
  const found = text.match(/#[^\s#]+/gu) ?? [];
  return [...new Set(found.map((tag) => tag.slice(1)))];
};

const text = (max: number) => v.pipe(v.string(), v.maxLength(max * 4), v.check((value) => countChars(value) <= max, `at most ${max} characters`));
const line = (max: number) => v.pipe(v.string(), v.trim(), v.check((value) => countChars(value) <= max, `at most ${max} characters`));

export const briefSchema = v.object({
  topic: line(200),
  audience: v.optional(line(200), ''),
  tone: v.optional(line(100), ''),
  keywords: v.optional(v.pipe(v.array(line(30)), v.maxLength(KEYWORDS_MAX, `at most ${KEYWORDS_MAX} keywords`)), []),
  language: v.optional(v.picklist(POST_LANGUAGES), 'zh-CN'),
});
export type Brief = v.InferOutput<typeof briefSchema>;

export const draftSchema = v.object({
  title: line(TASK_TITLE_MAX),
  body: text(TASK_BODY_MAX * 2),
});
export type Draft = v.InferOutput<typeof draftSchema>;

export const historyEntrySchema = v.object({
  at: timestampSchema,
  from: v.nullable(taskStatusSchema),
  to: taskStatusSchema,
  by: v.picklist(['operator', 'scheduler']),
  note: v.nullable(v.string()),
});
export type HistoryEntry = v.InferOutput<typeof historyEntrySchema>;

export const taskSchema = v.object({
  id: idSchema,
  platform: platformSchema,
  title: v.string(),
  brief: briefSchema,
  drafts: v.array(draftSchema),
  chosenDraft: v.nullable(v.number()),
  body: v.string(),
  images: v.array(fileRefSchema),
  status: taskStatusSchema,
  scheduledAt: v.nullable(timestampSchema),
  failureReason: v.nullable(v.string()),
  publishedAt: v.nullable(timestampSchema),
  externalId: v.nullable(v.string()),
  externalUrl: v.nullable(v.string()),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  history: v.array(historyEntrySchema),
});
export type Task = v.InferOutput<typeof taskSchema>;

export const taskSummarySchema = v.object({
  id: idSchema,
  platform: platformSchema,
  title: v.string(),
  excerpt: v.string(),
  status: taskStatusSchema,
  scheduledAt: v.nullable(timestampSchema),
  failureReason: v.nullable(v.string()),
  imageCount: v.number(),
  updatedAt: timestampSchema,
});
export type TaskSummary = v.InferOutput<typeof taskSummarySchema>;

export const statusCountsSchema = v.object(
  Object.fromEntries(TASK_STATUSES.map((status) => [status, v.number()])) as Record<TaskStatus, v.NumberSchema<undefined>>,
);
export type StatusCounts = Record<TaskStatus, number>;

export const taskListRequestSchema = v.object({
  ...pageRequestEntries,
  platform: v.optional(platformSchema),
  status: v.optional(taskStatusSchema),
  keyword: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
});
export type TaskListRequest = v.InferInput<typeof taskListRequestSchema>;

/** One page of tasks, with the counts per status of every task matching the platform and keyword. */
export const taskPageSchema = v.object({
  list: v.array(taskSummarySchema),
  total: v.number(),
  current: v.number(),
  pageSize: v.number(),
  counts: statusCountsSchema,
});
export type TaskPage = v.InferOutput<typeof taskPageSchema>;

export const taskIdQuerySchema = v.object({ id: idSchema });
export const taskIdRequestSchema = v.object({ id: idSchema });

const imageRefsSchema = v.pipe(v.array(v.object({ fileId: idSchema })), v.maxLength(TASK_IMAGES_MAX, `at most ${TASK_IMAGES_MAX} images`));

/** The fields an operator writes; limits that depend on the platform are checked by `contentIssue`. */
const contentEntries = {
  title: v.optional(line(TASK_TITLE_MAX)),
  brief: v.optional(briefSchema),
  drafts: v.optional(v.pipe(v.array(draftSchema), v.maxLength(DRAFTS_MAX, `at most ${DRAFTS_MAX} drafts`))),
  chosenDraft: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)))),
  body: v.optional(text(TASK_BODY_MAX)),
  images: v.optional(imageRefsSchema),
};

export const createTaskRequestSchema = v.object({ platform: platformSchema, ...contentEntries });
export type CreateTaskRequest = v.InferInput<typeof createTaskRequestSchema>;

export const updateTaskRequestSchema = v.object({ id: idSchema, ...contentEntries });
export type UpdateTaskRequest = v.InferInput<typeof updateTaskRequestSchema>;

export const TASK_ACTIONS = ['markReady', 'backToDraft', 'schedule', 'unschedule', 'markPublished'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

export const transitionRequestSchema = v.variant('action', [
  v.object({ id: idSchema, action: v.literal('markReady') }),
  v.object({ id: idSchema, action: v.literal('backToDraft') }),
  v.object({ id: idSchema, action: v.literal('schedule'), scheduledAt: timestampSchema }),
  v.object({ id: idSchema, action: v.literal('unschedule') }),
  v.object({
    id: idSchema,
    action: v.literal('markPublished'),
    postUrl: v.optional(v.union([v.literal(''), v.pipe(v.string(), v.trim(), v.url('postUrl must be a link'), v.maxLength(500))])),
  }),
]);
export type TransitionRequest = v.InferInput<typeof transitionRequestSchema>;

export const draftingRequestSchema = v.object({
  platform: platformSchema,
  brief: briefSchema,
  count: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DRAFT_COUNT_MAX)), DRAFT_COUNT_DEFAULT),
});
export type DraftingRequest = v.InferInput<typeof draftingRequestSchema>;

/** A conversation with the platform's writer agent, and the question to stream through the chat endpoint. */
export const draftingSessionSchema = v.object({
  conversationId: idSchema,
  agentId: idSchema,
  agentName: v.string(),
  prompt: v.string(),
  count: v.number(),
});
export type DraftingSession = v.InferOutput<typeof draftingSessionSchema>;

/** How a platform's tasks reach it: by the platform's API, or exported and posted by hand. */
export const publishModeSchema = v.picklist(['api', 'export']);
export type PublishMode = v.InferOutput<typeof publishModeSchema>;

export const operationsSessionSchema = v.object({
  userId: idSchema,
  nickname: v.string(),
  publishing: v.object({ xiaohongshu: publishModeSchema, linkedin: publishModeSchema }),
});
export type OperationsSession = v.InferOutput<typeof operationsSessionSchema>;

/** Each draft the writer agent produces starts with this line. */
export const DRAFT_MARKER = '[[DRAFT]]';

const MARKER_LINE = /^[ \t>*_`]*\[\[\s*DRAFT\s*\d*\s*\]\][ \t*_`]*$/gimu;
const TITLE_PREFIX = /^(?:#+\s*|\*\*)?(?:title|标题|titre|titel|タイトル)\s*[:：]\s*/iu;

/**
 * A draft made to fit its platform: a title too long is cut after a word, a body too long after
 * its last whole sentence (or word), so "Use this draft" never fills a field over its limit and
 * saving never sends drafts the server refuses.
 */
export const fitDraft = (platform: Platform, draft: Draft, language?: PostLanguage): Draft => {
  const limits = PLATFORM_LIMITS[platform];
  const title = draft.title.trim();
  return {
    title: fitText(title, Math.min(limits.titleMax, TASK_TITLE_MAX), countChars, { cutAt: 'word', locale: language }),
    body: fitText(draft.body, limits.bodyMax, countChars, { cutAt: 'sentence', locale: language }),
  };
};

/**
 * A title for a post that has none (a LinkedIn draft): its first line of words, without the
 * markdown and hashtags around them, cut at a word to the platform's title.
 */
export const titleFromPost = (platform: Platform, body: string, language?: PostLanguage): string => {
  const line = body
    .split('\n')
    .map((one) => one.replace(/^[#>*\-\s]+|[*_`]/g, '').replace(/(^|\s)#[^\s#]+/g, '').trim())
    .find((one) => one.length > 0);
  return line ? fitText(line, Math.min(PLATFORM_LIMITS[platform].titleMax, TASK_TITLE_MAX), countChars, { cutAt: 'word', locale: language }) : '';
};

/**
 * Splits a writer agent's answer into drafts, each cut to fit the platform. Text before the first
 * marker is the agent's preamble and dropped; an answer with no marker at all is one draft. For
 * Xiaohongshu the first line of a draft is its title.
 */
export const splitDrafts = (platform: Platform, answer: string, language?: PostLanguage): Draft[] => {
  const parts = answer.split(MARKER_LINE);
  const pieces = parts.length > 1 ? parts.slice(1) : parts;
  return pieces
    .map((piece) => piece.trim())
    .filter((piece) => piece.length > 0)
    .map((piece) => {
      if (platform !== 'xiaohongshu') return { title: '', body: piece };
      const [first = '', ...rest] = piece.split('\n');
      const title = first.replace(TITLE_PREFIX, '').replace(/\*\*/g, '').trim();
      return { title, body: rest.join('\n').trim() };
    })
    .map((draft) => fitDraft(platform, draft, language));
};

export type ContentIssue =
  | { field: 'title'; kind: 'missing' | 'tooLong'; limit: number }
  | { field: 'body'; kind: 'missing' | 'tooLong'; limit: number }
  | { field: 'images'; kind: 'tooFew' | 'tooMany'; limit: number };

/** What keeps a task from its platform: over a limit always; missing parts only when it must be publishable. */
export const contentIssues = (
  platform: Platform,
  content: { title: string; body: string; imageCount: number },
  publishable: boolean,
): ContentIssue[] => {
  const limits = PLATFORM_LIMITS[platform];
  const issues: ContentIssue[] = [];
  const titleLength = countChars(content.title.trim());
  const bodyLength = countChars(content.body);
  if (titleLength > limits.titleMax) issues.push({ field: 'title', kind: 'tooLong', limit: limits.titleMax });
  if (bodyLength > limits.bodyMax) issues.push({ field: 'body', kind: 'tooLong', limit: limits.bodyMax });
  if (content.imageCount > limits.imagesMax) issues.push({ field: 'images', kind: 'tooMany', limit: limits.imagesMax });
  if (publishable) {
    if (titleLength === 0) issues.push({ field: 'title', kind: 'missing', limit: limits.titleMax });
    if (content.body.trim().length === 0) issues.push({ field: 'body', kind: 'missing', limit: limits.bodyMax });
    if (content.imageCount < limits.imagesMin) issues.push({ field: 'images', kind: 'tooFew', limit: limits.imagesMin });
  }
  return issues;
};

/** Which actions each status allows the operator (the scheduler moves scheduled tasks on by itself). */
export const ACTIONS_BY_STATUS: Record<TaskStatus, readonly TaskAction[]> = {
  draft: ['markReady'],
  ready: ['backToDraft', 'schedule'],
  scheduled: ['unschedule', 'schedule', 'backToDraft'],
  publishing: [],
  due: ['markPublished', 'schedule', 'backToDraft'],
  published: [],
  failed: ['schedule', 'backToDraft'],
};

/** Content can change until the task is being published or is live. */
export const isEditable = (status: TaskStatus): boolean => status !== 'publishing' && status !== 'published';
