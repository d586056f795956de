import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { SimulatedClock, transition, waitFor as reach, type SnapshotFrom, type StateValue } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { createChatActor, type ChatActor } from '../../../src/app/chat-runtime';
import { describeAgentFailure, describeFailure } from '../../../src/components/describe-failure';
import { chatRequestSchema, chatResumeRequestSchema, chatStopRequestSchema, type ChatRequest, type ChatResumeRequest } from '../../../src/contract/chat';
import { MESSAGE_TEXT_MAX } from '../../../src/contract/constants';
import type { Conversation } from '../../../src/contract/conversations';
import { endpoints } from '../../../src/contract/endpoints';
import type { Message } from '../../../src/contract/messages';
import { i18n } from '../../../src/i18n';
import { chatMachine, isAnswering, REATTACH_FIRST_MS, type ChatMessage, type ChatRoute } from '../../../src/machines/chat.machine';
import type { StreamEnding } from '../../../src/machines/chat-stream.actor';
import ChatScreen from '../../../src/screens/chat/chat-screen';
import { createScreenEvents } from '../../../src/services/screen-events';
import { getVisitorId } from '../../../src/services/visitor';
import { seedConversation, visitorOwner } from '../../msw/db';
import { failBody } from '../../msw/handlers';
import { recordRequests, server, type SeenRequest } from '../../msw/server';
import { eventStream, type StreamStep } from '../../msw/sse';
import { renderWithRuntime, switchToEnglish, type Screen } from '../harness';
import { joinedWalks } from './joined-walks';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * The chat's paths are generated from the machine that ships: every answer the server can give
 * (to loading a chat, creating one, and each step of the answer's stream) and every click is an
 * event of the traversal. Each path is played on the production chat actor (its real calls, made
 * to the fake API), the fake API holding every request until the path says how the server answers
 * it; a few long walks that together take every transition the screen shows (each state, event and
 * outcome) are played on the real chat screen, so its wiring (buttons, the address, the history,
 * the browser going online) is checked too. After each step what the person sees is checked
 * against rules written from the product (a failed send keeps the message, a broken stream keeps
 * the partial answer and offers a retry, Stop keeps what was shown, a retry answers the stored
 * question without sending it again; an answer being written is attached to, read again after a
 * lost connection, and after Stop shows exactly what the server stored), never read from the
 * machine: on the actor, from what the screen reads of it (the same derivations the screen makes).
 */
type Snapshot = SnapshotFrom<typeof chatMachine>;
/** An event of the traversal, with its payload (a click's text, a stream's failure kind...). */
type AnyEvent = ModelEvent & { [key: string]: unknown };

const QUESTION = 'Bakery posts?';
const PARTIAL = 'Post your morning bake';
const REFUSAL = 'This conversation is with another agent; start a new conversation to talk to this one.';
const CREATE_REFUSAL = 'Agent not found';
/** What the reader is told of those refusals (400 and 404): their language's words, never the server's English. */
const REFUSAL_SAID = 'The request was not accepted. Check what you entered and try again.';
const CREATE_REFUSAL_SAID = 'This could not be found. It may have been deleted, or the link may be wrong.';
const AGENT_ERROR = 'The model is overloaded';
const STORED_TITLE = 'Sourdough';
const STORED_QUESTION = 'How long to proof sourdough?';
const STORED_ANSWER = 'Overnight, in the fridge';
/** What the server wrote while the page was not reading: the page shows it once it reads again. */
const CONTINUED = ', covered';
/** What the server had written when it was told to stop: the page shows that, not what it had. */
const STOPPED_AT = ' and then';

const conversationOf = (conversationId: string): Conversation => ({
  conversationId,
  source: 'agent',
  sourceId: 'SpecialNoAgentFallback',
  title: STORED_TITLE,
  pinned: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
});
const storedMessages = (conversationId: string, answerStatus: 'complete' | 'incomplete' | 'streaming'): Message[] => [
  { messageId: 'stored-q', conversationId, role: 'user', content: STORED_QUESTION, status: 'complete', files: [], createdAt: '2025-01-01T00:00:01.000Z' },
  { messageId: 'stored-a', conversationId, role: 'assistant', content: STORED_ANSWER, status: answerStatus, files: [], createdAt: '2025-01-01T00:00:02.000Z' },
];

/** How the question's stream ended (its actor's output), as the server's answer to the chat POST. */
const streamEnded = (output: StreamEnding) => ({ type: 'xstate.done.actor.chatStream', output });
/** The same ending, of an answer read again. */
const readAgain = (event: AnyEvent): AnyEvent => (event.type === 'xstate.done.actor.chatStream' ? { ...event, type: 'xstate.done.actor.resumeStream' } : event);

/** The events of the traversal: what people do, and what the server answers. */
const E = {
  type: { type: 'draft.change', text: QUESTION },
  send: { type: 'send' },
  stop: { type: 'stop' },
  retry: { type: 'retry' },
  continue: { type: 'continue' },
  reload: { type: 'reload' },
  newChat: { type: 'route.changed', market: false, conversationId: null, agentId: null },
  openStored: { type: 'route.changed', market: false, conversationId: 'stored', agentId: null },
  /** The screen reports the address the new conversation was given. */
  addressOfCreated: { type: 'route.changed', market: false, conversationId: 'created', agentId: null },
  loadedFinished: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'complete') } },
  loadedCut: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'incomplete') } },
  loadedWriting: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'streaming') } },
  /** A conversation that opens on an answer with no question before it (being written): nothing to ask again. */
  loadedAnswerAlone: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'streaming').slice(1) } },
  loadFailed: { type: 'xstate.error.actor.loadConversation', error: new Error('down') },
  created: { type: 'xstate.done.actor.createConversation', output: conversationOf('created') },
  createRefused: { type: 'xstate.error.actor.createConversation', error: new Error(CREATE_REFUSAL) },
  accepted: { type: 'stream.accepted', conversationId: 'created', userMessageId: 'u', replyMessageId: 'r' },
  delta: { type: 'stream.delta', text: PARTIAL },
  ended: streamEnded({ kind: 'complete', messageIds: ['u', 'r'] }),
  refused: streamEnded({ kind: 'failed', failure: { kind: 'rejected', message: REFUSAL } }),
  unreachable: streamEnded({ kind: 'lost', failure: { kind: 'network', message: '' } }),
  agentError: streamEnded({ kind: 'agent-error', failure: { kind: 'agent-error', message: AGENT_ERROR } }),
  broke: streamEnded({ kind: 'lost', failure: { kind: 'incomplete', message: '' } }),
  selected: { type: 'xstate.done.actor.selectVersion', output: [] },
  selectFailed: { type: 'xstate.error.actor.selectVersion', error: new Error('down') },
  malformed: streamEnded({ kind: 'failed', failure: { kind: 'malformed', message: '' } }),
  stoppedElsewhere: streamEnded({ kind: 'stopped' }),
  online: { type: 'connection.restored' },
  /** The wait before reading a lost answer again by itself has passed (the server may be back). */
  waited: { type: 'xstate.after.reattachDelay.chat.detached' },
  stopStored: { type: 'xstate.done.actor.stopAnswer', output: {} },
  findFailed: { type: 'xstate.error.actor.findQuestion', error: new Error('down') },
  stopFailed: { type: 'xstate.error.actor.stopAnswer', error: new Error('down') },
} satisfies Record<string, AnyEvent>;

/** A message the page shows, as the server stores it. */
const asStored = (message: ChatMessage, conversationId: string): Message => ({
  messageId: message.serverId!,
  conversationId,
  role: message.role,
  content: message.content,
  status: message.status === 'sending' || message.status === 'streaming' ? 'complete' : message.status,
  files: message.files,
  createdAt: message.sentAt ?? '2025-01-01T00:00:00.000Z',
});

/** The new answer the server stored when the page never heard it taken (its id as the server names it). */
const FOUND_ANSWER = 'r-found';

/**
 * The conversation as the server stores it when the page looks for what it sent and never heard
 * taken: what the page showed before it, then (`found`) the question with its answer, or the new
 * version of the answer, being written or finished, or (`nothing`) the conversation as the page
 * had it (for a new answer, with the answer it was asked for).
 */
const storedAfterLoss = (shown: ChatMessage[], conversationId: string, found: 'streaming' | 'complete' | 'nothing', previous: Message | null = null): Message[] => {
  const newAnswer = shown.at(-2)?.serverId != null;
  const before = shown.slice(0, newAnswer ? -1 : -2).map((message) => asStored(message, conversationId));
  const answerVersions = shown.at(-1)!.siblingIds;
  if (found === 'nothing') return newAnswer && previous ? [...before, previous] : before;
  const answer: Message = { messageId: FOUND_ANSWER, conversationId, role: 'assistant', content: PARTIAL, status: found, files: [], createdAt: '2025-01-01T00:00:06.000Z' };
  if (newAnswer) return [...before, { ...answer, siblingIds: [...answerVersions, FOUND_ANSWER] }];
  const question = shown.at(-2)!;
  return [
    ...before,
    { messageId: 'u-found', conversationId, role: 'user', content: question.content.trim(), status: 'complete', files: question.files, createdAt: '2025-01-01T00:00:05.000Z' },
    answer,
  ];
};

/** The page looks for a question it never heard taken, and the server shows the conversation so. */
const lookedFor = (state: Snapshot, found: 'streaming' | 'complete' | 'nothing'): AnyEvent => ({
  type: 'xstate.done.actor.findQuestion',
  output: { conversation: conversationOf('created'), messages: storedAfterLoss(state.context.messages, 'created', found) },
  found,
});

/** Events about a message on the page: they name it by the key the machine gave it. */
const lastAnswerKey = (state: Snapshot) => state.context.messages.findLast((message) => message.role === 'assistant')?.key ?? '';
const regenerate = (state: Snapshot): AnyEvent => ({ type: 'regenerate', key: lastAnswerKey(state) });
const showPrevious = (state: Snapshot): AnyEvent => ({ type: 'version.show', key: lastAnswerKey(state), offset: -1 });

/** The state's own name (the settled states live under `settled`, the unfinished of those under `unfinished`). */
const leafOf = (value: StateValue): string => (typeof value === 'string' ? value : leafOf(Object.values(value)[0]!));
const stateOf = (state: Snapshot) => leafOf(state.value);

/** What a person can tell apart in a state (and what decides the events that make sense there). */
const flagsOf = (state: Snapshot): string[] => {
  const { context } = state;
  const flags: string[] = [];
  if (context.draft) flags.push('draft');
  if (context.addressPending) flags.push('address-pending');
  if (context.messages.length > 0 && context.messages.every((message) => message.role === 'assistant')) flags.push('answer-alone');
  if (stateOf(state) === 'idle') {
    if (context.conversationId) flags.push('conversation');
    const last = context.messages.at(-1);
    if (last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed')) flags.push('unfinished');
  }
  // an answer cut short with text can be written on; one cut short before its first word cannot
  if (['idle', 'incomplete', 'failed', 'cancelled'].includes(stateOf(state)) && context.messages.at(-1)?.content) flags.push('with-text');
  if (stateOf(state) === 'done' && (context.messages.at(-1)?.siblingIds.length ?? 0) > 1) flags.push('versions');
  if (state.matches('confirming')) {
    flags.push(context.outgoing?.kind === 'regenerate' ? 'new-answer' : 'question');
    if (context.stopWanted) flags.push('stop-wanted');
  }
  if (state.matches('streaming')) {
    const outgoing = context.outgoing;
    if (outgoing?.kind === 'regenerate') flags.push('new-answer');
    else if (outgoing?.kind !== 'retry') flags.push('question');
    else {
      const kind = outgoing.continues ? 'continue' : 'retry';
      flags.push(outgoing.accepted ? kind : `${kind}-of-${outgoing.previous.status}`);
    }
    // a continuation is answering once text comes past what it had
    const had = outgoing?.kind === 'retry' && outgoing.continues ? outgoing.previous.content.length : 0;
    if (outgoing?.accepted) flags.push((context.messages.at(-1)?.content.length ?? 0) > had ? 'answering' : 'accepted');
    if (context.stopWanted) flags.push('stop-wanted');
  }
  return flags;
};
const serializeState = (state: Snapshot) => [stateOf(state), ...flagsOf(state)].join(' ');

/** The events worth playing in each state: bounded, so that every transition costs one screen. */
const eventsFor = (state: Snapshot): AnyEvent[] => {
  const flags = flagsOf(state);
  const has = (flag: string) => flags.includes(flag);
  const typeOrSend = has('draft') ? [E.send] : [E.type];
  const continueOrNot = has('with-text') ? [E.continue] : [];
  // Once created, the conversation's address is the next thing the screen reports.
  if (has('address-pending')) return [E.addressOfCreated];
  // An answer alone ends, or is stopped, like any other; then it offers no Retry (checkKeptAnswer) and no new answer.
  if (has('answer-alone')) {
    if (stateOf(state) === 'resuming') return [E.stoppedElsewhere, E.agentError, E.stop].map(readAgain);
    return stateOf(state) === 'stopping' ? [E.stopStored] : [E.retry];
  }
  switch (stateOf(state)) {
    case 'loading':
      return [E.loadedFinished, E.loadedCut, E.loadedWriting, E.loadedAnswerAlone, E.loadFailed];
    case 'loadFailed':
      return [E.reload];
    case 'creatingConversation':
      return [E.created, E.createRefused];
    case 'idle':
      if (!has('conversation')) return has('draft') ? [E.send] : [E.type, E.openStored];
      return [...typeOrSend, ...(has('unfinished') ? [E.retry, ...continueOrNot] : []), E.newChat];
    case 'streaming':
      if (has('stop-wanted')) return [E.accepted, E.refused];
      // a new answer is a new message: the server names it with a new id; it outlives a lost connection and stops on the server too
      if (has('new-answer')) return has('accepted') || has('answering') ? [E.ended, E.broke, E.stop] : [{ ...E.accepted, replyMessageId: 'r2' }, E.refused, E.unreachable, E.stop];
      if (!has('accepted') && !has('answering')) return [E.accepted, E.refused, E.stop, ...(has('question') ? [E.unreachable, E.agentError] : [])];
      // the continuation's text comes after the text it had; lost, it is read again from all it shows
      if (has('continue') && has('accepted')) return [E.delta, E.broke, E.stop];
      return [...(has('question') && has('accepted') ? [E.delta] : []), E.ended, E.broke, E.malformed, E.agentError, E.stop];
    case 'resuming':
      return [E.ended, E.stoppedElsewhere, E.agentError, E.broke, E.refused, E.stop].map(readAgain);
    case 'detached':
      return [E.online, E.waited, E.retry, E.stop];
    case 'confirming':
      return has('stop-wanted')
        ? [lookedFor(state, 'streaming'), lookedFor(state, 'nothing')]
        : [lookedFor(state, 'streaming'), lookedFor(state, 'complete'), lookedFor(state, 'nothing'), E.findFailed, E.stop];
    case 'stopping':
      return [E.stopStored, E.stopFailed];
    case 'done':
      if (has('versions')) return [showPrevious(state)];
      return has('draft') ? [E.send] : [E.type, E.newChat, regenerate(state)];
    case 'switchingVersion':
      return [E.selected, E.selectFailed];
    case 'incomplete':
      return [...typeOrSend, E.retry, ...continueOrNot];
    default:
      return [E.retry, ...continueOrNot];
  }
};

const { model, paths, transitionCount } = productionPaths(chatMachine, { events: eventsFor, input: {}, serializeState });

/** "stream.failed rejected": one event as a person or the server would tell it, without the context. */
const describeEvent = (event: AnyEvent) => {
  const said = describeEvents([event], (done) => (done.output as { messages?: Message[] } | undefined)?.messages?.at(-1)?.status ?? 'ok');
  const ending = event.output as StreamEnding | undefined;
  if (event.type === 'xstate.done.actor.chatStream' || event.type === 'xstate.done.actor.resumeStream') return `${said} ${ending && 'failure' in ending ? ending.failure.kind : ending?.kind}`;
  if (event.type === 'xstate.done.actor.findQuestion') return `looked for what was sent → ${event.found === 'nothing' ? 'not there' : `found, ${String(event.found)}`}`;
  if (event.type === 'xstate.done.actor.loadConversation') {
    const { messages } = event.output as { messages: Message[] };
    return `${said} ${messages.at(-1)!.status}${messages.length === 1 ? ', an answer alone' : ''}`;
  }
  if (event.type === 'route.changed') return `${said} ${event.conversationId === null ? 'new chat' : event.conversationId === 'created' ? 'new address' : 'stored chat'}`;
  return said;
};

/** "send, createConversation → ok, stream.failed rejected": what happens, without the context. */
const describePath = (path: { events: AnyEvent[] }) => path.events.map(describeEvent).join(', ');

/**
 * The walks on the screen take every transition as a person tells it apart on the screen: from a
 * state, an event, to a state. What the actor tells apart beyond that (a retry of a failed answer
 * or of an incomplete one, Stop before or after the server took the question) is played on the
 * actor, path by path; the screen shows those the same way.
 */
const screenTransition = (from: Snapshot, event: AnyEvent, to: Snapshot) => `${stateOf(from)} --${describeEvent(event)}--> ${stateOf(to)}`;

const screenWalks = (() => {
  try {
    return joinedWalks(chatMachine, model, { events: eventsFor, input: {}, serializeState, transitionKey: screenTransition, maxSteps: 30 });
  } catch (error) {
    // A machine the walks cannot follow fails the walk's test, not the file as it loads.
    const broken = { ...paths[0]!, events: [], description: 'the machine cannot be walked', test: () => Promise.reject(error) };
    return { walks: [broken], allKeys: new Set<string>(), taken: new Set<string>(), error };
  }
})();
console.log(
  `Chat (production machine): ${transitionCount} transitions; running ${paths.length} paths on the actor, ` +
    `${screenWalks.walks.length} walks of ${screenWalks.walks.map((walk) => walk.events.length).join(', ')} steps on the screen (${screenWalks.allKeys.size} transitions as the screen shows them)`,
);

/** One chat POST the fake server holds: the path says how it answers and how the stream goes on. */
type Post = {
  request: ChatRequest;
  signal: AbortSignal;
  respond: (response: Response) => void;
  /** The rest of the stream, once it is open; `last` closes it after these steps. */
  say: ((steps: StreamStep[], last?: boolean) => void) | null;
};

type Held = { call: 'messages' | 'create' | 'select' | 'stop'; answer: (response: Response | undefined) => void };

/** One resume call the fake server holds, like a chat POST. */
type Resume = Omit<Post, 'request'> & { request: ChatResumeRequest };

type Shown = { text: string; status: string };

/** What a person does: on the screen, a click or keystroke; on the actor, the event the screen would send. */
type Person = {
  type: (text: string) => Promise<void>;
  send: () => Promise<void>;
  stop: () => Promise<void>;
  retry: () => Promise<void>;
  continue: () => Promise<void>;
  newAnswer: () => Promise<void>;
  previousVersion: () => Promise<void>;
  reload: () => Promise<void>;
  newChat: () => Promise<void>;
  openStored: () => Promise<void>;
  /** The address names the conversation just created (the screen reports it as it changes). */
  addressNamed: () => Promise<void>;
  /** The browser is online again. */
  online: () => Promise<void>;
};

type World = {
  /** The rendered screen, for the walks played on it. */
  view: Screen | null;
  /** The production chat actor the path is played on (the one behind the screen, for the walks). */
  chat: ChatActor;
  person: Person;
  page: Page;
  /** Where the browser is now. */
  url: () => string;
  /** The chat's waits run on it: the path says when time passes. */
  clock: SimulatedClock;
  posts: Post[];
  resumes: Resume[];
  held: Held[];
  seen: SeenRequest[];
  storedId: string;
  /** The last thing that happened: a click, or the server's answer. */
  last: string;
  expected: string;
  /** What the page must show, by the product's rules. */
  draft: string;
  alert: string | null;
  question: { text: string; id: string | null } | null;
  answer: Shown | null;
  /** The answer on screen when Retry, Continue or New answer was clicked: a refused one puts it back. */
  beforeRetry: Shown | null;
  /** The answers of the question on screen, by id, oldest first (versions). */
  answerIds: string[];
  /** Which of them is on screen (1-based). */
  shownVersion: number;
  accepted: boolean;
  conversation: boolean;
  /** Chat POSTs the page must have sent so far: never one more. */
  sent: number;
  /** Where the page is (`new`, `stored`, `created`), and the text left unsent in each place. */
  place: string;
  drafts: Record<string, string>;
  /** Resume calls the page must have made so far. */
  resumed: number;
  /** The id of the answer on screen, once the server named it. */
  replyId: string | null;
  /** Stop was clicked before the server took the question. */
  stopWanted: boolean;
  /** The conversation was created here and the address does not name it yet. */
  addressPending: boolean;
  /** The exchanges above the one shown last, newest last: a question sent after them and given back leaves them as they were. */
  earlier: Exchange[];
};

/** One question and its answer on the page, as the world tracks the last one. */
type Exchange = Pick<World, 'question' | 'answer' | 'answerIds' | 'shownVersion' | 'replyId' | 'beforeRetry' | 'accepted'>;


/** Leaving a place keeps its unsent text; the place shown gives back its own. */
const moveTo = (world: World, place: string) => {
  world.drafts[world.place] = world.draft;
  world.place = place;
  world.draft = world.drafts[place] ?? '';
};

/**
 * Where the page must be after what last happened, written from the product's rules and not read
 * from the machine, so a machine that goes wrong cannot make its own paths pass.
 */
const EXPECTED_AFTER: Record<string, string> = {
  'opened the chat': 'idle',
  'typed a question': 'unchanged',
  'sent in a new chat': 'creatingConversation',
  'sent in a conversation': 'streaming',
  'server created the conversation': 'streaming',
  'server refused to create the conversation': 'idle',
  'server accepted the question': 'streaming',
  'server sent part of the answer': 'streaming',
  'server finished the answer': 'done',
  'the stream broke after the answer began': 'resuming',
  'the stream turned unreadable after the answer began': 'incomplete',
  'the agent failed after the answer began': 'failed',
  'server refused the question': 'idle',
  'server refused the first question, and its empty conversation was deleted': 'idle',
  'the connection broke before the server said it took the question': 'confirming',
  'the connection broke before the server said it took the new answer': 'confirming',
  'the new answer was in the conversation, being written': 'resuming',
  'the new answer was in the conversation, being written, after stop was clicked': 'stopping',
  'the new answer was in the conversation, finished': 'done',
  'the new answer was not in the conversation': 'idle',
  'the conversation could not be read to look for the new answer': 'idle',
  'clicked stop while the page looked for the question': 'unchanged',
  'the question was in the conversation, its answer being written': 'resuming',
  'the question was in the conversation, its answer being written, after stop was clicked': 'stopping',
  'the question was in the conversation, answered': 'done',
  'the question was not in the conversation': 'idle',
  'the conversation could not be read to look for the question': 'idle',
  'the agent failed before taking the question': 'idle',
  'the agent failed before taking the first question, and its empty conversation was deleted': 'idle',
  'server refused the retry of a failed answer': 'failed',
  'server refused the retry of an incomplete answer': 'incomplete',
  'clicked stop': 'stopping',
  'clicked stop before the server took the question': 'unchanged',
  'server accepted the question after stop was clicked': 'stopping',
  'server stopped the answer and sent what it stored': 'cancelled',
  'server could not be reached to stop the answer': 'cancelled',
  'server sent a conversation whose answer is being written': 'resuming',
  'server finished the answer read again': 'done',
  'the answer was stopped elsewhere': 'incomplete',
  'the agent failed while the answer was read again': 'failed',
  'the connection broke while reading the answer again': 'detached',
  'server refused to read the answer again': 'incomplete',
  'the browser is back online': 'resuming',
  'the page waited, then read the answer again by itself': 'resuming',
  'clicked retry while the connection was lost': 'resuming',
  'clicked retry': 'streaming',
  'clicked continue': 'streaming',
  'server accepted the continuation': 'streaming',
  'server sent more of the answer': 'streaming',
  'server refused the continuation of a failed answer': 'failed',
  'server refused the continuation of an incomplete answer': 'incomplete',
  'clicked reload': 'loading',
  'opened a stored conversation': 'loading',
  'server sent the conversation': 'idle',
  'server could not send the conversation': 'loadFailed',
  'clicked new chat': 'idle',
  'the address named the new conversation': 'unchanged',
  'clicked new answer': 'streaming',
  'server refused the new answer': 'idle',
  'clicked previous version': 'switchingVersion',
  'server showed the version': 'idle',
  'server could not show the version': 'idle',
};

const happened = (world: World, what: string) => {
  const next = EXPECTED_AFTER[what];
  expect(next, `no rule for "${what}"`).toBeDefined();
  world.last = what;
  if (next !== 'unchanged') world.expected = next!;
};


const ok = (data: unknown) => HttpResponse.json({ code: 0, msg: 'ok', data, success: true });

const holdCalls = (world: () => World) => {
  const hold = (call: Held['call']) => () => new Promise<Response | undefined>((answer) => world().held.push({ call, answer }));
  server.use(
    http.get(endpoints.messages.path, hold('messages')),
    // Answered by passing the request on to the fake API, which stores the conversation.
    http.post(endpoints.conversationCreate.path, hold('create')),
    http.post(endpoints.messageSelect.path, hold('select')),
    http.post(endpoints.chat.path, async ({ request }) => {
      const body = v.parse(chatRequestSchema, await request.json());
      return new Promise<Response>((respond) => world().posts.push({ request: body, signal: request.signal, respond, say: null }));
    }),
    http.post(endpoints.chatResume.path, async ({ request }) => {
      const body = v.parse(chatResumeRequestSchema, await request.json());
      return new Promise<Response>((respond) => world().resumes.push({ request: body, signal: request.signal, respond, say: null }));
    }),
    http.post(endpoints.chatStop.path, async ({ request }) => {
      const body = v.parse(chatStopRequestSchema, await request.json());
      expect(body.messageId).toBe(world().replyId);
      return hold('stop')();
    }),
  );
};

/** What the fake server holds is no DOM: looked at often, so a path on the actor waits no longer than the call takes. */
const eventually = (check: () => void) => vi.waitFor(check, { interval: 1, timeout: 5_000 });

const answerHeld = async (world: World, call: Held['call'], response: Response | undefined) => {
  await eventually(() => expect(world.held.map((held) => held.call)).toContain(call));
  world.held.splice(world.held.findIndex((held) => held.call === call), 1)[0]!.answer(response);
};

const currentPost = async (world: World): Promise<Post> => {
  await eventually(() => expect(world.posts).toHaveLength(world.sent));
  return world.posts.at(-1)!;
};

/** The resume call under way: it reads the answer from the text on screen, and no question goes. */
const currentResume = async (world: World): Promise<Resume> => {
  await eventually(() => expect(world.resumes).toHaveLength(world.resumed));
  const resume = world.resumes.at(-1)!;
  expect(resume.request).toEqual({ conversationId: expect.any(String), messageId: world.replyId, offset: world.answer!.text.length });
  return resume;
};

/** Answers the resume call: from the offset asked, what the server wrote meanwhile, then `last`. */
const answerResume = async (world: World, last: StreamStep[]) => {
  const resume = await currentResume(world);
  const messageId = world.replyId!;
  resume.respond(
    eventStream([{ type: 'resume', messageId, offset: resume.request.offset }, { type: 'delta', messageId, text: CONTINUED }, ...last], { signal: resume.signal }),
  );
  world.answer = { ...world.answer!, text: world.answer!.text + CONTINUED };
};

/** Opens the held stream with the start event; the rest comes as the path goes on. */
const openStream = (post: Post, first: StreamStep[]) => {
  let next!: (steps: readonly StreamStep[]) => void;
  const later = (): StreamStep => ({ then: new Promise<readonly StreamStep[]>((resolve) => (next = resolve)) });
  post.say = (steps, last = false) => next(last ? steps : [...steps, later()]);
  post.respond(eventStream([...first, later()], { signal: post.signal }));
};

/** The question goes back in the box, and the exchange before it is the last one shown again. */
const backInTheBox = (world: World, alert: string) => {
  world.draft = world.question?.text ?? world.draft;
  Object.assign(world, world.earlier.pop() ?? { question: null, answer: null });
  // The page says one thing at a time: above an unfinished answer that offers its Retry, that
  // answer's own status, not why the question came back (chat-screen.tsx shows no alert then).
  const retryOffered = world.question?.id != null && (world.answer?.status === 'incomplete' || world.answer?.status === 'failed');
  world.alert = retryOffered ? null : alert;
};

/** Nothing said yet: a new chat, or another conversation before it loads. */
const blank = (world: World) => {
  world.question = null;
  world.answer = null;
  world.earlier = [];
};

const sent = (world: World) => {
  if (world.question) {
    const { question, answer, answerIds, shownVersion, replyId, beforeRetry, accepted } = world;
    world.earlier.push({ question, answer, answerIds, shownVersion, replyId, beforeRetry, accepted });
  }
  world.question = { text: world.draft, id: null };
  world.answer = { text: '', status: 'streaming' };
  world.draft = '';
  world.alert = null;
  world.accepted = false;
  world.replyId = null;
  world.stopWanted = false;
};

/** The page reads the answer again: one resume call, the answer shown as being written. */
const reading = (world: World) => {
  world.resumed += 1;
  world.answer = { ...world.answer!, status: 'streaming' };
  world.alert = null;
};

const playEnding = (world: World, event: AnyEvent) => {
  const ending = event.output as StreamEnding;
  if (ending.kind === 'complete') return endings.ended(world, event);
  if (ending.kind === 'stopped') return endings.stopped(world, event);
  return endings.failed(world, { ...event, kind: ending.failure.kind });
};

const play: Record<string, (world: World, event: AnyEvent) => Promise<void>> = {
  'draft.change': async (world) => {
    await world.person.type(QUESTION);
    world.draft = QUESTION;
    happened(world, 'typed a question');
  },
  send: async (world) => {
    const inConversation = world.conversation;
    sent(world);
    if (inConversation) world.sent += 1;
    happened(world, inConversation ? 'sent in a conversation' : 'sent in a new chat');
    await world.person.send();
  },
  stop: async (world) => {
    if (world.expected === 'confirming') {
      world.stopWanted = true;
      happened(world, 'clicked stop while the page looked for the question');
    } else if (world.expected === 'streaming' && !world.accepted) {
      world.stopWanted = true;
      happened(world, 'clicked stop before the server took the question');
    } else {
      happened(world, 'clicked stop');
    }
    await world.person.stop();
  },
  'xstate.done.actor.stopAnswer': async (world) => {
    const content = world.answer!.text + STOPPED_AT;
    world.answer = { text: content, status: 'incomplete' };
    happened(world, 'server stopped the answer and sent what it stored');
    const stored: Message = {
      messageId: world.replyId!,
      conversationId: 'any',
      role: 'assistant',
      content,
      status: 'incomplete',
      files: [],
      createdAt: '2025-01-01T00:00:03.000Z',
    };
    await answerHeld(world, 'stop', ok(stored));
  },
  'xstate.error.actor.stopAnswer': async (world) => {
    world.answer = { ...world.answer!, status: 'incomplete' };
    happened(world, 'server could not be reached to stop the answer');
    await answerHeld(world, 'stop', HttpResponse.error());
  },
  'connection.restored': async (world) => {
    reading(world);
    happened(world, 'the browser is back online');
    await world.person.online();
  },
  'xstate.after.reattachDelay.chat.detached': async (world) => {
    reading(world);
    happened(world, 'the page waited, then read the answer again by itself');
    // A lost answer is read again after a first wait of a second; not a moment before.
    world.clock.increment(REATTACH_FIRST_MS - 1);
    expect(world.chat.getSnapshot().matches('detached')).toBe(true);
    world.clock.increment(1);
  },
  retry: async (world) => {
    if (world.expected === 'detached') {
      reading(world);
      happened(world, 'clicked retry while the connection was lost');
      await world.person.retry();
      return;
    }
    world.stopWanted = false;
    world.beforeRetry = world.answer;
    world.answer = { text: '', status: 'streaming' };
    world.alert = null;
    world.accepted = false;
    world.sent += 1;
    happened(world, 'clicked retry');
    await world.person.retry();
    // a retry names the stored question and never sends its text again
    const post = await currentPost(world);
    expect(post.request.retryMessageId).toBe(world.question!.id);
    expect(post.request.text).toBeUndefined();
  },
  continue: async (world) => {
    world.stopWanted = false;
    world.beforeRetry = world.answer;
    // the answer keeps its text: what comes is written after it
    world.answer = { ...world.answer!, status: 'streaming' };
    world.alert = null;
    world.accepted = false;
    world.sent += 1;
    happened(world, 'clicked continue');
    await world.person.continue();
    // a continuation names the answer, and sends neither the question nor any text
    const post = await currentPost(world);
    expect(post.request).toEqual({ conversationId: expect.any(String), agentId: expect.any(String), files: [], continueMessageId: world.replyId });
  },
  regenerate: async (world) => {
    world.stopWanted = false;
    world.beforeRetry = world.answer;
    world.answer = { text: '', status: 'streaming' };
    world.alert = null;
    world.accepted = false;
    world.sent += 1;
    happened(world, 'clicked new answer');
    await world.person.newAnswer();
    // a new answer names the answer it is a version of, and never sends the question again
    const post = await currentPost(world);
    expect(post.request.regenerateMessageId).toBe(world.answerIds.at(-1));
    expect(post.request.text).toBeUndefined();
  },
  'version.show': async (world) => {
    happened(world, 'clicked previous version');
    await world.person.previousVersion();
  },
  'xstate.done.actor.selectVersion': async (world) => {
    const [first] = world.answerIds;
    const conversationId = (await currentPost(world)).request.conversationId;
    world.answer = { ...world.beforeRetry!, status: 'complete' };
    world.shownVersion = 1;
    happened(world, 'server showed the version');
    await answerHeld(
      world,
      'select',
      ok([
        { messageId: world.question!.id, conversationId, role: 'user', content: world.question!.text, status: 'complete', files: [], createdAt: '2025-01-01T00:00:01.000Z', siblingIds: [world.question!.id] },
        { messageId: first, conversationId, role: 'assistant', content: world.answer.text, status: 'complete', files: [], createdAt: '2025-01-01T00:00:02.000Z', siblingIds: world.answerIds },
      ]),
    );
  },
  'xstate.error.actor.selectVersion': async (world) => {
    world.alert = 'That version could not be shown. Try again.';
    happened(world, 'server could not show the version');
    await answerHeld(world, 'select', HttpResponse.json(failBody('down'), { status: 500 }));
  },
  reload: async (world) => {
    world.alert = null;
    happened(world, 'clicked reload');
    await world.person.reload();
  },
  'route.changed': async (world, event) => {
    if (event.conversationId === 'created') {
      // the screen reports it when the address changes
      world.addressPending = false;
      happened(world, 'the address named the new conversation');
      await world.person.addressNamed();
      return;
    }
    if (event.conversationId === null) {
      world.conversation = false;
      blank(world);
      world.alert = null;
      moveTo(world, 'new');
      happened(world, 'clicked new chat');
      await world.person.newChat();
      return;
    }
    world.conversation = true;
    blank(world);
    moveTo(world, 'stored');
    happened(world, 'opened a stored conversation');
    await world.person.openStored();
  },
  'xstate.done.actor.loadConversation': async (world, event) => {
    const { messages } = event.output as { messages: Message[] };
    const [question, answer] = storedMessages(world.storedId, messages.at(-1)!.status as 'complete' | 'incomplete' | 'streaming');
    const alone = messages.length === 1;
    blank(world);
    world.question = alone ? null : { text: question!.content, id: question!.messageId };
    world.answer = { text: answer!.content, status: answer!.status };
    world.answerIds = [answer!.messageId];
    world.shownVersion = 1;
    world.replyId = answer!.messageId;
    world.accepted = true;
    if (answer!.status === 'streaming') {
      world.resumed += 1;
      happened(world, 'server sent a conversation whose answer is being written');
    } else {
      happened(world, 'server sent the conversation');
    }
    await answerHeld(world, 'messages', ok(alone ? [answer] : [question, answer]));
  },
  'xstate.done.actor.findQuestion': async (world, event) => {
    const found = event.found as 'streaming' | 'complete' | 'nothing';
    const post = await currentPost(world);
    const { conversationId } = post.request;
    const newAnswer = post.request.regenerateMessageId !== undefined;
    const previous: Message | null = newAnswer
      ? { messageId: world.answerIds.at(-1)!, conversationId, role: 'assistant', content: world.beforeRetry!.text, status: 'complete', files: [], createdAt: '2025-01-01T00:00:02.000Z', siblingIds: world.answerIds }
      : null;
    // the server stores what the page showed before (its ids are the page's, so read from it)
    const stored = storedAfterLoss(world.chat.getSnapshot().context.messages, conversationId, found, previous);
    const what = newAnswer ? 'the new answer' : 'the question';
    if (found === 'nothing') {
      if (newAnswer) {
        world.answer = world.beforeRetry;
        world.alert = 'A new answer could not be started; the answer shown is kept. Try again.';
      } else {
        backInTheBox(world, 'Could not reach the server. Your message was not sent; try again.');
      }
      happened(world, `${what} was not in the conversation`);
      await answerHeld(world, 'messages', ok(stored));
      return;
    }
    // taken after all: what is shown is what is stored, never given back, never sent again
    const answer = stored.at(-1)!;
    if (!newAnswer) {
      const question = stored.at(-2)!;
      world.question = { text: question.content, id: question.messageId };
    }
    world.answer = { text: answer.content, status: found };
    world.answerIds = answer.siblingIds ?? [answer.messageId];
    world.shownVersion = world.answerIds.length;
    world.replyId = answer.messageId;
    world.accepted = true;
    const being = newAnswer ? 'the new answer was in the conversation, ' : 'the question was in the conversation, ';
    if (found === 'complete') happened(world, `${being}${newAnswer ? 'finished' : 'answered'}`);
    else if (world.stopWanted) happened(world, `${being}${newAnswer ? 'being written' : 'its answer being written'}, after stop was clicked`);
    else {
      world.resumed += 1;
      happened(world, `${being}${newAnswer ? 'being written' : 'its answer being written'}`);
    }
    world.stopWanted = false;
    await answerHeld(world, 'messages', ok(stored));
  },
  'xstate.error.actor.findQuestion': async (world) => {
    const newAnswer = (await currentPost(world)).request.regenerateMessageId !== undefined;
    if (newAnswer) {
      world.answer = world.beforeRetry;
      world.alert = 'A new answer could not be started; the answer shown is kept. Try again.';
    } else {
      backInTheBox(world, 'Could not reach the server. Your message was not sent; try again.');
    }
    happened(world, `the conversation could not be read to look for ${newAnswer ? 'the new answer' : 'the question'}`);
    await answerHeld(world, 'messages', HttpResponse.json(failBody('down'), { status: 500 }));
  },
  'xstate.error.actor.loadConversation': async (world) => {
    world.alert = 'The conversation could not be loaded';
    happened(world, 'server could not send the conversation');
    await answerHeld(world, 'messages', HttpResponse.json(failBody('down'), { status: 500 }));
  },
  'xstate.done.actor.createConversation': async (world) => {
    world.conversation = true;
    world.addressPending = true;
    world.place = 'created';
    world.sent += 1;
    happened(world, 'server created the conversation');
    await answerHeld(world, 'create', undefined);
  },
  'xstate.error.actor.createConversation': async (world) => {
    backInTheBox(world, `The conversation could not be created. Your message is kept; try again. (${CREATE_REFUSAL_SAID})`);
    happened(world, 'server refused to create the conversation');
    await answerHeld(world, 'create', HttpResponse.json(failBody(CREATE_REFUSAL), { status: 404 }));
  },
  'stream.accepted': async (world) => {
    const post = await currentPost(world);
    if (post.request.continueMessageId) {
      // the same answer, named again: no new version
      expect(post.request.continueMessageId).toBe(world.replyId);
      world.accepted = true;
      happened(world, world.stopWanted ? 'server accepted the question after stop was clicked' : 'server accepted the continuation');
      world.stopWanted = false;
      openStream(post, [{ type: 'start', conversationId: post.request.conversationId, userMessageId: world.question!.id!, replyMessageId: world.replyId! }]);
      return;
    }
    const userMessageId = post.request.retryMessageId ?? (post.request.regenerateMessageId ? world.question!.id! : `u-${world.sent}`);
    world.question = { ...world.question!, id: userMessageId };
    world.answerIds = post.request.regenerateMessageId ? [...world.answerIds, `r-${world.sent}`] : [`r-${world.sent}`];
    world.shownVersion = world.answerIds.length;
    world.accepted = true;
    world.replyId = `r-${world.sent}`;
    happened(world, world.stopWanted ? 'server accepted the question after stop was clicked' : 'server accepted the question');
    world.stopWanted = false;
    openStream(post, [{ type: 'start', conversationId: post.request.conversationId, userMessageId, replyMessageId: `r-${world.sent}` }]);
  },
  'stream.delta': async (world) => {
    const post = await currentPost(world);
    world.answer = { ...world.answer!, text: world.answer!.text + PARTIAL };
    happened(world, post.request.continueMessageId ? 'server sent more of the answer' : 'server sent part of the answer');
    post.say!([{ type: 'delta', messageId: world.replyId!, text: PARTIAL }]);
  },
  'xstate.done.actor.chatStream': (world, event) => playEnding(world, event),
  'xstate.done.actor.resumeStream': (world, event) => playEnding(world, event),
};

/** How the server ends the stream being read: `ended`, `stopped` (elsewhere), or `failed` in some way (its `kind`). */
const endings: Record<'ended' | 'stopped' | 'failed', (world: World, event: AnyEvent) => Promise<void>> = {
  ended: async (world) => {
    if (world.expected === 'resuming') {
      await answerResume(world, [{ type: 'end', messageIds: [world.question!.id!, world.replyId!] }]);
      world.answer = { ...world.answer!, status: 'complete' };
      happened(world, 'server finished the answer read again');
      return;
    }
    world.answer = { ...world.answer!, status: 'complete' };
    happened(world, 'server finished the answer');
    (await currentPost(world)).say!([{ type: 'end', messageIds: [world.question!.id!, world.replyId!] }], true);
  },
  stopped: async (world) => {
    await answerResume(world, [{ type: 'incomplete', messageId: world.replyId! }]);
    world.answer = { ...world.answer!, status: 'incomplete' };
    happened(world, 'the answer was stopped elsewhere');
  },
  failed: async (world, event) => {
    const kind = event.kind as string;
    if (world.expected === 'resuming') {
      if (kind === 'rejected') {
        world.answer = { ...world.answer!, status: 'incomplete' };
        happened(world, 'server refused to read the answer again');
        (await currentResume(world)).respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      } else if (kind === 'agent-error') {
        await answerResume(world, [{ type: 'error', msg: AGENT_ERROR }]);
        world.answer = { ...world.answer!, status: 'failed' };
        // an answer alone offers no Retry to say it for it: the alert says why it failed
        if (world.question === null) world.alert = AGENT_ERROR;
        happened(world, 'the agent failed while the answer was read again');
      } else {
        await answerResume(world, []);
        world.answer = { ...world.answer!, status: 'incomplete' };
        happened(world, 'the connection broke while reading the answer again');
      }
      return;
    }
    const post = await currentPost(world);
    const retry = post.request.retryMessageId !== undefined || post.request.continueMessageId !== undefined;
    if (world.accepted) {
      if (kind === 'agent-error') {
        world.answer = { ...world.answer!, status: 'failed' };
        happened(world, 'the agent failed after the answer began');
        post.say!([{ type: 'error', msg: AGENT_ERROR }], true);
      } else if (kind === 'malformed') {
        world.answer = { ...world.answer!, status: 'incomplete' };
        happened(world, 'the stream turned unreadable after the answer began');
        post.say!([{ raw: 'data: {not json\n\n' }], true);
      } else {
        reading(world);
        happened(world, 'the stream broke after the answer began');
        post.say!([], true);
      }
      return;
    }
    if (kind === 'network') {
      // the page cannot tell whether the server took it: it looks in the conversation before saying
      happened(world, `the connection broke before the server said it took the ${post.request.regenerateMessageId === undefined ? 'question' : 'new answer'}`);
      post.respond(HttpResponse.error());
      return;
    }
    if (post.request.regenerateMessageId !== undefined) {
      // A refused new answer changes nothing: the answer that was there comes back.
      world.answer = world.beforeRetry;
      world.alert = `A new answer could not be started; the answer shown is kept. Try again. (${REFUSAL_SAID})`;
      happened(world, 'server refused the new answer');
      post.respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      return;
    }
    if (retry) {
      // A refused retry (or continuation) changes nothing: the answer that was there comes back.
      world.answer = world.beforeRetry;
      const what = post.request.continueMessageId ? 'continuation' : 'retry';
      happened(world, `server refused the ${what} of a${world.beforeRetry!.status === 'failed' ? ' failed' : 'n incomplete'} answer`);
      post.respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      return;
    }
    const agentFailed = kind === 'agent-error';
    backInTheBox(world, agentFailed ? AGENT_ERROR : `Your message was not sent; it is back in the box. Try again. (${REFUSAL_SAID})`);
    const why = agentFailed ? 'the agent failed before taking the' : 'server refused the';
    if (world.question === null) {
      // Nothing else was said in it: the conversation is deleted, and the chat is a new one holding the question.
      world.conversation = false;
      delete world.drafts[world.place];
      world.place = 'new';
      happened(world, `${why} first question, and its empty conversation was deleted`);
    } else {
      happened(world, `${why} question`);
    }
    post.respond(
      agentFailed ? eventStream([{ type: 'error', msg: AGENT_ERROR }], { signal: post.signal }) : HttpResponse.json(failBody(REFUSAL), { status: 400 }),
    );
  },
};

/** What a person sees of the chat, read from the rendered screen or, on the actor, as the screen derives it. */
type Page = {
  /** Waits until the check passes: the page catches up with what happened. */
  until: (check: () => void) => Promise<unknown>;
  draft: () => string;
  questions: () => string[];
  /** The last answer: its text and status; null when there is none. */
  answer: () => Shown | null;
  /** What the alert says; null when there is none. */
  alert: () => Promise<string | null>;
  stopOffered: () => boolean;
  /** What the last answer says of how it ended (incomplete, failed, why). */
  answerLabel: () => string | null;
  /** The last answer offers Retry. */
  retryOffered: () => boolean;
  /** The last answer offers Continue. */
  continueOffered: () => boolean;
  /** "2 / 3" on the last answer with versions; null without. */
  versions: () => string | null;
  /** The buttons that ask or show a version (Edit, New answer, Previous and Next version), as [offered, enabled]. */
  versionButtons: () => [number, number];
  newAnswerEnabled: () => boolean;
  greeting: () => boolean;
  loadFailedShown: () => boolean;
  reloadEnabled: () => boolean;
  connectionLostShown: () => boolean;
};

const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const history = () => screen.getByRole('navigation', { name: 'Chat history' });
const items = (role: 'user' | 'assistant') => [...document.querySelectorAll<HTMLLIElement>(`li[data-role="${role}"]`)];
const lastAnswerItem = () => items('assistant').at(-1);

const screenPage: Page = {
  until: (check) => waitFor(check),
  draft: () => (box() as HTMLTextAreaElement).value,
  questions: () => items('user').map((item) => item.textContent ?? ''),
  answer: () => {
    const item = lastAnswerItem();
    return item ? { status: item.dataset.status ?? '', text: item.querySelector('[data-testid="answer"]')?.textContent ?? '' } : null;
  },
  alert: async () => (screen.queryByRole('alert') ? ((await screen.findByRole('alert')).textContent ?? '') : null),
  stopOffered: () => screen.queryByRole('button', { name: 'Stop generating' }) !== null,
  answerLabel: () => {
    const item = lastAnswerItem();
    return item ? (within(item).queryByRole('status')?.textContent ?? null) : null;
  },
  retryOffered: () => screen.queryByRole('button', { name: 'Retry' }) !== null,
  continueOffered: () => screen.queryByRole('button', { name: 'Continue' }) !== null,
  versions: () => {
    const item = lastAnswerItem();
    return (item && within(item).queryByRole('group', { name: 'Versions' })?.textContent) || null;
  },
  versionButtons: () => {
    const buttons = screen.queryAllByRole<HTMLButtonElement>('button', { name: /^(Edit|New answer|Previous version|Next version)$/ });
    return [buttons.length, buttons.filter((button) => !button.disabled).length];
  },
  newAnswerEnabled: () => !within(lastAnswerItem()!).getByRole<HTMLButtonElement>('button', { name: 'New answer' }).disabled,
  greeting: () => screen.queryByText('How can I help you today?') !== null,
  loadFailedShown: () => screen.queryByText('The conversation could not be loaded') !== null,
  reloadEnabled: () => !screen.getByRole<HTMLButtonElement>('button', { name: 'Reload' }).disabled,
  connectionLostShown: () =>
    screen.queryByText('Connection lost. The answer is still being written; it continues here as soon as the connection is back.') !== null,
};

/**
 * The page as the screen derives it from the actor (`chat-screen.tsx`, `message-list.tsx`,
 * `message-versions.tsx`): the words through the same `describeFailure` and translations. The
 * walks on the screen prove the screen shows it so.
 */
const actorPage = (chat: ChatActor): Page => {
  const now = () => chat.getSnapshot();
  const messages = () => now().context.messages;
  const lastAnswer = () => messages().findLast((message) => message.role === 'assistant');
  const t = i18n.t.bind(i18n);
  return {
    until: eventually,
    draft: () => now().context.draft,
    questions: () => messages().filter((message) => message.role === 'user').map((message) => message.content),
    answer: () => {
      const answer = lastAnswer();
      return answer ? { status: answer.status, text: answer.content } : null;
    },
    alert: async () => {
      const state = now();
      if (state.matches('loadFailed')) return t('chat.loadFailed');
      const { failure } = state.context;
      return failure && !state.can({ type: 'retry' }) ? describeFailure(t, failure, 'en-US') : null;
    },
    stopOffered: () => isAnswering(now()),
    answerLabel: () => {
      const answer = lastAnswer();
      if (answer?.status !== 'incomplete' && answer?.status !== 'failed') return null;
      return `${answer.status === 'failed' ? t('chat.failed') : t('chat.incomplete')}${answer.error ? `: ${describeAgentFailure(t, answer.error)}` : ''}`;
    },
    retryOffered: () => {
      const last = messages().at(-1);
      return now().can({ type: 'retry' }) && last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed');
    },
    continueOffered: () => {
      const last = messages().at(-1);
      return now().can({ type: 'continue' }) && last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed');
    },
    versions: () => {
      const answer = lastAnswer();
      if (!answer?.serverId || answer.status === 'streaming' || answer.siblingIds.length < 2) return null;
      return `${Math.max(1, answer.siblingIds.indexOf(answer.serverId) + 1)} / ${answer.siblingIds.length}`;
    },
    versionButtons: () => {
      const state = now();
      const written = messages().filter((message) => message.serverId !== null && message.status !== 'streaming' && message.status !== 'sending');
      const asks: AnyEvent[] = written.flatMap((message) => [
        message.role === 'user' ? { type: 'edit.start', key: message.key } : { type: 'regenerate', key: message.key },
        ...(message.siblingIds.length > 1 ? [-1, 1].map((offset) => ({ type: 'version.show', key: message.key, offset })) : []),
      ]);
      return [asks.length, asks.filter((event) => state.can(event as never)).length];
    },
    newAnswerEnabled: () => now().can({ type: 'regenerate', key: lastAnswer()!.key }),
    greeting: () => messages().length === 0 && !now().matches('loadFailed'),
    loadFailedShown: () => now().matches('loadFailed'),
    reloadEnabled: () => now().can({ type: 'reload' }),
    connectionLostShown: () => now().matches('detached'),
  };
};

/** The page as the product's rules say it must be now, whatever state the path is in. */
const checkPage = async (world: World, state: Snapshot) => {
  const { page } = world;
  expect(world.expected, `after ${world.last}`).toBe(stateOf(state));
  // the page has caught up with the step: the same production machine runs behind it
  await reach(world.chat, (now) => JSON.stringify(now.value) === JSON.stringify(state.value), { timeout: 5_000 }).catch(() => undefined);
  expect(world.chat.getSnapshot().value).toEqual(state.value);
  await page.until(() => expect(page.draft()).toBe(world.draft));
  if (world.question) {
    await page.until(() => expect(page.questions().at(-1)).toContain(world.question!.text));
  } else {
    expect(page.questions()).toHaveLength(0);
  }
  if (world.answer) {
    await page.until(() => expect(page.answer()?.status).toBe(world.answer!.status));
    await page.until(() => expect(page.answer()?.text).toBe(world.answer!.text));
  } else {
    expect(page.answer()).toBeNull();
  }
  if (world.alert) expect(await page.alert()).toContain(world.alert);
  else expect(await page.alert()).toBeNull();
  const busy = ['streaming', 'creatingConversation', 'confirming', 'resuming', 'detached', 'stopping'].includes(world.expected);
  // reading an answer again never sends a question, and each reading is one call
  await eventually(() => expect(world.resumes).toHaveLength(world.resumed));
  expect(page.stopOffered(), 'the stop button').toBe(busy);
  // never a silent re-send: the page sent exactly the questions and retries of the path
  await eventually(() => expect(world.seen).toHaveLength(world.sent));
  checkAccepted(world);
};

/** An answer kept after it stopped short: its text stays, it says why, and it offers a retry. */
const checkKeptAnswer = (world: World, label: string) => {
  expect(world.page.answerLabel()).toContain(label);
  // the retry answers the stored question again: only a question the server took can be retried
  expect(world.page.retryOffered(), 'the retry').toBe(world.question?.id != null);
  // and, once no answer is on its way, one with text the server stored is written on from it
  expect(world.page.continueOffered(), 'continue').toBe(SETTLED.includes(world.expected) && world.question?.id != null && world.answer!.text !== '' && world.replyId != null);
};

/** An answer with versions says which one it is, out of how many. */
const checkVersions = (world: World) => {
  if (world.answerIds.length < 2) expect(world.page.versions()).toBeNull();
  else expect(world.page.versions()).toContain(`${world.shownVersion} / ${world.answerIds.length}`);
};

/** While an answer is on its way (read again, reconnecting, being stopped), no new version can be asked or shown. */
const checkNoNewVersion = (world: World) => {
  const [offered, enabled] = world.page.versionButtons();
  // a stored question on screen always offers Edit: it must be there, and off
  if (world.question?.id) expect(offered).toBeGreaterThan(0);
  expect(enabled).toBe(0);
};

/** The states in which no answer is on its way: a question, an edit, a new answer or a version may be asked. */
const SETTLED = ['idle', 'done', 'incomplete', 'failed', 'cancelled'];

/**
 * What the chat takes now, by the product's rules, asked where the rules refuse it as much as
 * where they allow it: the screen offers the starter questions, Edit and its Send, New answer and
 * the version arrows by asking the chat, and a question sent (from the box or from home) is the
 * chat's to refuse; the address "/chat" is the new-chat button only once a conversation is open
 * and named in the address. What a person would do next (type, open the editor) is tried on the
 * snapshot alone, never on the chat the path plays.
 */
const checkAccepted = (world: World) => {
  const now = world.chat.getSnapshot();
  const after = (...events: AnyEvent[]) => events.reduce((snapshot, event) => transition(world.chat.logic, snapshot, event as never)[0], now);
  const settled = SETTLED.includes(world.expected);
  const questionKey = now.context.messages.findLast((message) => message.role === 'user')?.key ?? '';
  const answerKey = lastAnswerKey(now);
  // an answer on screen whose question the server stored (an answer alone has no question to ask again)
  const storedExchange = world.question?.id != null && world.answer !== null;
  const unfinished = world.answer?.status === 'incomplete' || world.answer?.status === 'failed';
  const rules: [string, Snapshot, AnyEvent, boolean][] = [
    // nothing typed, only spaces, or more than the server takes is never sent
    ['send what is typed', now, { type: 'send' }, settled && world.draft.trim() !== ''],
    ['send only spaces', after({ type: 'draft.change', text: '   ' }), { type: 'send' }, false],
    ['send the longest question the server takes', after({ type: 'draft.change', text: 'y'.repeat(MESSAGE_TEXT_MAX) }), { type: 'send' }, settled],
    ['send a question past the length limit', after({ type: 'draft.change', text: 'y'.repeat(MESSAGE_TEXT_MAX + 1) }), { type: 'send' }, false],
    // a starter question is offered only by a new chat with nothing in it and nothing typed
    ['ask a starter question', now, { type: 'starter.ask', text: QUESTION }, world.expected === 'idle' && !world.conversation && world.answer === null && world.draft.trim() === ''],
    // only a stored question is rewritten, and only with text; an answer is asked anew, not edited
    ['edit the question', now, { type: 'edit.start', key: questionKey }, settled && storedExchange],
    ['edit the answer', now, { type: 'edit.start', key: answerKey }, false],
    ['send an edit with no question open', now, { type: 'edit.send' }, false],
    ['send the question opened in the editor', after({ type: 'edit.start', key: questionKey }), { type: 'edit.send' }, settled && storedExchange],
    ['send the question opened in the editor, emptied', after({ type: 'edit.start', key: questionKey }, { type: 'edit.change', text: '  ' }), { type: 'edit.send' }, false],
    // a new answer to a stored question, when no answer is on its way
    ['ask a new answer', now, { type: 'regenerate', key: answerKey }, settled && storedExchange],
    ['ask a new answer to the question', now, { type: 'regenerate', key: questionKey }, false],
    // only the last answer, cut short with text the server stored, is written on; never one being written
    ['continue the answer', now, { type: 'continue' }, settled && storedExchange && unfinished && world.answer!.text !== '' && world.replyId != null],
    // the arrows move to a version there is, never past the first or the last
    ...([-1, 1] as const).map((offset): [string, Snapshot, AnyEvent, boolean] => [
      `show the version ${offset} away`,
      now,
      { type: 'version.show', key: answerKey, offset },
      settled && world.answer !== null && world.shownVersion + offset >= 1 && world.shownVersion + offset <= world.answerIds.length,
    ]),
    // before the address names the conversation created here, "/chat" is where its question was
    // asked (on the screen the address follows at once: the path only waits for it)
    ...(world.view ? [] : [['go to "/chat"', now, E.newChat, world.conversation && !world.addressPending] as [string, Snapshot, AnyEvent, boolean]]),
  ];
  for (const [what, snapshot, event, allowed] of rules) expect(snapshot.can(event as never), `${what}, after ${world.last}`).toBe(allowed);
};

const params = (world: () => World): TestParam<Snapshot, AnyEvent> => ({
  states: {
    'settled.idle': async (state) => {
      await checkPage(world(), state);
      if (world().answer && world().answer!.status !== 'streaming') checkVersions(world());
      if (world().answer && world().answer!.status !== 'complete') checkKeptAnswer(world(), 'The answer is incomplete');
      if (!world().question) expect(world().page.greeting()).toBe(true);
    },
    loading: async (state) => {
      await checkPage(world(), state);
      expect(world().url()).toBe(`/chat/${world().storedId}`);
    },
    loadFailed: async (state) => {
      await checkPage(world(), state);
      expect(world().page.loadFailedShown()).toBe(true);
      expect(world().page.reloadEnabled()).toBe(true);
    },
    creatingConversation: async (state) => {
      await checkPage(world(), state);
      await eventually(() => expect(world().held.map((held) => held.call)).toContain('create'));
    },
    streaming: async (state) => {
      await checkPage(world(), state);
      expect(world().page.retryOffered()).toBe(false);
    },
    'settled.done': async (state) => {
      await checkPage(world(), state);
      expect(world().page.retryOffered()).toBe(false);
      expect(world().url()).toMatch(/^\/chat\/conv-\d+$/);
      checkVersions(world());
    },
    switchingVersion: async (state) => {
      await checkPage(world(), state);
      // nothing else can be asked while the server moves to the version
      expect(world().page.newAnswerEnabled()).toBe(false);
    },
    'settled.unfinished.incomplete': async (state) => {
      await checkPage(world(), state);
      checkKeptAnswer(world(), world().last.startsWith('server refused') ? `The answer is incomplete: ${REFUSAL}` : 'The answer is incomplete');
    },
    resuming: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      expect(world().page.retryOffered()).toBe(false);
    },
    detached: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      expect(world().page.connectionLostShown()).toBe(true);
      checkKeptAnswer(world(), 'The answer is incomplete');
    },
    confirming: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      // the question is not given back before the page has looked for it in the conversation
      await eventually(() => expect(world().held.map((held) => held.call)).toContain('messages'));
    },
    stopping: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      await eventually(() => expect(world().held.map((held) => held.call)).toContain('stop'));
    },
    'settled.unfinished.cancelled': async (state) => {
      await checkPage(world(), state);
      checkKeptAnswer(world(), 'The answer is incomplete');
      // the server saw the client go away
      await eventually(() => expect(world().posts.at(-1)?.signal.aborted ?? true).toBe(true));
    },
    'settled.unfinished.failed': async (state) => {
      await checkPage(world(), state);
      checkKeptAnswer(world(), world().last.startsWith('server refused') ? `The answer failed: ${REFUSAL}` : `The answer failed: ${AGENT_ERROR}`);
    },
  },
  events: Object.fromEntries(Object.entries(play).map(([type, run]) => [type, ({ event }: { event: AnyEvent }) => run(world(), event)])),
});

/** A person on the rendered screen: clicks and keystrokes. */
const screenPerson = (view: Screen): Person => ({
  type: (text) => view.user.type(box(), text),
  send: () => view.user.click(screen.getByRole('button', { name: 'Send' })),
  stop: () => view.user.click(screen.getByRole('button', { name: 'Stop generating' })),
  retry: () => view.user.click(screen.getByRole('button', { name: 'Retry' })),
  continue: () => view.user.click(screen.getByRole('button', { name: 'Continue' })),
  newAnswer: () => view.user.click(within(lastAnswerItem()!).getByRole('button', { name: 'New answer' })),
  previousVersion: () => view.user.click(within(lastAnswerItem()!).getByRole('button', { name: 'Previous version' })),
  reload: () => view.user.click(screen.getByRole('button', { name: 'Reload' })),
  newChat: () => view.user.click(within(history()).getByTestId('new-chat')),
  openStored: async () => view.user.click(await within(history()).findByRole('link', { name: STORED_TITLE })),
  addressNamed: () => waitFor(() => expect(window.location.pathname).toMatch(/^\/chat\/[^/]+$/)),
  online: async () => void window.dispatchEvent(new Event('online')),
});

/** A person on the actor: the events the screen sends for each click, and the address as the screen reports it. */
const actorPerson = (chat: ChatActor, address: { current: string }, storedId: string): Person => {
  const lastAnswerKeyNow = () => lastAnswerKey(chat.getSnapshot());
  const go = async (url: string, conversationId: string | null) => {
    address.current = url;
    chat.send({ type: 'route.changed', market: false, conversationId, agentId: null } satisfies ChatRoute & { type: 'route.changed' });
  };
  return {
    type: async (text) => chat.send({ type: 'draft.change', text: chat.getSnapshot().context.draft + text }),
    send: async () => chat.send({ type: 'send' }),
    stop: async () => chat.send({ type: 'stop' }),
    retry: async () => chat.send({ type: 'retry' }),
    continue: async () => chat.send({ type: 'continue' }),
    newAnswer: async () => chat.send({ type: 'regenerate', key: lastAnswerKeyNow() }),
    previousVersion: async () => chat.send({ type: 'version.show', key: lastAnswerKeyNow(), offset: -1 }),
    reload: async () => chat.send({ type: 'reload' }),
    newChat: () => go('/chat', null),
    openStored: () => go(`/chat/${storedId}`, storedId),
    addressNamed: async () => {
      const [, conversationId] = /^\/chat\/([^/]+)$/.exec(address.current) ?? [];
      expect(conversationId, 'the address names the created conversation').toBeDefined();
      await go(address.current, conversationId!);
    },
    online: async () => chat.send({ type: 'connection.restored' }),
  };
};

/** The fake server and the page before the first step: nothing asked, nothing shown. */
const freshWorld = (parts: Pick<World, 'view' | 'chat' | 'person' | 'page' | 'url' | 'clock' | 'posts' | 'held' | 'resumes' | 'seen' | 'storedId'>): World => ({
  ...parts,
  last: 'opened the chat',
  expected: 'idle',
  draft: '',
  alert: null,
  question: null,
  answer: null,
  beforeRetry: null,
  answerIds: [],
  shownVersion: 1,
  accepted: false,
  conversation: false,
  sent: 0,
  place: 'new',
  drafts: {},
  resumed: 0,
  replyId: null,
  stopWanted: false,
  addressPending: false,
  earlier: [],
});

/** The fake API with the stored conversation, holding every call the path answers. */
const fakeServer = (world: () => World | null) => {
  const stored = seedConversation({ owner: visitorOwner(getVisitorId()), title: STORED_TITLE });
  const seen = recordRequests(endpoints.chat.path);
  const calls: Pick<World, 'posts' | 'held' | 'resumes'> = { posts: [], held: [], resumes: [] };
  holdCalls(() => (world() ?? calls) as World);
  return { ...calls, seen, storedId: stored.conversationId };
};

/** Every state a person can meet, by its path (`settled.idle`): choosing and sending decide at once where to go, so no one sees them. */
type StateNode = { key: string; path: string[]; states: Record<string, StateNode> };
const leavesOf = (node: StateNode): string[] => Object.values(node.states).flatMap((child) => (Object.keys(child.states).length ? leavesOf(child) : [child.path.join('.')]));
const leafPaths = leavesOf(chatMachine.root).filter((path) => path !== 'choosing' && path !== 'sending');

describe('chat, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state a person can meet, and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => stateOf(step.state))));
    const declared = leafPaths.map((path) => path.split('.').at(-1)!);
    expect([...reached].sort()).toEqual(declared.sort());
    // one path per transition, each ending on the transition it checks: 195 (54 of them for
    // Continue: its answers with text and without, and the continuation's own stream), and 5 of a
    // conversation opened on an answer alone (loaded; then it ends, fails, or is stopped and stored)
    expect(transitionCount).toBe(200);
    expect(paths).toHaveLength(transitionCount);
    for (const path of leafPaths) expect(testParams.states, `no assertion for ${path}`).toHaveProperty([path]);
    // the walks on the screen take every transition the paths take, as the screen shows it
    expect('error' in screenWalks ? screenWalks.error : undefined).toBeUndefined();
    const shown = new Set(paths.map((path) => screenTransition(path.steps.at(-2)!.state, path.events.at(-1)!, path.state)));
    expect([...shown].filter((transition) => !screenWalks.taken.has(transition))).toEqual([]);
    expect(screenWalks.taken.size).toBe(screenWalks.allKeys.size);
  });

  describe('on the chat actor', () => {
    it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_description, path) => {
      world = null;
      await switchToEnglish();
      const server = fakeServer(() => world);
      const clock = new SimulatedClock();
      const address = { current: '/chat' };
      const chat = createChatActor({
        navigate: (to) => void (address.current = to),
        screenEvents: createScreenEvents(),
        inspect: undefined,
        clock,
      });
      chat.start();
      try {
        // the screen reports the address it opened on
        chat.send({ type: 'route.changed', market: false, conversationId: null, agentId: null });
        world = freshWorld({
          view: null,
          chat,
          person: actorPerson(chat, address, server.storedId),
          page: actorPage(chat),
          url: () => address.current,
          clock,
          ...server,
        });
        await path.test(testParams);
      } finally {
        chat.stop();
      }
    });
  });

  describe('on the chat screen, in walks that take every transition it shows', () => {
    it.each(screenWalks.walks.map((walk, index) => [`walk ${index + 1}: ${describePath(walk)}`, walk] as const))(
      '%s',
      async (_description, walk) => {
        world = null;
        const server = fakeServer(() => world);
        const clock = new SimulatedClock();
        const view = await renderWithRuntime(
          <Switch>
            <Route path="/chat" component={ChatScreen} />
            <Route path="/chat/*" component={ChatScreen} />
          </Switch>,
          { url: '/chat', chatClock: clock },
        );
        world = freshWorld({ view, chat: view.runtime.chat, person: screenPerson(view), page: screenPage, url: view.url, clock, ...server });
        await walk.test(testParams);
      },
      // a limit for a hang: a long walk on a busy machine
      120_000,
    );
  });
});
