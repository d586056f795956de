import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { chatRequestSchema, type ChatRequest } from '../../contract/chat';
import { endpoints } from '../../contract/endpoints';
import { seedUser } from '../../../tests/msw/db';
import { recordRequests, server, type SeenRequest } from '../../../tests/msw/server';
import { eventStream, gate, type StreamStep } from '../../../tests/msw/sse';
import { storedTask } from '../../../tests/msw/tasks';
import { renderWithRuntime, type Screen } from '../../../tests/spa/harness';
import OperationsArea from './operations-area';

/**
 * Writing a LinkedIn task as an operator sees it, on the real screen with the fake API: brief,
 * drafts streamed from the writer agent (finished, or stopped and retried), pick one, a save that
 * fails and keeps everything, a save that works, then ready and scheduled. The editor machine's
 * every transition is walked by tests/spa/models/task-editor*.model.test.ts; these are the
 * operator's two journeys through the screen.
 */
type Step = 'blank' | 'briefed' | 'streaming' | 'retrying' | 'stopped' | 'drafted' | 'picked' | 'notSaved' | 'saved' | 'ready' | 'scheduled';
type Action = 'TYPE_TOPIC' | 'GENERATE' | 'FINISH' | 'STOP' | 'RETRY' | 'PICK' | 'SAVE_FAILS' | 'SAVE' | 'MARK_READY' | 'SCHEDULE';
type Params = { states: Record<Step, () => unknown>; events: Record<Action, () => unknown> };

const TOPIC = 'Shipping weekly';
const PARTIAL = '[[DRAFT]]\nWe ship every Friday.';
const REST = ' Here is how.\n[[DRAFT]]\nWeekly releases build trust. #shipping';
const SECOND = 'Weekly releases build trust. #shipping';

type LiveStream = { request: ChatRequest; userMessageId: string; aborted: () => boolean; finish: () => void };
type World = { view: Screen; streams: LiveStream[]; drafting: SeenRequest[]; stops: SeenRequest[]; taskId: () => string | null };

const liveWriter = (streams: LiveStream[]) => {
  let seq = 0;
  return http.post(endpoints.chat.path, async ({ request }) => {
    const body = v.parse(chatRequestSchema, await request.json());
    seq += 1;
    const userMessageId = body.retryMessageId ?? `u-${seq}`;
    const replyMessageId = `r-${seq}`;
    const rest = gate();
    streams.push({ request: body, userMessageId, aborted: () => request.signal.aborted, finish: rest.open });
    const steps: StreamStep[] = [
      { type: 'start', conversationId: body.conversationId, userMessageId, replyMessageId },
      { type: 'delta', messageId: replyMessageId, text: PARTIAL },
      { until: rest.promise },
      { type: 'delta', messageId: replyMessageId, text: REST },
      { type: 'end', messageIds: [userMessageId, replyMessageId] },
    ];
    return eventStream(steps, { signal: request.signal });
  });
};

const bodyBox = () => screen.getByRole('textbox', { name: 'Post text' });
const generate = () => screen.queryByRole('button', { name: 'Generate drafts' });
const drafts = () => screen.queryAllByTestId('draft');
const statusBadge = () => within(screen.getByRole('region', { name: 'Publishing' })).getByTestId('task-status');
const current = (world: World) => world.streams.at(-1)!;

const expectStreaming = async () => {
  await expect.poll(() => drafts()[0]?.textContent ?? '').toContain('We ship every Friday.');
  expect(drafts()).toHaveLength(1);
  expect(drafts()[0]!.dataset.partial).toBe('true');
  expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
  expect(generate()).toBeNull();
};

const testParams = (world: () => World): Params => ({
  states: {
    blank: () => {
      expect(screen.getByRole('heading', { name: 'LinkedIn task' })).toBeInTheDocument();
      expect(generate()).toBeDisabled();
      expect(screen.getByText('Write a topic to generate drafts.')).toBeInTheDocument();
      expect(screen.getByText('Save the task to schedule it.')).toBeInTheDocument();
    },
    briefed: () => {
      expect(generate()).toBeEnabled();
      expect(drafts()).toHaveLength(0);
    },
    streaming: () => expectStreaming(),
    retrying: async () => {
      await expectStreaming();
      // the retry asks again for the stored question; the prompt is never sent twice
      expect(current(world()).request.retryMessageId).toBe(world().streams[0]!.userMessageId);
      expect(current(world()).request.text).toBeUndefined();
    },
    stopped: async () => {
      await expect.poll(() => screen.queryByRole('button', { name: 'Try again' })).not.toBeNull();
      expect(drafts()).toHaveLength(1);
      expect(drafts()[0]).toHaveTextContent('Unfinished');
      expect(screen.getByText('The drafts stopped before the end; what arrived is kept.')).toBeInTheDocument();
      await expect.poll(() => current(world()).aborted()).toBe(true);
      // a draft does not outlive the editor: the server is told to stop writing it
      await expect.poll(() => world().stops.at(-1)?.body).toBe(JSON.stringify({ conversationId: current(world()).request.conversationId, messageId: `r-${world().streams.length}` }));
    },
    drafted: async () => {
      await expect.poll(() => drafts().length).toBe(2);
      expect(drafts()[1]).toHaveTextContent(SECOND);
      expect(drafts().every((draft) => draft.dataset.partial === undefined)).toBe(true);
      expect(screen.getByTestId('drafting-status')).toHaveTextContent('Drafts from LinkedIn Post Writer: 2');
      expect(world().drafting).toHaveLength(1);
    },
    picked: () => {
      expect(bodyBox()).toHaveValue(SECOND);
      expect(screen.getByRole('button', { name: 'Use draft 2' })).toHaveTextContent('In use');
      expect(screen.getByTestId('unsaved')).toBeInTheDocument();
      expect(within(screen.getByTestId('linkedin-preview')).getByTestId('preview-body')).toHaveTextContent(SECOND);
    },
    notSaved: async () => {
      expect(await screen.findByText('Not saved; your changes are still here.', { exact: false })).toBeInTheDocument();
      expect(bodyBox()).toHaveValue(SECOND);
      expect(screen.getByRole('textbox', { name: 'Title (for your team only)' })).toHaveValue('Weekly story');
      expect(world().view.url()).toBe('/kraken-operation/task/linkedin');
    },
    saved: async () => {
      await expect.poll(() => world().view.url()).toMatch(/^\/kraken-operation\/task\/edit\/task-\d+$/);
      await expect.poll(() => screen.queryByTestId('unsaved')).toBeNull();
      expect(statusBadge()).toHaveTextContent('Draft');
      expect(storedTask(world().taskId()!)).toMatchObject({ title: 'Weekly story', body: SECOND, chosenDraft: 1 });
      expect(storedTask(world().taskId()!)!.drafts).toHaveLength(2);
      // the drafts and the editor survived the move to the edit address
      expect(drafts()).toHaveLength(2);
    },
    ready: async () => {
      await expect.poll(() => statusBadge().textContent).toBe('Ready');
      expect(storedTask(world().taskId()!)!.status).toBe('ready');
    },
    scheduled: async () => {
      await expect.poll(() => statusBadge().textContent).toBe('Scheduled');
      expect(storedTask(world().taskId()!)).toMatchObject({ status: 'scheduled' });
      expect(screen.getByTestId('scheduled-at')).toHaveTextContent('2099');
    },
  },
  events: {
    TYPE_TOPIC: async () => {
      await world().view.user.type(screen.getByRole('textbox', { name: 'Topic' }), TOPIC);
      await world().view.user.selectOptions(screen.getByRole('combobox', { name: 'Number of drafts' }), '2');
    },
    GENERATE: async () => {
      await world().view.user.click(generate()!);
      await expect.poll(() => world().streams.length).toBe(1);
    },
    FINISH: () => current(world()).finish(),
    STOP: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Stop' }));
    },
    RETRY: async () => {
      const before = world().streams.length;
      await world().view.user.click(screen.getByRole('button', { name: 'Try again' }));
      await expect.poll(() => world().streams.length).toBe(before + 1);
    },
    PICK: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Use draft 2' }));
      // The post's first line names the task; the operator renames it.
      const title = screen.getByRole('textbox', { name: 'Title (for your team only)' });
      expect(title).toHaveValue('Weekly releases build trust.');
      expect(title).toHaveAttribute('aria-required', 'true');
      await world().view.user.clear(title);
      await world().view.user.type(title, 'Weekly story');
    },
    SAVE_FAILS: async () => {
      server.use(http.post(endpoints.taskCreate.path, () => HttpResponse.json({ code: 1, msg: 'The database is busy.', data: null }, { status: 503 }), { once: true }));
      await world().view.user.click(screen.getByRole('button', { name: 'Save' }));
    },
    SAVE: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Save' }));
    },
    MARK_READY: async () => {
      await world().view.user.click(screen.getByRole('button', { name: 'Mark as ready' }));
    },
    SCHEDULE: async () => {
      const when = screen.getByLabelText('Publish at');
      await world().view.user.clear(when);
      await world().view.user.type(when, '2099-06-01T09:30');
      await world().view.user.click(screen.getByRole('button', { name: 'Schedule' }));
    },
  },
});

const JOURNEYS: [string, [Action, Step][]][] = [
  [
    'stops the drafts, retries them, keeps the form through a failed save, then saves, readies and schedules',
    [
      ['TYPE_TOPIC', 'briefed'],
      ['GENERATE', 'streaming'],
      ['STOP', 'stopped'],
      ['RETRY', 'retrying'],
      ['FINISH', 'drafted'],
      ['PICK', 'picked'],
      ['SAVE_FAILS', 'notSaved'],
      ['SAVE', 'saved'],
      ['MARK_READY', 'ready'],
      ['SCHEDULE', 'scheduled'],
    ],
  ],
  [
    'takes finished drafts straight away and saves at the first try',
    [
      ['TYPE_TOPIC', 'briefed'],
      ['GENERATE', 'streaming'],
      ['FINISH', 'drafted'],
      ['PICK', 'picked'],
      ['SAVE', 'saved'],
    ],
  ],
];

describe('writing a LinkedIn task on the screen', () => {
  let world: World | null = null;
  const params = testParams(() => world!);

  it.each(JOURNEYS)('%s', async (_description, steps) => {
    const { user } = seedUser({ nickname: 'Ops Maya' });
    const streams: LiveStream[] = [];
    server.use(liveWriter(streams));
    const drafting = recordRequests(endpoints.taskDrafting.path);
    const stops = recordRequests(endpoints.chatStop.path);
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/kraken-operation" component={OperationsArea} />
        <Route path="/kraken-operation/*" component={OperationsArea} />
      </Switch>,
      { url: '/kraken-operation/task/linkedin', signedInAs: user },
    );
    await screen.findByRole('heading', { name: 'LinkedIn task' });
    world = { view, streams, drafting, stops, taskId: () => /edit\/(.+)$/.exec(view.url())?.[1] ?? null };
    await params.states.blank();
    for (const [action, step] of steps) {
      await params.events[action]();
      await params.states[step]();
    }
  }, 30_000);
});

describe('leaving the task editor', () => {
  const openNewTask = async () => {
    const { user } = seedUser();
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/kraken-operation" component={OperationsArea} />
        <Route path="/kraken-operation/*" component={OperationsArea} />
      </Switch>,
      { url: '/kraken-operation/task/linkedin', signedInAs: user },
    );
    await screen.findByRole('heading', { name: 'LinkedIn task' });
    return view;
  };
  const back = () => screen.getByRole('link', { name: 'Back to all tasks' });

  it('lets a blank task go without asking', async () => {
    const view = await openNewTask();
    await view.user.click(back());
    await expect.poll(view.url).toBe('/kraken-operation');
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
  });

  it('asks before unsaved changes are lost: stay keeps them, leave goes where the link said', async () => {
    const view = await openNewTask();
    await view.user.type(bodyBox(), 'Half a thought');
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();

    await view.user.click(back());
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(view.url()).toBe('/kraken-operation/task/linkedin');
    await view.user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).toBeNull();
    expect(bodyBox()).toHaveValue('Half a thought');

    await view.user.click(back());
    await view.user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave' }));
    await expect.poll(view.url).toBe('/kraken-operation');
  });
});
