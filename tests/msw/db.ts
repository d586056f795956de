import type { Share, SharedConversation } from '../../src/contract/shares';
import type { Application } from '../../src/contract/applications';
import { DEFAULT_AGENT_ID, type Agent } from '../../src/contract/agents';
import type { Conversation, ConversationSource } from '../../src/contract/conversations';
import type { FileRef } from '../../src/contract/media';
import type { Message, MessageStatus } from '../../src/contract/messages';
import type { UsableModel } from '../../src/contract/models';
import type { SignupPolicy } from '../../src/contract/accounts';
import type { Role, UserInfo } from '../../src/contract/users';

/**
 * The fake API's memory: what the msw handlers read and write. Tests seed it with the helpers
 * below; the setup file empties it after every test.
 */
type StoredUser = UserInfo & { password: string };
type StoredConversation = Conversation & { owner: string };
export type ScanTicketState = {
  id: string;
  fingerPrint: string;
  expiresAt: string;
  status: 'waiting' | 'confirmed' | 'denied' | 'consumed';
  userId?: string;
  /** The asking browser, as the approval page shows it. */
  device: { browser: string; os: string };
  address: string;
  createdAt: string;
};

/** An invitation link into an organisation with a role, as an admin made it. */
export type StoredInvitation = {
  token: string;
  companyId: string;
  companyName: string;
  role: Role;
  expiresAt: string;
  acceptedAt?: string;
  revokedAt?: string;
};

/** A one-time link to choose a new password (an admin's, or one sent by mail). */
export type StoredResetLink = { token: string; userId: string; expiresAt: string; usedAt?: string };

/** A session's public details, beside the token → user map. */
export type SessionDetails = { id: string; device: { browser: string; os: string }; address: string; signedInAt: string; lastUsedAt: string };

/** An answer's text pieces; `cut` closes the stream without its end event (an incomplete answer). */
export type QueuedAnswer = { pieces: string[]; cut: boolean };

type Db = {
  users: Map<string, StoredUser>;
  /** token → user id */
  sessions: Map<string, string>;
  sessionDetails: Map<string, SessionDetails>;
  agents: Agent[];
  applications: Application[];
  /** Share links by token, with the owner who made each. */
  shares: Map<string, { share: Share; owner: string; shared: SharedConversation }>;
  conversations: Map<string, StoredConversation>;
  /** Every stored message of a conversation, versions included, oldest first. */
  messages: Map<string, Message[]>;
  /** The end of each conversation's chosen path, when one was chosen (else its newest message). */
  leaves: Map<string, string>;
  uploads: Map<string, FileRef>;
  scanTickets: Map<string, ScanTicketState>;
  /** One-time WeChat authorisation codes → the user each signs in. */
  wechatCodes: Map<string, string>;
  /** What the WeChat config answers: where to authorise, or a refusal's msg. */
  wechat: { authorizeUrl?: string; configFailure?: string };
  /** Google sign-in: offered or not, the states handed out and the codes Google would send back. */
  google: { enabled: boolean; states: Set<string>; codes: Map<string, string> };
  /** Who may make an account, whether reset links go by mail, and the accounts that asked for one. */
  accounts: { signup: SignupPolicy; resetByMail: boolean; mailedResets: string[] };
  invitations: Map<string, StoredInvitation>;
  resetLinks: Map<string, StoredResetLink>;
  /** What the default chat handler streams as the next answers, then a canned answer. */
  answers: QueuedAnswer[];
  /** The model registry as `GET /api/workflow/model/list` answers it: the models anyone may use, one the default. */
  models: UsableModel[];
  seq: number;
};

const fresh = (): Db => ({
  users: new Map(),
  sessions: new Map(),
  sessionDetails: new Map(),
  agents: [],
  applications: [],
  shares: new Map(),
  conversations: new Map(),
  messages: new Map(),
  leaves: new Map(),
  uploads: new Map(),
  scanTickets: new Map(),
  wechatCodes: new Map(),
  wechat: {},
  google: { enabled: false, states: new Set(), codes: new Map() },
  accounts: { signup: 'closed', resetByMail: false, mailedResets: [] },
  invitations: new Map(),
  resetLinks: new Map(),
  answers: [],
  models: [],
  seq: 1,
});

export const db: Db = fresh();

const BASE_TIME = Date.parse('2025-01-01T00:00:00.000Z');

/** Ids and timestamps that grow with every use, so ordering by time is deterministic. */
export const nextId = (prefix: string): string => `${prefix}-${String(db.seq++).padStart(6, '0')}`;
export const nextTimestamp = (): string => new Date(BASE_TIME + db.seq++ * 1000).toISOString();

/** The registry's default model, which sees no images: it answers every agent that names no model of its own. */
export const HOUSE_MODEL: UsableModel = { id: 'model-house', name: 'House model', contextWindow: 128_000, maxOutput: 4096, vision: false, isDefault: true };
/** Another model anyone may use, which sees images. */
export const SEEING_MODEL: UsableModel = { id: 'model-seeing', name: 'Seeing model', contextWindow: 32_000, maxOutput: 2048, vision: true, isDefault: false };

export const resetDb = (): void => {
  Object.assign(db, fresh());
  db.models.push({ ...HOUSE_MODEL }, { ...SEEING_MODEL });
  seedAgent({ agentId: DEFAULT_AGENT_ID, name: 'General assistant' });
};

/** A model in the registry; `isDefault: true` makes it the default in place of the one before. */
export const seedModel = (partial: Partial<UsableModel> = {}): UsableModel => {
  const model: UsableModel = { id: partial.id ?? nextId('model'), name: 'Model', contextWindow: null, maxOutput: null, vision: false, isDefault: false, ...partial };
  if (model.isDefault) for (const other of db.models) other.isDefault = false;
  db.models.push(model);
  return model;
};

/**
 * The agent of the fixtures that lets people choose the model: it answers with the Seeing model
 * unless a question names another of the person's models.
 */
export const seedChoosingAgent = (partial: Partial<Agent> = {}): Agent =>
  seedAgent({ agentId: 'agent-choosing', name: 'Model tester', modelId: SEEING_MODEL.id, allowModelChoice: true, vision: SEEING_MODEL.vision, ...partial });

export const seedAgent = (partial: Partial<Agent> = {}): Agent => {
  const agentId = partial.agentId ?? nextId('agent');
  const agent: Agent = {
    id: agentId,
    agentId,
    name: 'Agent',
    avatar: '',
    intro: 'A helpful agent.',
    createBy: 'company',
    createByName: 'Company',
    updateBy: 'company',
    updateByName: 'Company',
    versionId: 'v1',
    companyId: 'company',
    public: true,
    published: true,
    isDraft: false,
    updatedAt: nextTimestamp(),
    modelId: null,
    allowModelChoice: false,
    ...partial,
  };
  db.agents.push(agent);
  return agent;
};

export const seedApplication = (partial: Partial<Application> = {}): Application => {
  const applicationId = partial.applicationId ?? nextId('app');
  const application: Application = {
    id: applicationId,
    applicationId,
    name: 'Application',
    avatar: '',
    intro: 'Runs a few steps.',
    companyId: 'company',
    public: true,
    published: true,
    isDraft: false,
    ...partial,
  };
  db.applications.push(application);
  return application;
};

export type SeededUser = { user: UserInfo; password: string };

/**
 * An account. Without a `role` it is an account of a backend that does not speak of roles (the
 * operations area's door decides alone); give `role: 'member'` for a person who only chats.
 */
export const seedUser = (partial: Partial<StoredUser> = {}): SeededUser => {
  const id = partial.id ?? nextId('user');
  const username = partial.username ?? `${id}@example.com`;
  const stored: StoredUser = {
    id,
    username,
    nickname: username,
    avatar: '',
    password: 'correct horse battery',
    ...partial,
  };
  db.users.set(id, stored);
  const { password, ...user } = stored;
  return { user, password };
};

/** Opens a session for the user and answers its token (what login would have answered). */
export const issueToken = (userId: string): string => {
  const id = nextId('session');
  const token = `token-${id}-abcdefghijklmnop`;
  db.sessions.set(token, userId);
  const now = new Date().toISOString();
  db.sessionDetails.set(token, { id, device: { browser: 'Chrome 131', os: 'Windows' }, address: '127.0.0.1', signedInAt: now, lastUsedAt: now });
  return token;
};

export const publicUser = (id: string): UserInfo | null => {
  const stored = db.users.get(id);
  if (!stored) return null;
  const { password: _password, ...user } = stored;
  return user;
};

export type SeedMessage = { role: 'user' | 'assistant'; content: string; status?: MessageStatus; error?: string };

/** Owner keys: `user:<id>` for an account, `visitor:<X-Visitor-Id>` for a visitor. */
export const userOwner = (userId: string): string => `user:${userId}`;
export const visitorOwner = (visitorId: string): string => `visitor:${visitorId}`;

export const seedConversation = (options: {
  owner: string;
  title?: string;
  sourceId?: string;
  source?: ConversationSource;
  pinned?: boolean;
  messages?: SeedMessage[];
}): Conversation => {
  const conversationId = nextId('conv');
  const createdAt = nextTimestamp();
  const conversation: StoredConversation = {
    conversationId,
    source: options.source ?? 'agent',
    sourceId: options.sourceId ?? DEFAULT_AGENT_ID,
    title: options.title ?? 'A conversation',
    pinned: options.pinned ?? false,
    createdAt,
    updatedAt: createdAt,
    owner: options.owner,
  };
  db.conversations.set(conversationId, conversation);
  let parentId: string | null = null;
  db.messages.set(
    conversationId,
    (options.messages ?? []).map((message) => {
      const messageId = nextId('msg');
      const stored: Message = {
        messageId,
        conversationId,
        role: message.role,
        content: message.content,
        status: message.status ?? 'complete',
        files: [],
        ...(message.error === undefined ? {} : { error: message.error }),
        createdAt: nextTimestamp(),
        parentId,
      };
      parentId = messageId;
      return stored;
    }),
  );
  const { owner: _owner, ...visible } = conversation;
  return visible;
};

/** The next answer the default chat handler streams, piece by piece. */
export const queueAnswer = (...pieces: string[]): void => {
  db.answers.push({ pieces, cut: false });
};

/** The next answer stops after these pieces: the stream closes without its end event. */
export const queueCutAnswer = (...pieces: string[]): void => {
  db.answers.push({ pieces, cut: true });
};

export const DEFAULT_ANSWER = ['Hello', ', ', 'how can I help?'];

resetDb();

/** What Google does when a person consents: a one-time code that signs in this user. */
export const seedGoogleCode = (code: string, userId: string): void => {
  db.google.codes.set(code, userId);
};

/** What WeChat does when a person consents: a one-time code that signs in this user. */
export const seedWechatCode = (code: string, userId: string): void => {
  db.wechatCodes.set(code, userId);
};

/** A scan ticket some browser opened and waits on (as register-login would have made it). */
export const seedScanTicket = (partial: Partial<ScanTicketState> = {}): ScanTicketState => {
  const now = Date.now();
  const ticket: ScanTicketState = {
    id: nextId('scan'),
    fingerPrint: 'waiting-browser-secret',
    status: 'waiting',
    expiresAt: new Date(now + 3 * 60_000).toISOString(),
    createdAt: new Date(now).toISOString(),
    device: { browser: 'Firefox 133', os: 'Linux' },
    address: '203.0.113.7',
    ...partial,
  };
  db.scanTickets.set(ticket.id, ticket);
  return ticket;
};

/** A link token of the contract's shape (20 to 100 URL-safe characters). */
const linkToken = (prefix: string): string => `${nextId(prefix)}`.padEnd(32, 'x');

/** An invitation an admin made: its link is `/login?invitation=<token>`. */
export const seedInvitation = (partial: Partial<StoredInvitation> = {}): StoredInvitation => {
  const invitation: StoredInvitation = {
    token: linkToken('invite'),
    companyId: 'company-acme',
    companyName: 'Acme Bakery',
    role: 'operator',
    expiresAt: new Date(Date.now() + 7 * 24 * 3_600_000).toISOString(),
    ...partial,
  };
  db.invitations.set(invitation.token, invitation);
  return invitation;
};

/** A reset link for an account: its address is `/reset-password?token=<token>`. */
export const seedResetLink = (userId: string, partial: Partial<StoredResetLink> = {}): StoredResetLink => {
  const link: StoredResetLink = { token: linkToken('reset'), userId, expiresAt: new Date(Date.now() + 3_600_000).toISOString(), ...partial };
  db.resetLinks.set(link.token, link);
  return link;
};

/** An operator of an organisation, who may open the operations area. */
export const seedOperator = (partial: Partial<StoredUser> = {}): SeededUser =>
  seedUser({ role: 'operator', companyId: 'company-acme', companyName: 'Acme Bakery', ...partial });
