import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { createMachine, type EventFromLogic, type SnapshotFrom } from 'xstate';
import { createTestModel, type TestParam } from 'xstate/graph';
import { chatRequestSchema, type ChatRequest } from '../../../src/contract/chat';
import { endpoints } from '../../../src/contract/endpoints';
import ChatScreen from '../../../src/screens/chat/chat-screen';
import * as v from 'valibot';
import { recordRequests, server, type SeenRequest } from '../../msw/server';
import { eventStream, gate, type StreamStep } from '../../msw/sse';
import { renderWithRuntime, type Screen } from '../harness';
import { coverageGaps, NO_GAPS, planPaths, transitionsOf } from './model-coverage';

/**
 * The chat flow as a person sees it: type, send, watch the answer stream, and then it finishes,
 * is stopped, is cut short or fails, with a retry; or the server refuses and the message stays
 * in the box. No invoke, no after: the real screen does the work, the model only says what
 * must be true after each step.
 */
const chatFlow = createMachine({
  id: 'chatFlow',
  types: {} as {
    events:
      | { type: 'TYPE' }
      | { type: 'SEND' }
      | { type: 'SEND_REFUSED' }
      | { type: 'FINISH' }
      | { type: 'STOP' }
      | { type: 'CUT' }
      | { type: 'AGENT_ERROR' }
      | { type: 'RETRY' };
  },
  initial: 'empty',
  states: {
    empty: { on: { TYPE: 'typed' } },
    typed: { on: { SEND: 'streaming', SEND_REFUSED: 'refused' } },
    refused: { on: { SEND: 'streaming' } },
    streaming: { on: { FINISH: 'answered', STOP: 'stopped', CUT: 'incomplete', AGENT_ERROR: 'failed' } },
    stopped: { on: { RETRY: 'retrying' } },
    incomplete: { on: { RETRY: 'retrying' } },
    failed: { on: { RETRY: 'retrying' } },
    retrying: { on: { FINISH: 'answered', STOP: 'stopped', CUT: 'incomplete', AGENT_ERROR: 'failed' } },
    answered: {},
  },
});

const model = createTestModel(chatFlow);
const { paths, transitionCount } = planPaths('chat flow', model);

const QUESTION = 'Bakery posts?';
const PARTIAL = 'Post your morning bake';
const REST = ' with the prices in the caption.';
// A refusal in the server's words; a used-up quota (429) is told in the reader's language instead.
const REFUSAL = 'This conversation is with another agent; start a new conversation to talk to this one.';
const AGENT_ERROR = 'The model is overloaded';

/** One chat POST the fake server is answering: the test decides how it goes on. */
type LiveStream = {
  request: ChatRequest;
  userMessageId: string;
  aborted: () => boolean;
  finish: () => void;
  cut: () => void;
  agentError: () => void;
};

/** A path's world: the screen, the streams the server has open, and the POSTs it has seen. */
type World = { view: Screen; streams: LiveStream[]; posts: SeenRequest[]; expectedPosts: number };

const liveChat = (streams: LiveStream[]) => {
  let seq = 0;
  return http.post(endpoints.chat.path, async ({ request }) => {
    const body = v.parse(chatRequestSchema, await request.json());
    seq += 1;
    const userMessageId = body.retryMessageId ?? `u-${seq}`;
    const replyMessageId = `r-${seq}`;
    const rest = gate();
    let decided: readonly StreamStep[] = [];
    const decide = (steps: readonly StreamStep[]) => () => {
      decided = steps;
      rest.open();
    };
    streams.push({
      request: body,
      userMessageId,
      aborted: () => request.signal.aborted,
      finish: decide([
        { type: 'delta', messageId: replyMessageId, text: REST },
        { type: 'end', messageIds: [userMessageId, replyMessageId] },
      ]),
      cut: decide([]),
      agentError: decide([{ type: 'error', msg: AGENT_ERROR }]),
    });
    return eventStream(
      [
        { type: 'start', conversationId: body.conversationId, userMessageId, replyMessageId },
        { type: 'delta', messageId: replyMessageId, text: PARTIAL },
        { then: rest.promise.then(() => decided) },
      ],
      { signal: request.signal },
    );
  });
};

const box = () => screen.getByRole('textbox', { name: /Ask anything/ });
const answerItem = () => screen.getByTestId('answer').closest('li')!;
const current = (world: World) => world.streams.at(-1)!;

const expectPostsSoFar = async (world: World) => {
  await expect.poll(() => world.posts.length).toBe(world.expectedPosts);
};

const expectPartialKept = async (status: 'incomplete' | 'failed') => {
  await expect.poll(() => screen.queryByTestId('answer')?.closest('li')?.dataset.status).toBe(status);
  expect(screen.getByTestId('answer')).toHaveTextContent(PARTIAL);
  expect(screen.getByTestId('question')).toHaveTextContent(QUESTION);
  expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  expect(box()).toHaveValue('');
};

const expectStreaming = async (world: World) => {
  await expect.poll(() => screen.queryByTestId('answer')?.textContent).toBe(PARTIAL);
  expect(answerItem().dataset.status).toBe('streaming');
  expect(screen.getByTestId('question')).toHaveTextContent(QUESTION);
  expect(screen.getByRole('button', { name: 'Stop generating' })).toBeInTheDocument();
  expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  expect(box()).toHaveValue('');
  await expectPostsSoFar(world);
};

const testParams = (world: () => World): TestParam<SnapshotFrom<typeof chatFlow>, EventFromLogic<typeof chatFlow>> => ({
  states: {
    empty: () => {
      expect(screen.getByText('How can I help you today?')).toBeInTheDocument();
      expect(box()).toHaveValue('');
      expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    },
    typed: () => {
      expect(box()).toHaveValue(QUESTION);
      expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    refused: async () => {
      expect(await screen.findByRole('alert')).toHaveTextContent(REFUSAL);
      expect(box()).toHaveValue(QUESTION);
      expect(screen.queryByTestId('question')).toBeNull();
      expect(screen.queryByTestId('answer')).toBeNull();
      await expectPostsSoFar(world());
    },
    streaming: () => expectStreaming(world()),
    retrying: () => expectStreaming(world()),
    answered: async () => {
      await expect.poll(() => screen.queryByTestId('answer')?.closest('li')?.dataset.status).toBe('complete');
      expect(screen.getByTestId('answer')).toHaveTextContent(PARTIAL + REST);
      expect(screen.getByTestId('question')).toHaveTextContent(QUESTION);
      expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
      await expectPostsSoFar(world());
    },
    stopped: async () => {
      await expectPartialKept('incomplete');
      expect(screen.getByText('The answer is incomplete')).toBeInTheDocument();
      // the server saw the client go away
      await expect.poll(() => current(world()).aborted()).toBe(true);
      await expectPostsSoFar(world());
    },
    incomplete: async () => {
      await expectPartialKept('incomplete');
      expect(screen.getByText('The answer is incomplete')).toBeInTheDocument();
      await expectPostsSoFar(world());
    },
    failed: async () => {
      await expectPartialKept('failed');
      expect(screen.getByText(`The answer failed: ${AGENT_ERROR}`)).toBeInTheDocument();
      await expectPostsSoFar(world());
    },
  },
  events: {
    TYPE: async () => {
      await world().view.user.type(box(), QUESTION);
    },
    SEND: async () => {
      world().expectedPosts += 1;
      await world().view.user.type(box(), '{Enter}');
      await expect.poll(() => world().streams.length).toBe(world().expectedPosts - refusedSoFar(world()));
    },
    SEND_REFUSED: async () => {
      world().expectedPosts += 1;
      server.use(
        http.post(endpoints.chat.path, () => HttpResponse.json({ code: 1, msg: REFUSAL, data: null }, { status: 400 }), { once: true }),
      );
      await world().view.user.type(box(), '{Enter}');
    },
    FINISH: () => current(world()).finish(),
    CUT: () => current(world()).cut(),
    AGENT_ERROR: () => current(world()).agentError(),
    STOP: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Stop generating' }));
    },
    RETRY: async () => {
      world().expectedPosts += 1;
      const before = world().streams.length;
      await world().view.user.click(screen.getByRole('button', { name: 'Retry' }));
      await expect.poll(() => world().streams.length).toBe(before + 1);
      const retry = current(world()).request;
      // a retry names the stored question and never sends its text again
      expect(retry.retryMessageId).toBe(world().streams[0]!.userMessageId);
      expect(retry.text).toBeUndefined();
    },
  },
});

/** POSTs refused before any stream opened: they reached the server but got no LiveStream. */
const refusedSoFar = (world: World) => world.posts.length - world.streams.length;

describe('chat flow, model-based', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it('has an assertion for every reachable state and an executor for every event', () => {
    expect(coverageGaps(chatFlow, model, params)).toEqual(NO_GAPS);
    expect(transitionCount).toBe(15);
    expect(new Set(paths.flatMap(transitionsOf)).size).toBe(transitionCount);
  });

  it.each(paths.map((path) => [path.description, path]))('%s', async (_description, path) => {
    const streams: LiveStream[] = [];
    server.use(liveChat(streams));
    const posts = recordRequests(endpoints.chat.path);
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/chat" component={ChatScreen} />
        <Route path="/chat/*" component={ChatScreen} />
      </Switch>,
      { url: '/chat' },
    );
    world = { view, streams, posts, expectedPosts: 0 };
    await path.test(params);
    // never a silent re-send, whatever the path
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(posts).toHaveLength(world.expectedPosts);
  });
});
