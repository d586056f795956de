import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { SimulatedClock, type SnapshotFrom } from 'xstate';
import type { TestParam } from 'xstate/graph';
import { chatRequestSchema, chatResumeRequestSchema, chatStopRequestSchema, type ChatRequest, type ChatResumeRequest } from '../../../src/contract/chat';
import type { Conversation } from '../../../src/contract/conversations';
import { endpoints } from '../../../src/contract/endpoints';
import type { Message } from '../../../src/contract/messages';
import { chatMachine, REATTACH_FIRST_MS, type ChatMessage } from '../../../src/machines/chat.machine';
import ChatScreen from '../../../src/screens/chat/chat-screen';
import { getVisitorId } from '../../../src/services/visitor';
import { seedConversation, visitorOwner } from '../../msw/db';
import { failBody } from '../../msw/handlers';
import { recordRequests, server, type SeenRequest } from '../../msw/server';
import { eventStream, type StreamStep } from '../../msw/sse';
import { renderWithRuntime, type Screen } from '../harness';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * The chat's paths are generated from the machine that ships: every answer the server can give
 * (to loading a chat, creating one, and each step of the answer's stream) and every click is an
 * event of the traversal, and each path is played on the real chat screen, the fake API holding
 * every request until the path says how the server answers it. After each step the page is
 * checked against rules written from the product (a failed send keeps the message, a broken
 * stream keeps the partial answer and offers a retry, Stop keeps what was shown, a retry answers
 * the stored question without sending it again; an answer being written is attached to, read
 * again after a lost connection, and after Stop shows exactly what the server stored), never read
 * from the machine.
 */
type Snapshot = SnapshotFrom<typeof chatMachine>;
/** An event of the traversal, with its payload (a click's text, a stream's failure kind...). */
type AnyEvent = ModelEvent & { [key: string]: unknown };

const QUESTION = 'Bakery posts?';
const PARTIAL = 'Post your morning bake';
const REFUSAL = 'This conversation is with another agent; start a new conversation to talk to this one.';
const CREATE_REFUSAL = 'Agent not found';
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

/** The events of the traversal: what people do, and what the server answers. */
const E = {
  type: { type: 'draft.change', text: QUESTION },
  send: { type: 'send' },
  stop: { type: 'stop' },
  retry: { type: 'retry' },
  reload: { type: 'reload' },
  newChat: { type: 'route.changed', market: false, conversationId: null, agentId: null },
  openStored: { type: 'route.changed', market: false, conversationId: 'stored', agentId: null },
  /** The screen reports the address the new conversation was given. */
  addressOfCreated: { type: 'route.changed', market: false, conversationId: 'created', agentId: null },
  loadedFinished: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'complete') } },
  loadedCut: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'incomplete') } },
  loadedWriting: { type: 'xstate.done.actor.loadConversation', output: { conversation: conversationOf('stored'), messages: storedMessages('stored', 'streaming') } },
  loadFailed: { type: 'xstate.error.actor.loadConversation', error: new Error('down') },
  created: { type: 'xstate.done.actor.createConversation', output: conversationOf('created') },
  createRefused: { type: 'xstate.error.actor.createConversation', error: new Error(CREATE_REFUSAL) },
  accepted: { type: 'stream.accepted', conversationId: 'created', userMessageId: 'u', replyMessageId: 'r' },
  delta: { type: 'stream.delta', text: PARTIAL },
  ended: { type: 'stream.ended', messageIds: ['u', 'r'] },
  refused: { type: 'stream.failed', kind: 'rejected', message: REFUSAL },
  unreachable: { type: 'stream.failed', kind: 'network', message: '' },
  agentError: { type: 'stream.failed', kind: 'agent-error', message: AGENT_ERROR },
  broke: { type: 'stream.failed', kind: 'incomplete', message: '' },
  selected: { type: 'xstate.done.actor.selectVersion', output: [] },
  selectFailed: { type: 'xstate.error.actor.selectVersion', error: new Error('down') },
  malformed: { type: 'stream.failed', kind: 'malformed', message: '' },
  stoppedElsewhere: { type: 'stream.stopped' },
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

const stateOf = (state: Snapshot) => String(state.value);

/** What a person can tell apart in a state (and what decides the events that make sense there). */
const flagsOf = (state: Snapshot): string[] => {
  const { context } = state;
  const flags: string[] = [];
  if (context.draft) flags.push('draft');
  if (context.addressPending) flags.push('address-pending');
  if (state.matches('idle')) {
    if (context.conversationId) flags.push('conversation');
    const last = context.messages.at(-1);
    if (last?.role === 'assistant' && (last.status === 'incomplete' || last.status === 'failed')) flags.push('unfinished');
  }
  if (state.matches('done') && (context.messages.at(-1)?.siblingIds.length ?? 0) > 1) flags.push('versions');
  if (state.matches('confirming')) {
    flags.push(context.outgoing?.regenerateMessageId ? 'new-answer' : 'question');
    if (context.stopWanted) flags.push('stop-wanted');
  }
  if (state.matches('streaming')) {
    const outgoing = context.outgoing;
    if (outgoing?.regenerateMessageId) flags.push('new-answer');
    else if (!outgoing?.retryMessageId) flags.push('question');
    else flags.push(outgoing.accepted ? 'retry' : `retry-of-${outgoing.previous?.status}`);
    if (outgoing?.accepted) flags.push(context.messages.at(-1)?.content ? 'answering' : 'accepted');
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
  // Once created, the conversation's address is the next thing the screen reports.
  if (has('address-pending')) return [E.addressOfCreated];
  switch (stateOf(state)) {
    case 'loading':
      return [E.loadedFinished, E.loadedCut, E.loadedWriting, E.loadFailed];
    case 'loadFailed':
      return [E.reload];
    case 'creatingConversation':
      return [E.created, E.createRefused];
    case 'idle':
      if (!has('conversation')) return has('draft') ? [E.send] : [E.type, E.openStored];
      return [...typeOrSend, ...(has('unfinished') ? [E.retry] : []), E.newChat];
    case 'streaming':
      if (has('stop-wanted')) return [E.accepted, E.refused];
      // a new answer is a new message: the server names it with a new id; it outlives a lost connection and stops on the server too
      if (has('new-answer')) return has('accepted') || has('answering') ? [E.ended, E.broke, E.stop] : [{ ...E.accepted, replyMessageId: 'r2' }, E.refused, E.unreachable, E.stop];
      if (!has('accepted') && !has('answering')) return [E.accepted, E.refused, E.stop, ...(has('question') ? [E.unreachable, E.agentError] : [])];
      return [...(has('question') && has('accepted') ? [E.delta] : []), E.ended, E.broke, E.malformed, E.agentError, E.stop];
    case 'resuming':
      return [E.ended, E.stoppedElsewhere, E.agentError, E.broke, E.refused, E.stop];
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
      return [...typeOrSend, E.retry];
    default:
      return [E.retry];
  }
};

const { paths, transitionCount } = productionPaths(chatMachine, { events: eventsFor, input: {}, serializeState });
console.log(`Chat (production machine): ${transitionCount} transitions; running ${paths.length} paths`);

/** "send, createConversation → ok, stream.failed rejected": what happens, without the context. */
const describePath = (path: (typeof paths)[number]) =>
  path.events
    .map((event: AnyEvent) => {
      const said = describeEvents([event], (done) => (done.output as { messages?: Message[] } | undefined)?.messages?.at(-1)?.status ?? 'ok');
      if (event.type === 'stream.failed') return `${said} ${String(event.kind)}`;
      if (event.type === 'xstate.done.actor.findQuestion') return `looked for what was sent → ${event.found === 'nothing' ? 'not there' : `found, ${String(event.found)}`}`;
      if (event.type === 'xstate.done.actor.loadConversation') return `${said} ${(event.output as { messages: Message[] }).messages[1]!.status}`;
      if (event.type === 'route.changed') return `${said} ${event.conversationId === null ? 'new chat' : event.conversationId === 'created' ? 'new address' : 'stored chat'}`;
      return said;
    })
    .join(', ');

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

type World = {
  view: Screen;
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
  /** The answer on screen when Retry or New answer was clicked: a refused one puts it back. */
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
};

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

const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const history = () => screen.getByRole('navigation', { name: 'Chat history' });
const items = (role: 'user' | 'assistant') => [...document.querySelectorAll<HTMLLIElement>(`li[data-role="${role}"]`)];

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

const answerHeld = async (world: World, call: Held['call'], response: Response | undefined) => {
  await waitFor(() => expect(world.held.map((held) => held.call)).toContain(call));
  world.held.splice(world.held.findIndex((held) => held.call === call), 1)[0]!.answer(response);
};

const currentPost = async (world: World): Promise<Post> => {
  await waitFor(() => expect(world.posts).toHaveLength(world.sent));
  return world.posts.at(-1)!;
};

/** The resume call under way: it reads the answer from the text on screen, and no question goes. */
const currentResume = async (world: World): Promise<Resume> => {
  await waitFor(() => expect(world.resumes).toHaveLength(world.resumed));
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

const backInTheBox = (world: World, alert: string) => {
  world.draft = world.question?.text ?? world.draft;
  world.question = null;
  world.answer = null;
  world.alert = alert;
};

const sent = (world: World) => {
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

const play: Record<string, (world: World, event: AnyEvent) => Promise<void>> = {
  'draft.change': async (world) => {
    await world.view.user.type(box(), QUESTION);
    world.draft = QUESTION;
    happened(world, 'typed a question');
  },
  send: async (world) => {
    const inConversation = world.conversation;
    sent(world);
    if (inConversation) world.sent += 1;
    happened(world, inConversation ? 'sent in a conversation' : 'sent in a new chat');
    await world.view.user.click(screen.getByRole('button', { name: 'Send' }));
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
    await world.view.user.click(screen.getByRole('button', { name: 'Stop generating' }));
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
    window.dispatchEvent(new Event('online'));
  },
  'xstate.after.reattachDelay.chat.detached': async (world) => {
    reading(world);
    happened(world, 'the page waited, then read the answer again by itself');
    // A lost answer is read again after a first wait of a second; not a moment before.
    world.clock.increment(REATTACH_FIRST_MS - 1);
    expect(world.view.runtime.chat.getSnapshot().matches('detached')).toBe(true);
    world.clock.increment(1);
  },
  retry: async (world) => {
    if (world.expected === 'detached') {
      reading(world);
      happened(world, 'clicked retry while the connection was lost');
      await world.view.user.click(screen.getByRole('button', { name: 'Retry' }));
      return;
    }
    world.stopWanted = false;
    world.beforeRetry = world.answer;
    world.answer = { text: '', status: 'streaming' };
    world.alert = null;
    world.accepted = false;
    world.sent += 1;
    happened(world, 'clicked retry');
    await world.view.user.click(screen.getByRole('button', { name: 'Retry' }));
    // a retry names the stored question and never sends its text again
    const post = await currentPost(world);
    expect(post.request.retryMessageId).toBe(world.question!.id);
    expect(post.request.text).toBeUndefined();
  },
  regenerate: async (world) => {
    world.stopWanted = false;
    world.beforeRetry = world.answer;
    world.answer = { text: '', status: 'streaming' };
    world.alert = null;
    world.accepted = false;
    world.sent += 1;
    happened(world, 'clicked new answer');
    await world.view.user.click(within(items('assistant').at(-1)!).getByRole('button', { name: 'New answer' }));
    // a new answer names the answer it is a version of, and never sends the question again
    const post = await currentPost(world);
    expect(post.request.regenerateMessageId).toBe(world.answerIds.at(-1));
    expect(post.request.text).toBeUndefined();
  },
  'version.show': async (world) => {
    happened(world, 'clicked previous version');
    await world.view.user.click(within(items('assistant').at(-1)!).getByRole('button', { name: 'Previous version' }));
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
    await world.view.user.click(screen.getByRole('button', { name: 'Reload' }));
  },
  'route.changed': async (world, event) => {
    if (event.conversationId === 'created') {
      // the screen reported it when the address changed: nothing to do but check the page
      happened(world, 'the address named the new conversation');
      await waitFor(() => expect(window.location.pathname).toMatch(/^\/chat\/[^/]+$/));
      return;
    }
    if (event.conversationId === null) {
      world.conversation = false;
      world.question = null;
      world.answer = null;
      world.alert = null;
      moveTo(world, 'new');
      happened(world, 'clicked new chat');
      await world.view.user.click(within(history()).getByTestId('new-chat'));
      return;
    }
    world.conversation = true;
    moveTo(world, 'stored');
    happened(world, 'opened a stored conversation');
    await world.view.user.click(await within(history()).findByRole('link', { name: STORED_TITLE }));
  },
  'xstate.done.actor.loadConversation': async (world, event) => {
    const { messages } = event.output as { messages: Message[] };
    const [question, answer] = storedMessages(world.storedId, messages[1]!.status as 'complete' | 'incomplete' | 'streaming');
    world.question = { text: question!.content, id: question!.messageId };
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
    await answerHeld(world, 'messages', ok([question, answer]));
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
    const stored = storedAfterLoss(world.view.runtime.chat.getSnapshot().context.messages, conversationId, found, previous);
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
    world.place = 'created';
    world.sent += 1;
    happened(world, 'server created the conversation');
    await answerHeld(world, 'create', undefined);
  },
  'xstate.error.actor.createConversation': async (world) => {
    backInTheBox(world, `The conversation could not be created. Your message is kept; try again. (${CREATE_REFUSAL})`);
    happened(world, 'server refused to create the conversation');
    await answerHeld(world, 'create', HttpResponse.json(failBody(CREATE_REFUSAL), { status: 404 }));
  },
  'stream.accepted': async (world) => {
    const post = await currentPost(world);
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
    world.answer = { ...world.answer!, text: world.answer!.text + PARTIAL };
    happened(world, 'server sent part of the answer');
    (await currentPost(world)).say!([{ type: 'delta', messageId: `r-${world.sent}`, text: PARTIAL }]);
  },
  'stream.ended': async (world) => {
    if (world.expected === 'resuming') {
      await answerResume(world, [{ type: 'end', messageIds: [world.question!.id!, world.replyId!] }]);
      world.answer = { ...world.answer!, status: 'complete' };
      happened(world, 'server finished the answer read again');
      return;
    }
    world.answer = { ...world.answer!, status: 'complete' };
    happened(world, 'server finished the answer');
    (await currentPost(world)).say!([{ type: 'end', messageIds: [world.question!.id!, `r-${world.sent}`] }], true);
  },
  'stream.stopped': async (world) => {
    await answerResume(world, [{ type: 'incomplete', messageId: world.replyId! }]);
    world.answer = { ...world.answer!, status: 'incomplete' };
    happened(world, 'the answer was stopped elsewhere');
  },
  'stream.failed': async (world, event) => {
    const kind = event.kind as string;
    if (world.expected === 'resuming') {
      if (kind === 'rejected') {
        world.answer = { ...world.answer!, status: 'incomplete' };
        happened(world, 'server refused to read the answer again');
        (await currentResume(world)).respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      } else if (kind === 'agent-error') {
        await answerResume(world, [{ type: 'error', msg: AGENT_ERROR }]);
        world.answer = { ...world.answer!, status: 'failed' };
        happened(world, 'the agent failed while the answer was read again');
      } else {
        await answerResume(world, []);
        world.answer = { ...world.answer!, status: 'incomplete' };
        happened(world, 'the connection broke while reading the answer again');
      }
      return;
    }
    const post = await currentPost(world);
    const retry = post.request.retryMessageId !== undefined;
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
      world.alert = `A new answer could not be started; the answer shown is kept. Try again. (${REFUSAL})`;
      happened(world, 'server refused the new answer');
      post.respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      return;
    }
    if (retry) {
      // A refused retry changes nothing: the answer that was there comes back.
      world.answer = world.beforeRetry;
      happened(world, `server refused the retry of a${world.beforeRetry!.status === 'failed' ? ' failed' : 'n incomplete'} answer`);
      post.respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
      return;
    }
    if (kind === 'agent-error') {
      backInTheBox(world, AGENT_ERROR);
      happened(world, 'the agent failed before taking the question');
      post.respond(eventStream([{ type: 'error', msg: AGENT_ERROR }], { signal: post.signal }));
    } else {
      backInTheBox(world, `Your message was not sent; it is back in the box. Try again. (${REFUSAL})`);
      happened(world, 'server refused the question');
      post.respond(HttpResponse.json(failBody(REFUSAL), { status: 400 }));
    }
  },
};

/** The page as the product's rules say it must be now, whatever state the path is in. */
const checkPage = async (world: World, state: Snapshot) => {
  expect(world.expected, `after ${world.last}`).toBe(stateOf(state));
  // the screen has caught up with the step: the same production machine runs behind it
  await waitFor(() => expect(world.view.runtime.chat.getSnapshot().value).toEqual(state.value));
  await waitFor(() => expect(box()).toHaveValue(world.draft));
  const questions = items('user');
  const answers = items('assistant');
  if (world.question) {
    await waitFor(() => expect(items('user').at(-1)).toHaveTextContent(world.question!.text));
  } else {
    expect(questions).toHaveLength(0);
  }
  if (world.answer) {
    await waitFor(() => expect(items('assistant').at(-1)?.dataset.status).toBe(world.answer!.status));
    await waitFor(() => expect(items('assistant').at(-1)!.querySelector('[data-testid="answer"]')?.textContent ?? '').toBe(world.answer!.text));
  } else {
    expect(answers).toHaveLength(0);
  }
  if (world.alert) expect(await screen.findByRole('alert')).toHaveTextContent(world.alert);
  else expect(screen.queryByRole('alert')).toBeNull();
  const busy = ['streaming', 'creatingConversation', 'confirming', 'resuming', 'detached', 'stopping'].includes(world.expected);
  // reading an answer again never sends a question, and each reading is one call
  await waitFor(() => expect(world.resumes).toHaveLength(world.resumed));
  expect(screen.queryByRole('button', { name: 'Stop generating' }) !== null, 'the stop button').toBe(busy);
  // never a silent re-send: the page sent exactly the questions and retries of the path
  await waitFor(() => expect(world.seen).toHaveLength(world.sent));
};

/** An answer kept after it stopped short: its text stays, it says why, and it offers a retry. */
const checkKeptAnswer = async (world: World, label: string) => {
  const last = items('assistant').at(-1)!;
  expect(within(last).getByRole('status')).toHaveTextContent(label);
  // the retry answers the stored question again: only a question the server took can be retried
  expect(within(last).queryByRole('button', { name: 'Retry' }) !== null, 'the retry').toBe(world.question?.id != null);
};

/** An answer with versions says which one it is, out of how many. */
const checkVersions = async (world: World) => {
  const versions = within(items('assistant').at(-1)!).queryByRole('group', { name: 'Versions' });
  if (world.answerIds.length < 2) expect(versions).toBeNull();
  else expect(versions).toHaveTextContent(`${world.shownVersion} / ${world.answerIds.length}`);
};

/** While an answer is on its way (read again, reconnecting, being stopped), no new version can be asked or shown. */
const checkNoNewVersion = (world: World) => {
  const buttons = screen.queryAllByRole('button', { name: /^(Edit|New answer|Previous version|Next version)$/ });
  // a stored question on screen always offers Edit: it must be there, and off
  if (world.question?.id) expect(buttons.length).toBeGreaterThan(0);
  for (const button of buttons) expect(button).toBeDisabled();
};

const params = (world: () => World): TestParam<Snapshot, AnyEvent> => ({
  states: {
    idle: async (state) => {
      await checkPage(world(), state);
      if (world().answer && world().answer!.status !== 'streaming') await checkVersions(world());
      if (world().answer && world().answer!.status !== 'complete') await checkKeptAnswer(world(), 'The answer is incomplete');
      if (!world().question) expect(screen.getByText('How can I help you today?')).toBeInTheDocument();
    },
    loading: async (state) => {
      await checkPage(world(), state);
      expect(world().view.url()).toBe(`/chat/${world().storedId}`);
    },
    loadFailed: async (state) => {
      await checkPage(world(), state);
      expect(screen.getByText('The conversation could not be loaded')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Reload' })).toBeEnabled();
    },
    creatingConversation: async (state) => {
      await checkPage(world(), state);
      await waitFor(() => expect(world().held.map((held) => held.call)).toContain('create'));
    },
    streaming: async (state) => {
      await checkPage(world(), state);
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    done: async (state) => {
      await checkPage(world(), state);
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      expect(world().view.url()).toMatch(/^\/chat\/conv-\d+$/);
      await checkVersions(world());
    },
    switchingVersion: async (state) => {
      await checkPage(world(), state);
      // nothing else can be asked while the server moves to the version
      expect(within(items('assistant').at(-1)!).getByRole('button', { name: 'New answer' })).toBeDisabled();
    },
    incomplete: async (state) => {
      await checkPage(world(), state);
      await checkKeptAnswer(world(), world().last.startsWith('server refused') ? `The answer is incomplete: ${REFUSAL}` : 'The answer is incomplete');
    },
    resuming: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      await waitFor(() => expect(world().resumes).toHaveLength(world().resumed));
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    },
    detached: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      expect(screen.getByText('Connection lost. The answer is still being written; it continues here as soon as the connection is back.')).toBeInTheDocument();
      await checkKeptAnswer(world(), 'The answer is incomplete');
    },
    confirming: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      // the question is not given back before the page has looked for it in the conversation
      await waitFor(() => expect(world().held.map((held) => held.call)).toContain('messages'));
    },
    stopping: async (state) => {
      await checkPage(world(), state);
      checkNoNewVersion(world());
      await waitFor(() => expect(world().held.map((held) => held.call)).toContain('stop'));
    },
    cancelled: async (state) => {
      await checkPage(world(), state);
      await checkKeptAnswer(world(), 'The answer is incomplete');
      // the server saw the client go away
      await waitFor(() => expect(world().posts.at(-1)?.signal.aborted ?? true).toBe(true));
    },
    failed: async (state) => {
      await checkPage(world(), state);
      await checkKeptAnswer(world(), world().last.startsWith('server refused') ? `The answer failed: ${REFUSAL}` : `The answer failed: ${AGENT_ERROR}`);
    },
  },
  events: Object.fromEntries(Object.entries(play).map(([type, run]) => [type, ({ event }: { event: AnyEvent }) => run(world(), event)])),
});

describe('chat, paths generated from the production machine', () => {
  let world: World | null = null;
  const testParams = params(() => world!);

  it('reaches every state a person can meet, and takes every transition', () => {
    const reached = new Set(paths.flatMap((path) => path.steps.map((step) => stateOf(step.state))));
    // choosing and sending decide at once where to go: no one ever sees them
    const declared = Object.keys(chatMachine.root.states).filter((state) => state !== 'choosing' && state !== 'sending');
    expect([...reached].sort()).toEqual(declared.sort());
    // one path per transition, each ending on the transition it checks
    expect(transitionCount).toBe(141);
    expect(paths).toHaveLength(transitionCount);
    for (const state of declared) expect(testParams.states, `no assertion for ${state}`).toHaveProperty(state);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_description, path) => {
    world = null;
    const stored = seedConversation({ owner: visitorOwner(getVisitorId()), title: STORED_TITLE });
    const seen = recordRequests(endpoints.chat.path);
    const current: Pick<World, 'posts' | 'held' | 'resumes'> = { posts: [], held: [], resumes: [] };
    holdCalls(() => (world ?? current) as World);
    const clock = new SimulatedClock();
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/chat" component={ChatScreen} />
        <Route path="/chat/*" component={ChatScreen} />
      </Switch>,
      { url: '/chat', chatClock: clock },
    );
    world = {
      view,
      clock,
      ...current,
      seen,
      storedId: stored.conversationId,
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
    };
    await path.test(testParams);
  });
});
