import { and, eq } from 'drizzle-orm';
import { MODEL_ERRORS } from '../../src/contract/models';
import { MAX_OUTPUT_CEILING, STUDIO_ERRORS, type AgentContent, type AgentVisibility } from '../../src/contract/studio';
import type { Db } from '../db/client';
import { agents, uploads } from '../db/schema';
import type { Caller } from '../http/caller';
import { notFound, refusedWith } from '../http/errors';
import { usableModel, type Registry } from '../models/registry';
import { avatarDataUrl } from '../seed/avatar';
import type { AgentRow } from './agents';
import { fileUrl } from './uploads';

type Author = Extract<Caller, { kind: 'user' }>;

/** The author of the agent, or an admin: whoever else asks is told it does not exist. */
export const mayEdit = (caller: Caller, row: Pick<AgentRow, 'createBy'>): caller is Author =>
  caller.kind === 'user' && (caller.user.role === 'admin' || caller.user.id === row.createBy);

/** An agent the caller may edit, read whole; 404 for everyone else, as for an agent that does not exist. */
export async function findEditableAgent(db: Db, caller: Caller, agentId: string): Promise<AgentRow & { editor: Author }> {
  const [row] = await db.select().from(agents).where(eq(agents.id, agentId)).limit(1);
  if (!row || !mayEdit(caller, row)) throw notFound('Agent');
  return { ...row, editor: caller };
}

export const refuseRetired = (row: Pick<AgentRow, 'retiredAt'>) => {
  if (row.retiredAt) throw refusedWith(409, STUDIO_ERRORS.retired, 'This agent was retired: it can no longer be changed or published.');
};

/** The agent's live content, as its row holds it. */
export const contentOfRow = (row: AgentRow): AgentContent => ({
  name: row.name,
  avatar: row.avatar,
  intro: row.intro,
  category: row.category as AgentContent['category'],
  systemPrompt: row.systemPrompt,
  modelId: row.modelId,
  parameters: row.parameters,
  starters: row.starters,
  translations: row.translations,
  allowModelChoice: row.allowModelChoice,
  visibility: row.visibility,
});

/**
 * The agent row's columns for a live version: its content, and the columns servers older than
 * migration 0017 read (`public`; `is_draft` hiding from them what they would show wrongly: a
 * private agent, or one of no organisation).
 */
export const liveColumns = (content: AgentContent, companyId: string | null) => ({
  name: content.name,
  avatar: content.avatar,
  intro: content.intro,
  category: content.category,
  systemPrompt: content.systemPrompt,
  modelId: content.modelId,
  parameters: content.parameters,
  starters: content.starters,
  translations: content.translations,
  allowModelChoice: content.allowModelChoice,
  visibility: content.visibility,
  public: content.visibility === 'public',
  published: true,
  isDraft: content.visibility === 'private' || companyId === null,
});

/** The agent row of a never-published agent: its name for lists, nothing anyone is shown (its avatar included). */
export const unpublishedColumns = (content: AgentContent) => ({
  name: content.name,
  avatar: '',
  intro: '',
  category: content.category,
  systemPrompt: '',
  visibility: content.visibility,
  public: false,
  published: false,
  isDraft: true,
});

const PALETTE = ['#0f766e', '#1d4ed8', '#7c3aed', '#b45309', '#be123c', '#15803d', '#475569', '#0891b2'];
/** A round avatar with the name's first letter, for an agent given none. */
export function generatedAvatar(name: string): string {
  const letter = [...name.trim()][0]?.toUpperCase() ?? '?';
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return avatarDataUrl(letter, PALETTE[hash % PALETTE.length]!);
}

const UPLOAD_PATH = /^\/api\/media\/file\/([A-Za-z0-9-]{1,64})$/;

/**
 * An avatar the agent may show to everyone: the one it has, a small inline SVG (shown in an
 * `<img>`, where no script of it runs), or an image the editor uploaded. Anything else, someone
 * else's upload above all (an agent's avatar is readable by anyone: server/services/file-access.ts),
 * is refused.
 */
async function acceptAvatar(db: Db, editor: Author, avatar: string, name: string, kept: string[]): Promise<string> {
  if (avatar === '') return generatedAvatar(name);
  if (kept.includes(avatar)) return avatar;
  if (avatar.startsWith('data:image/svg+xml')) return avatar;
  const upload = UPLOAD_PATH.exec(avatar);
  if (upload) {
    const [row] = await db
      .select({ id: uploads.id })
      .from(uploads)
      .where(and(eq(uploads.id, upload[1]!), eq(uploads.ownerUserId, editor.user.id), eq(uploads.kind, 'image')))
      .limit(1);
    if (row) return fileUrl(row.id);
  }
  throw refusedWith(400, STUDIO_ERRORS.avatarRefused, 'The avatar must be an image you uploaded (its url from /api/media/upload).');
}

/**
 * Content as it may be saved: its model enabled (or none: the default), its longest answer within
 * what that model writes, `organisation` only for an agent of one, and an avatar it may show.
 * `kept`: avatars the agent already has, kept as they are.
 */
export async function acceptContent(
  db: Db,
  registry: Registry,
  editor: Author,
  agent: { companyId: string | null; kept: string[] },
  content: AgentContent,
): Promise<AgentContent> {
  if (content.visibility === 'organisation' && agent.companyId === null) {
    throw refusedWith(400, STUDIO_ERRORS.noOrganisation, 'This agent belongs to no organisation: make it private or public.');
  }
  const model = content.modelId === null ? registry.default : usableModel(registry, content.modelId);
  if (!model) throw refusedWith(400, MODEL_ERRORS.unknown, 'This model is not available. Choose one of the list.');
  const ceiling = model.maxOutput ?? MAX_OUTPUT_CEILING;
  if (content.parameters.maxOutput !== undefined && content.parameters.maxOutput > ceiling) {
    throw refusedWith(400, STUDIO_ERRORS.parametersOutOfRange, `parameters.maxOutput: ${model.name} writes at most ${ceiling} tokens.`);
  }
  return { ...content, avatar: await acceptAvatar(db, editor, content.avatar, content.name, agent.kept) };
}

export const visibilityNeedsApproval = (visibility: AgentVisibility, editor: Author) => visibility === 'public' && editor.user.role !== 'admin';
