import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { STUDIO_ERRORS, type AgentVisibility, type StudioAgent } from '../../../src/contract/studio';
import { contentOf } from '../../../src/machines/agent-studio-form';
import { agentStudioMachine, agentStudioView, type AgentStudioInput, type StudioNotice } from '../../../src/machines/agent-studio.machine';
import { content, MODELS, published, studioAgent } from './agent-studio-kit';
import { heldCalls, settle } from './held-calls';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * Editing, saving, trying, publishing and retiring an agent in the studio, on paths generated from
 * the machine that ships: the author's edits (a new name, a name left blank), Save draft, Try it,
 * Publish, Retire (asked, confirmed or not), leaving with or without unsaved changes; the server's
 * answers to each call (kept, refused). The agent opens new, as a private draft never published,
 * live for the public market, or retired; or it cannot be opened (someone else's: 404; a failure:
 * 500). Each path is played on the production machine as an actor whose calls wait until the
 * path answers them, and checked after every step against rules written here from the product
 * (docs/api.md, "Agent studio"), not read from the machine.
 */
type Snapshot = SnapshotFrom<typeof agentStudioMachine>;

const RENAMED = 'Tutor 2';
const refused = (status: number, reason?: string) => ({ status, ...(reason ? { reason } : {}) });

/** How an agent can open: the server's studio agent for each. */
const OPENED: Record<string, StudioAgent | null> = {
  new: null,
  // Private: published, it goes live at once.
  'a draft': studioAgent(),
  // Public and live, with nothing new to publish until it changes; published again, it waits for an admin.
  'live for the public market': published({ content: content({ visibility: 'public' }) }),
  retired: published({ retired: true, published: false }),
};
const labelOf = (agent: StudioAgent | null) => Object.entries(OPENED).find(([, value]) => value === agent)?.[0] ?? 'answered';

/**
 * What the world can do: the author acts on the editor shown; the server keeps what it is sent (a
 * save stores the form as it went out, a publish makes the draft live, or waiting for an admin when
 * it is for the public market), or refuses.
 */
const worldEvents =
  (input: AgentStudioInput) =>
  (state: Snapshot): ModelEvent[] => {
    const { form, sentForm, baseline, agent } = state.context;
    const agentId = input.agentId ?? 'agent-new';
    const opened = input.agentId === null ? [OPENED.new] : Object.values(OPENED).filter((value) => value !== null);
    const saved = studioAgent({ ...(agent ?? {}), agentId, isDraft: true, hasDraft: true, content: contentOf(sentForm ?? form) });
    const waits = baseline.visibility === 'public';
    const afterPublish = published({
      agentId,
      content: contentOf(baseline),
      ...(waits ? { published: agent?.published ?? false, versionId: agent?.versionId ?? null, approval: 'pending', pendingVersionId: 'version-2' } : { versionId: 'version-2' }),
    });
    // A dialog open (leaving, retiring) is all the author can answer; typing goes on while a save is out.
    const person: ModelEvent[] = state.matches({ leaving: 'asking' })
      ? [{ type: 'leave.stay' }, { type: 'leave.confirm' }]
      : state.matches({ agent: { editing: 'askingRetire' } })
        ? [{ type: 'confirm' }, { type: 'cancel' }]
        : [
            { type: 'retry' },
            ...(state.matches({ agent: { editing: 'idle' } }) || state.matches({ agent: { editing: 'saving' } })
              ? [
                  { type: 'field.change', patch: { name: RENAMED } },
                  { type: 'field.change', patch: { name: '' } },
                ]
              : []),
            { type: 'save' },
            { type: 'publish' },
            { type: 'preview' },
            { type: 'retire' },
            // A link followed while the editor rests (a call out goes on answering while it asks).
            ...(state.matches({ agent: { editing: 'idle' } }) ? [{ type: 'leave.request', to: '/studio' }] : []),
          ];
    return [
      ...opened.map((opening) => ({ type: 'xstate.done.actor.openAgent', output: { agent: opening, models: MODELS } })),
      { type: 'xstate.error.actor.openAgent', error: refused(404) },
      { type: 'xstate.error.actor.openAgent', error: refused(500) },
      ...person,
      { type: 'xstate.done.actor.saveAgent', output: saved },
      { type: 'xstate.error.actor.saveAgent', error: refused(400, STUDIO_ERRORS.avatarRefused) },
      { type: 'xstate.done.actor.publishAgent', output: afterPublish },
      { type: 'xstate.error.actor.publishAgent', error: refused(409, STUDIO_ERRORS.nothingToPublish) },
      { type: 'xstate.done.actor.startPreview', output: { conversationId: 'conv-preview' } },
      { type: 'xstate.error.actor.startPreview', error: refused(404) },
      { type: 'xstate.done.actor.retireAgent' },
      { type: 'xstate.error.actor.retireAgent', error: refused(409, STUDIO_ERRORS.defaultAgent) },
    ];
  };

/**
 * What decides what the editor does next: where it is, the agent's standing, the name typed, saved
 * and sent, what a save leads on to. What is said (a refusal, a blank name) changes nothing that
 * follows: every path still checks it after each step.
 */
const serializeState = (state: Snapshot) => {
  const { agent, agentId, form, baseline, sentForm, pending } = state.context;
  return JSON.stringify([
    state.value,
    agentId === null,
    agent && [agent.published, agent.hasDraft, agent.approval, agent.retired],
    form.name,
    baseline.name,
    baseline.visibility,
    sentForm?.name ?? null,
    pending,
  ]);
};

type Place = 'loading' | 'loadFailed' | 'notFound' | 'retired' | 'idle' | 'saving' | 'publishing' | 'previewing' | 'askingRetire' | 'retiring';
type Standing = { published: boolean; hasDraft: boolean; approval: 'none' | 'pending' | 'rejected'; retired: boolean };
type Words = { name: string; visibility: AgentVisibility };
type Calls = { openAgent: number; saveAgent: number; publishAgent: number; startPreview: number; retireAgent: number };

/** Where the editor must be: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  isNew: boolean;
  standing: Standing | null;
  /** The name typed, and the visibility (which no path here changes). */
  form: Words;
  /** What the server holds. */
  stored: Words;
  /** What the last save sent: what was typed since is kept when it answers. */
  sent: Words | null;
  problems: string[];
  pending: 'publish' | 'preview' | null;
  failure: string | null;
  askingToLeave: boolean;
  calls: Calls;
  notices: StudioNotice[];
  created: string[];
  previews: number;
  left: string[];
};

const blank: Words = { name: '', visibility: 'private' };
const startOf = (input: AgentStudioInput): Expected => ({
  place: 'loading',
  isNew: input.agentId === null,
  standing: null,
  form: blank,
  stored: blank,
  sent: null,
  problems: [],
  pending: null,
  failure: null,
  askingToLeave: false,
  calls: { openAgent: 1, saveAgent: 0, publishAgent: 0, startPreview: 0, retireAgent: 0 },
  notices: [],
  created: [],
  previews: 0,
  left: [],
});

const EDITING: Place[] = ['idle', 'saving', 'publishing', 'previewing', 'askingRetire', 'retiring'];
const sameWords = (a: Words, b: Words) => a.name === b.name && a.visibility === b.visibility;
const unsaved = (e: Expected) => EDITING.includes(e.place) && !sameWords(e.form, e.stored);
const call = (e: Expected, name: keyof Calls): Calls => ({ ...e.calls, [name]: e.calls[name] + 1 });
const standingOf = (agent: StudioAgent): Standing => ({ published: agent.published, hasDraft: agent.hasDraft, approval: agent.approval, retired: agent.retired });
const wordsOf = (agent: StudioAgent): Words => ({ name: agent.content.name, visibility: agent.content.visibility });
/** A name is needed: one left blank is said before anything goes to the server. */
const checked = (e: Expected) => (e.form.name.trim() === '' ? ['name'] : []);

/** A save, a publish or a try: checked first; a new or changed agent is saved before it is published or tried. */
const attempt = (e: Expected, goal: 'save' | 'publish' | 'preview'): Expected => {
  const problems = checked(e);
  if (problems.length) return { ...e, problems, failure: null, pending: null };
  const ready = { ...e, problems: [], failure: null };
  if (e.isNew || unsaved(e)) return { ...ready, place: 'saving', pending: goal === 'save' ? null : goal, sent: e.form, calls: call(e, 'saveAgent') };
  if (goal === 'publish') return { ...ready, place: 'publishing', pending: null, sent: e.stored, calls: call(e, 'publishAgent') };
  return { ...ready, place: 'previewing', pending: null, calls: call(e, 'startPreview') };
};

const EXPECTED_AFTER = (e: Expected, event: ModelEvent): Expected => {
  switch (event.type) {
    case 'xstate.done.actor.openAgent': {
      const { agent } = event.output as { agent: StudioAgent | null };
      if (!agent) return { ...e, place: 'idle' };
      return { ...e, place: agent.retired ? 'retired' : 'idle', standing: standingOf(agent), form: wordsOf(agent), stored: wordsOf(agent) };
    }
    // Someone else's agent is one that does not exist; any other failure can be tried again.
    case 'xstate.error.actor.openAgent':
      return { ...e, place: (event.error as { status: number }).status === 404 ? 'notFound' : 'loadFailed' };
    case 'retry':
      return e.place === 'loadFailed' ? { ...e, place: 'loading', calls: call(e, 'openAgent') } : e;
    // The author types while the editor is shown, whatever it is doing; what was said about the name goes with it.
    case 'field.change':
      return EDITING.includes(e.place) ? { ...e, form: { ...e.form, name: (event.patch as { name: string }).name }, problems: e.problems.filter((field) => field !== 'name') } : e;
    // Save draft: only what is new or changed.
    case 'save':
      return e.place === 'idle' && (e.isNew || unsaved(e)) ? attempt(e, 'save') : e;
    // Publish: a draft to publish, or changes to save first; with nothing new, nothing to do.
    case 'publish':
      return e.place === 'idle' && (e.isNew || unsaved(e) || e.standing?.hasDraft === true) ? attempt(e, 'publish') : e;
    case 'preview':
      return e.place === 'idle' ? attempt(e, 'preview') : e;
    // The server keeps what was sent; what was typed since stays on top. A new agent gets its address.
    case 'xstate.done.actor.saveAgent': {
      const agent = event.output as StudioAgent;
      const kept: Expected = {
        ...e,
        isNew: false,
        standing: standingOf(agent),
        stored: e.sent!,
        form: sameWords(e.form, e.sent!) ? e.sent! : e.form,
        sent: null,
        created: e.isNew ? [...e.created, agent.agentId] : e.created,
      };
      if (e.pending === 'publish') return { ...kept, place: 'publishing', pending: null, sent: kept.stored, calls: call(e, 'publishAgent') };
      if (e.pending === 'preview') return { ...kept, place: 'previewing', pending: null, calls: call(e, 'startPreview') };
      return { ...kept, place: 'idle', notices: [...e.notices, 'saved'] };
    }
    // A refused save keeps everything typed and says why; what it led to is dropped.
    case 'xstate.error.actor.saveAgent':
      return { ...e, place: 'idle', pending: null, sent: null, failure: 'save' };
    // Published: live at once, or waiting for an admin when it is for the public market.
    case 'xstate.done.actor.publishAgent': {
      const agent = event.output as StudioAgent;
      const waits = e.stored.visibility === 'public';
      return {
        ...e,
        place: 'idle',
        standing: standingOf(agent),
        stored: wordsOf(agent),
        form: sameWords(e.form, e.sent!) ? wordsOf(agent) : e.form,
        sent: null,
        notices: [...e.notices, waits ? 'sentForApproval' : 'published'],
      };
    }
    case 'xstate.error.actor.publishAgent':
      return { ...e, place: 'idle', sent: null, failure: 'publish' };
    // The preview conversation opens in the chat.
    case 'xstate.done.actor.startPreview':
      return { ...e, place: 'idle', previews: e.previews + 1 };
    case 'xstate.error.actor.startPreview':
      return { ...e, place: 'idle', failure: 'preview' };
    // Retiring asks first, and only an agent the server knows can be retired.
    case 'retire':
      return e.place === 'idle' && !e.isNew ? { ...e, place: 'askingRetire', failure: null } : e;
    case 'confirm':
      return e.place === 'askingRetire' ? { ...e, place: 'retiring', calls: call(e, 'retireAgent') } : e;
    case 'cancel':
      return e.place === 'askingRetire' ? { ...e, place: 'idle' } : e;
    case 'xstate.done.actor.retireAgent':
      return { ...e, place: 'retired', standing: { ...e.standing!, retired: true, published: false, hasDraft: false }, askingToLeave: e.askingToLeave, notices: [...e.notices, 'retired'] };
    case 'xstate.error.actor.retireAgent':
      return { ...e, place: 'idle', failure: 'retire' };
    // Leaving with unsaved changes asks first; otherwise the link simply works.
    case 'leave.request':
      return e.askingToLeave || unsaved(e) ? { ...e, askingToLeave: true } : e;
    case 'leave.stay':
      return { ...e, askingToLeave: false };
    case 'leave.confirm':
      return e.askingToLeave ? { ...e, askingToLeave: false, left: [...e.left, '/studio'] } : e;
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const PLACES: Record<Place, unknown> = {
  loading: 'loading',
  loadFailed: 'loadFailed',
  notFound: 'notFound',
  retired: 'retired',
  idle: { editing: 'idle' },
  saving: { editing: 'saving' },
  publishing: { editing: 'publishing' },
  previewing: { editing: 'previewing' },
  askingRetire: { editing: 'askingRetire' },
  retiring: { editing: 'retiring' },
};

const play = async (input: AgentStudioInput, events: ModelEvent[]) => {
  const held = heldCalls();
  const told = { notices: [] as StudioNotice[], created: [] as string[], previews: [] as string[], left: [] as string[] };
  const actor = createActor(
    agentStudioMachine.provide({
      actors: {
        openAgent: held.stub('openAgent'),
        saveAgent: held.stub('saveAgent'),
        publishAgent: held.stub('publishAgent'),
        startPreview: held.stub('startPreview'),
        retireAgent: held.stub('retireAgent'),
        exportAgent: held.stub('exportAgent'),
        restoreVersion: held.stub('restoreVersion'),
        listVersions: held.stub('listVersions'),
        uploadAvatar: held.stub('uploadAvatar'),
      },
      actions: {
        notify: (_, { notice }) => void told.notices.push(notice),
        agentCreated: (_, { agentId }) => void told.created.push(agentId),
        openPreview: (_, { conversationId }) => void told.previews.push(conversationId),
        leave: (_, { to }) => void told.left.push(to),
      },
    }),
    { input },
  ).start();

  const check = (e: Expected, after: string) => {
    const state = actor.getSnapshot();
    expect(state.matches({ agent: PLACES[e.place] } as never), `after ${after}: ${JSON.stringify(state.value)}`).toBe(true);
    const { context } = state;
    expect(context.agentId === null, `${after}: new`).toBe(e.isNew);
    expect(context.agent && standingOf({ ...context.agent, content: content() }), `${after}: standing`).toEqual(e.standing);
    expect({ name: context.form.name, visibility: context.form.visibility }, `${after}: form`).toEqual(e.form);
    expect({ name: context.baseline.name, visibility: context.baseline.visibility }, `${after}: stored`).toEqual(e.stored);
    expect(Object.keys(context.problems), `${after}: problems`).toEqual(e.problems);
    expect(context.pending, `${after}: pending`).toBe(e.pending);
    expect(context.failure?.action ?? null, `${after}: failure`).toBe(e.failure);
    expect(agentStudioView.unsaved(state) && EDITING.includes(e.place), `${after}: unsaved`).toBe(unsaved(e));
    expect(agentStudioView.mustAskBeforeLeaving(state), `${after}: leaving asks`).toBe(e.askingToLeave || unsaved(e));
    expect(state.matches({ leaving: e.askingToLeave ? 'asking' : 'staying' }), `${after}: asking to leave`).toBe(true);
    // What the screen's buttons offer.
    expect(state.can({ type: 'save' }), `${after}: Save draft`).toBe(e.place === 'idle' && (e.isNew || unsaved(e)));
    expect(state.can({ type: 'publish' }), `${after}: Publish`).toBe(e.place === 'idle' && (e.isNew || unsaved(e) || e.standing?.hasDraft === true));
    expect(state.can({ type: 'retire' }), `${after}: Retire`).toBe(e.place === 'idle' && !e.isNew);
    expect(agentStudioView.editable(state), `${after}: editable`).toBe(EDITING.includes(e.place));
    const made: Calls = { openAgent: 0, saveAgent: 0, publishAgent: 0, startPreview: 0, retireAgent: 0 };
    for (const { src } of held.calls) made[src as keyof Calls] += 1;
    expect(made, `${after}: calls`).toEqual(e.calls);
    expect(told.notices, `${after}: notices`).toEqual(e.notices);
    expect(told.created, `${after}: created`).toEqual(e.created);
    expect(told.previews, `${after}: previews`).toHaveLength(e.previews);
    expect(told.left, `${after}: left for`).toEqual(e.left);
  };

  let expected = startOf(input);
  check(expected, 'start');
  for (const event of events) {
    const answer = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
    if (answer) {
      const pending = held.waiting(answer[2]!)!;
      if (answer[1] === 'done') pending.resolve(event.output);
      else pending.reject(event.error);
    } else actor.send(event as never);
    await settle();
    expected = EXPECTED_AFTER(expected, event);
    check(expected, describeEvents([event]));
  }
  actor.stop();
};

const outcome = (event: ModelEvent) => {
  const output = event.output as { agent?: StudioAgent | null; approval?: string } | undefined;
  if (output && 'agent' in output) return labelOf(output.agent ?? null);
  return output?.approval === 'pending' ? 'waiting for approval' : 'ok';
};

const OPENINGS: [string, AgentStudioInput][] = [
  ['a new agent', { agentId: null, companyId: 'company-acme', isAdmin: false, uploadLimitBytes: 1000 }],
  ['an agent of the author’s', { agentId: 'agent-1', companyId: 'company-acme', isAdmin: false, uploadLimitBytes: 1000 }],
];

describe.each(OPENINGS)('the studio editing %s, paths generated from the production machine', (_name, input) => {
  const { paths, transitionCount, reachedStates } = productionPaths(agentStudioMachine, { events: worldEvents(input), input, serializeState });

  it('reaches every place of editing, publishing and retiring, and takes every transition', () => {
    const agentPlaces = new Set([...reachedStates].map((value) => JSON.stringify((JSON.parse(value) as { agent: unknown }).agent)));
    expect([...agentPlaces].sort()).toEqual(Object.values(PLACES).map((place) => JSON.stringify(place)).sort());
    // One path per transition: a change of this count is a change of the machine's chart, to look at.
    expect(transitionCount).toBe(input.agentId === null ? 131 : 512);
  });

  it.each(paths.map((path) => [describeEvents(path.events, outcome), path] as const))('%s', async (_description, path) => {
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(input, path.events);
  });
});
