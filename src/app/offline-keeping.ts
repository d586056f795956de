import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { Agent, AgentLanguage } from '../contract/agents';
import type { Conversation } from '../contract/conversations';
import { i18n } from '../i18n';
import type { chatMachine } from '../machines/chat.machine';
import { VISITOR_USER_ID } from '../machines/preferences.machine';
import { keepConversation, type ConversationToKeep, type KeptMessage } from '../services/offline-library';

/**
 * What a signed-in person reads in the chat is kept in this browser's offline library
 * (services/offline-library.ts), so the installed app started without the network can show it.
 * A conversation is kept when it opens and again each time an exchange in it ends: only once no
 * answer is being written (the chat's `settled` states), and only its settled messages. An answer
 * cut short, stopped or failed is kept as the chat shows it, marked so; one still being written
 * is not kept until it ends, since its text would be a moment's.
 */

type ChatSnapshot = SnapshotFrom<typeof chatMachine>;
type About = Pick<Conversation, 'title' | 'updatedAt'>;

/** What this page has heard of each conversation (its title, its last change) and each agent. */
const conversations = new Map<string, About>();
const agents = new Map<string, Agent>();
/** The chats keeping what they show, told when a title or an agent's name arrives after the messages. */
const keepers = new Set<() => void>();

export const noteConversation = (conversation: Conversation): void => {
  conversations.set(conversation.conversationId, { title: conversation.title, updatedAt: conversation.updatedAt });
  for (const keep of keepers) keep();
};

export const noteAgent = (agent: Agent): void => {
  agents.set(agent.agentId, agent);
  for (const keep of keepers) keep();
};

const SETTLED_STATUSES = new Set<string>(['complete', 'incomplete', 'failed']);

/** The conversation the chat shows, as the library keeps it, or null when there is nothing settled to keep. */
export const keptFromChat = (snapshot: ChatSnapshot, about: About | undefined, agentName: string): ConversationToKeep | null => {
  const { conversationId, messages } = snapshot.context;
  if (!snapshot.hasTag('settled') || conversationId === null) return null;
  const kept: KeptMessage[] = messages
    .filter((message) => SETTLED_STATUSES.has(message.status))
    .map((message) => ({
      role: message.role,
      content: message.content,
      status: message.status as KeptMessage['status'],
      sentAt: message.sentAt,
      ...(message.role === 'assistant' && message.model ? { model: message.model.name || message.model.id } : {}),
    }));
  if (kept.length === 0) return null;
  const lastSent = kept.findLast((message) => message.sentAt !== null)?.sentAt ?? '';
  const updatedAt = about && about.updatedAt > lastSent ? about.updatedAt : lastSent || (about?.updatedAt ?? '');
  return { conversationId, title: about?.title ?? '', agentName, updatedAt, messages: kept };
};

/**
 * Who answers in the chat, as its header names them (`agentWords`, read here without the
 * contract's schemas, which the chat's code does not load).
 */
const agentNameOf = ({ context }: ChatSnapshot): string => {
  if (context.source === 'workflow') return context.application?.name ?? '';
  const agent = agents.get(context.agentId);
  return agent ? (agent.translations?.[i18n.language as AgentLanguage]?.name ?? agent.name) : '';
};

/**
 * Keeps what `chat` shows while someone is signed in (`personHere` says who: an account's id, or
 * VISITOR_USER_ID, or null before the app knows). Each version of a conversation is written once:
 * a draft typed or a menu opened writes nothing.
 */
export const keepReadConversations = (chat: ActorRefFrom<typeof chatMachine>, personHere: () => string | null): (() => void) => {
  let written: { account: string; conversationId: string; messages: unknown; title: string; agentName: string } | null = null;
  const keep = () => {
    const account = personHere();
    if (account === null || account === VISITOR_USER_ID) return;
    const snapshot = chat.getSnapshot();
    const about = snapshot.context.conversationId ? conversations.get(snapshot.context.conversationId) : undefined;
    const kept = keptFromChat(snapshot, about, agentNameOf(snapshot));
    if (!kept) return;
    const version = { account, conversationId: kept.conversationId, messages: snapshot.context.messages, title: kept.title, agentName: kept.agentName };
    if (written && Object.entries(version).every(([key, value]) => written![key as keyof typeof version] === value)) return;
    written = version;
    // A library that cannot write (storage full, refused) leaves the chat as it is.
    keepConversation(account, kept).catch(() => undefined);
  };
  const subscription = chat.subscribe(keep);
  keepers.add(keep);
  return () => {
    subscription.unsubscribe();
    keepers.delete(keep);
  };
};
