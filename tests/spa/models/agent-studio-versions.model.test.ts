import { describe, expect, it } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import type { FileRef } from '../../../src/contract/media';
import type { AgentVersion, StudioAgent } from '../../../src/contract/studio';
import { agentStudioMachine, agentStudioView, VERSIONS_PAGE_SIZE, type AgentStudioInput, type StudioNotice } from '../../../src/machines/agent-studio.machine';
import { content, MODELS, published, version } from './agent-studio-kit';
import { heldCalls, settle } from './held-calls';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * An agent's versions, restoring one, exporting, and its picture, on paths generated from the
 * machine that ships: the author opens the versions (two pages of them), turns the page, restores
 * one into the draft (asked first), publishes (the versions are read again), exports, picks a
 * picture (an image, a text file, one too large); the server answers each call or refuses. The agent opens live with a draft beside it, or retired (read, exported and
 * its versions listed, never changed). Checked after every step against the product's rules.
 */
type Snapshot = SnapshotFrom<typeof agentStudioMachine>;

const LIMIT = 1000;
const input: AgentStudioInput = { agentId: 'agent-1', companyId: 'company-acme', isAdmin: false, uploadLimitBytes: LIMIT };
const refused = (status: number) => ({ status });

const DRAFT = content({ intro: 'The draft’s words' });
const OLD = content({ intro: 'The first words' });
const OPENED: Record<string, StudioAgent> = {
  'live with a draft': published({ hasDraft: true, isDraft: true, content: DRAFT }),
  retired: published({ retired: true, published: false, content: content({ intro: 'Retired words' }) }),
};
/** Twelve versions: the newest ten on the first page, the first two on the second. */
const TOTAL = 12;
const pageOf = (current: number): { list: AgentVersion[]; total: number } => ({
  list: Array.from({ length: current === 1 ? VERSIONS_PAGE_SIZE : TOTAL - VERSIONS_PAGE_SIZE }, (_, index) => {
    const seq = TOTAL - (current - 1) * VERSIONS_PAGE_SIZE - index;
    return version({ versionId: `version-${seq}`, live: seq === TOTAL, content: seq === 1 ? OLD : content({ intro: `Version ${seq}` }) });
  }),
  total: TOTAL,
});
const image = (kind: FileRef['kind']): FileRef => ({ fileId: 'f1', name: 'face.png', url: '/api/media/file/f1', kind, mimeType: 'image/png', size: 10 });
const FILES = {
  picture: new File(['x'], 'face.png', { type: 'image/png' }),
  text: new File(['x'], 'notes.txt', { type: 'text/plain' }),
  huge: new File(['x'.repeat(LIMIT + 1)], 'huge.png', { type: 'image/png' }),
};

type Part = 'versions' | 'files';

/**
 * What the world can do, in two parts played apart (together they would be every combination of
 * both): the versions, restoring and publishing; the export and the picture.
 */
const worldEvents =
  (part: Part) =>
  (state: Snapshot): ModelEvent[] => {
    const { versions, restoreId, baseline } = state.context;
    const restoring = versions.list.find((item) => item.versionId === restoreId);
    const opened = Object.values(OPENED).map((agent) => ({ type: 'xstate.done.actor.openAgent', output: { agent, models: MODELS } }));
    if (part === 'files') {
      return [
        ...opened,
        { type: 'export' },
        // Named, as a file is not told apart in JSON.
        ...Object.entries(FILES).map(([picked, file]) => ({ type: 'avatar.select', file, picked })),
        { type: 'xstate.done.actor.exportAgent', output: { format: 'kraken-agent', version: 1, agent: { name: baseline.name } } },
        { type: 'xstate.error.actor.exportAgent', error: refused(500) },
        { type: 'xstate.done.actor.uploadAvatar', output: image('image') },
        { type: 'xstate.done.actor.uploadAvatar', output: image('other') },
        { type: 'xstate.error.actor.uploadAvatar', error: refused(413) },
      ];
    }
    const person: ModelEvent[] = state.matches({ agent: { editing: 'askingRestore' } })
      ? [{ type: 'confirm' }, { type: 'cancel' }]
      : [
          { type: 'versions.open' },
          { type: 'versions.close' },
          { type: 'versions.page', current: 2 },
          { type: 'versions.page', current: 1 },
          { type: 'retry' },
          // A version of the first page: shown there, not on the second.
          { type: 'restore', versionId: 'version-11' },
          // Publishing a changed form saves it first: that is the editing model's; here the draft is published as it is.
          ...(agentStudioView.unsaved(state) ? [] : [{ type: 'publish' }]),
        ];
    return [
      ...opened,
      ...person,
      { type: 'xstate.done.actor.listVersions', output: pageOf(versions.current) },
      { type: 'xstate.error.actor.listVersions', error: refused(500) },
      { type: 'xstate.done.actor.restoreVersion', output: published({ hasDraft: true, isDraft: true, content: restoring?.content ?? OLD }) },
      { type: 'xstate.error.actor.restoreVersion', error: refused(404) },
      { type: 'xstate.done.actor.publishAgent', output: published({ versionId: 'version-13', content: content({ intro: baseline.intro }) }) },
    ];
  };

/** What decides what comes next: where each part is, the page, whether a restore waits, the words and picture, saved or not. */
const serializeState = (state: Snapshot) => {
  const { versions, restoreId, form, baseline, agent } = state.context;
  return JSON.stringify([state.value, versions.current, versions.list.length, restoreId, form.intro, baseline.intro, form.avatar, agent?.hasDraft]);
};

type Place = 'loading' | 'retired' | 'idle' | 'publishing' | 'askingRestore' | 'restoring';
type Shelf = 'closed' | 'loading' | 'shown' | 'failed';
type Calls = { openAgent: number; listVersions: number; restoreVersion: number; exportAgent: number; publishAgent: number; uploadAvatar: number };
/** Where the editor must be: written from the product's rules, not read from the machine. */
type Expected = {
  place: Place;
  hasDraft: boolean;
  shelf: Shelf;
  page: number;
  /** The versions shown: their ids. */
  listed: string[];
  restoreId: string | null;
  intro: string;
  storedIntro: string;
  avatar: string;
  uploading: boolean;
  avatarProblem: 'notImage' | 'tooLarge' | 'failed' | null;
  exporting: boolean;
  failure: 'restore' | 'export' | null;
  calls: Calls;
  notices: StudioNotice[];
  exports: number;
};
const START: Expected = {
  place: 'loading',
  hasDraft: false,
  shelf: 'closed',
  page: 1,
  listed: [],
  restoreId: null,
  intro: '',
  storedIntro: '',
  avatar: '',
  uploading: false,
  avatarProblem: null,
  exporting: false,
  failure: null,
  calls: { openAgent: 1, listVersions: 0, restoreVersion: 0, exportAgent: 0, publishAgent: 0, uploadAvatar: 0 },
  notices: [],
  exports: 0,
};
const call = (e: Expected, name: keyof Calls): Calls => ({ ...e.calls, [name]: e.calls[name] + 1 });
const editing = (e: Expected) => ['idle', 'publishing', 'askingRestore', 'restoring'].includes(e.place);
const readVersions = (e: Expected, page: number): Expected => ({ ...e, shelf: 'loading', page, calls: call(e, 'listVersions') });
const unsaved = (e: Expected) => editing(e) && (e.intro !== e.storedIntro || e.avatar !== OPENED['live with a draft']!.content.avatar);

const EXPECTED_AFTER = (e: Expected, event: ModelEvent): Expected => {
  switch (event.type) {
    case 'xstate.done.actor.openAgent': {
      const agent = (event.output as { agent: StudioAgent }).agent;
      return { ...e, place: agent.retired ? 'retired' : 'idle', hasDraft: agent.hasDraft, intro: agent.content.intro, storedIntro: agent.content.intro, avatar: agent.content.avatar };
    }
    // The versions are read when the author opens them, from the first page; a page that exists is read when turned to.
    case 'versions.open':
      return e.shelf === 'closed' && e.place !== 'loading' ? readVersions(e, 1) : e;
    case 'versions.close':
      return e.shelf === 'loading' || e.shelf === 'shown' || e.shelf === 'failed' ? { ...e, shelf: 'closed' } : e;
    case 'versions.page': {
      const page = event.current as number;
      return e.shelf === 'shown' && page !== e.page && page <= Math.ceil(TOTAL / VERSIONS_PAGE_SIZE) ? readVersions(e, page) : e;
    }
    case 'retry':
      return e.shelf === 'failed' ? { ...e, shelf: 'loading', calls: call(e, 'listVersions') } : e;
    case 'xstate.done.actor.listVersions':
      return { ...e, shelf: 'shown', listed: pageOf(e.page).list.map((item) => item.versionId) };
    case 'xstate.error.actor.listVersions':
      return { ...e, shelf: 'failed' };
    // Only a version shown can be restored, only while the agent is edited, and only once the author says yes.
    case 'restore': {
      const versionId = event.versionId as string;
      return e.place === 'idle' && e.listed.includes(versionId) ? { ...e, place: 'askingRestore', restoreId: versionId, failure: null } : e;
    }
    case 'confirm':
      return e.place === 'askingRestore' ? { ...e, place: 'restoring', calls: call(e, 'restoreVersion') } : e;
    case 'cancel':
      return e.place === 'askingRestore' ? { ...e, place: 'idle', restoreId: null } : e;
    // The version restored is the draft now, and the form shows it: what was typed is replaced (the author was told).
    case 'xstate.done.actor.restoreVersion': {
      const restored = (event.output as StudioAgent).content;
      return { ...e, place: 'idle', restoreId: null, hasDraft: true, intro: restored.intro, storedIntro: restored.intro, avatar: restored.avatar, notices: [...e.notices, 'restored'] };
    }
    case 'xstate.error.actor.restoreVersion':
      return { ...e, place: 'idle', restoreId: null, failure: 'restore' };
    // What is stored is exported, retired or not; one export at a time.
    case 'export':
      return e.place !== 'loading' && !e.exporting ? { ...e, exporting: true, calls: call(e, 'exportAgent') } : e;
    case 'xstate.done.actor.exportAgent':
      return { ...e, exporting: false, exports: e.exports + 1 };
    case 'xstate.error.actor.exportAgent':
      return { ...e, exporting: false, failure: 'export' };
    // Publishing the draft (nothing changed since): a new version, so the versions shown are read again from the first page.
    case 'publish':
      return e.place === 'idle' && e.hasDraft ? { ...e, place: 'publishing', failure: null, calls: call(e, 'publishAgent') } : e;
    case 'xstate.done.actor.publishAgent': {
      const live = { ...e, place: 'idle' as const, hasDraft: false, notices: [...e.notices, 'published' as const] };
      return e.shelf === 'shown' || e.shelf === 'failed' || e.shelf === 'loading' ? readVersions(live, 1) : live;
    }
    // A picture: an image within the limit is uploaded, anything else said; only while the agent is edited.
    case 'avatar.select': {
      if (!editing(e) || e.uploading) return e;
      const file = event.file as File;
      if (file === FILES.text) return { ...e, avatarProblem: 'notImage' };
      if (file === FILES.huge) return { ...e, avatarProblem: 'tooLarge' };
      return { ...e, uploading: true, avatarProblem: null, calls: call(e, 'uploadAvatar') };
    }
    case 'xstate.done.actor.uploadAvatar': {
      if (!editing(e)) return { ...e, uploading: false };
      return (event.output as FileRef).kind === 'image' ? { ...e, uploading: false, avatar: '/api/media/file/f1', avatarProblem: null } : { ...e, uploading: false, avatarProblem: 'notImage' };
    }
    case 'xstate.error.actor.uploadAvatar':
      return { ...e, uploading: false, avatarProblem: 'failed' };
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const PLACES: Record<Place, unknown> = {
  loading: 'loading',
  retired: 'retired',
  idle: { editing: 'idle' },
  publishing: { editing: 'publishing' },
  askingRestore: { editing: 'askingRestore' },
  restoring: { editing: 'restoring' },
};

const play = async (events: ModelEvent[]) => {
  const held = heldCalls();
  const told = { notices: [] as StudioNotice[], exports: 0 };
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
        deliverExport: () => void (told.exports += 1),
      },
    }),
    { input },
  ).start();

  const check = (e: Expected, after: string) => {
    const state = actor.getSnapshot();
    const { context } = state;
    expect(state.matches({ agent: PLACES[e.place] } as never), `after ${after}: ${JSON.stringify(state.value)}`).toBe(true);
    expect(state.matches({ versions: e.shelf }), `${after}: versions ${JSON.stringify(state.value)}`).toBe(true);
    expect(context.versions.current, `${after}: page`).toBe(e.page);
    expect(context.versions.list.map((item) => item.versionId), `${after}: listed`).toEqual(e.listed);
    expect(context.restoreId, `${after}: restoring`).toBe(e.restoreId);
    expect(context.form.intro, `${after}: intro`).toBe(e.intro);
    expect(context.baseline.intro, `${after}: stored intro`).toBe(e.storedIntro);
    expect(context.form.avatar, `${after}: picture`).toBe(e.avatar);
    expect(context.agent?.hasDraft ?? false, `${after}: draft`).toBe(e.hasDraft);
    expect(state.matches({ avatar: e.uploading ? 'uploading' : 'idle' }), `${after}: uploading`).toBe(true);
    expect(context.avatarProblem, `${after}: picture refused`).toBe(e.avatarProblem);
    expect(state.matches({ export: e.exporting ? 'exporting' : 'idle' }), `${after}: exporting`).toBe(true);
    expect(context.failure?.action ?? null, `${after}: failure`).toBe(e.failure);
    expect(agentStudioView.unsaved(state) && editing(e), `${after}: unsaved`).toBe(unsaved(e));
    // Each version's Restore button.
    for (const item of context.versions.list) expect(state.can({ type: 'restore', versionId: item.versionId }), `${after}: restore ${item.versionId}`).toBe(e.place === 'idle');
    const made: Calls = { openAgent: 0, listVersions: 0, restoreVersion: 0, exportAgent: 0, publishAgent: 0, uploadAvatar: 0 };
    for (const { src } of held.calls) made[src as keyof Calls] += 1;
    expect(made, `${after}: calls`).toEqual(e.calls);
    expect(told.notices, `${after}: notices`).toEqual(e.notices);
    expect(told.exports, `${after}: files`).toBe(e.exports);
  };

  let expected = START;
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

const describePath = (events: ModelEvent[]) =>
  events
    .map((event) => {
      if (event.type === 'avatar.select') return `pick ${event.picked as string}`;
      if (event.type === 'versions.page') return `page ${event.current as number}`;
      if (event.type === 'restore') return `restore ${event.versionId as string}`;
      if (event.type === 'xstate.done.actor.openAgent') return `open ${Object.entries(OPENED).find(([, agent]) => agent === (event.output as { agent: StudioAgent }).agent)?.[0]}`;
      if (event.type === 'xstate.done.actor.uploadAvatar') return `uploaded ${(event.output as FileRef).kind}`;
      return describeEvents([event]);
    })
    .join(', ');

const PARTS: [string, Part, { agent: number; versions: number; avatar: number; export: number }, number][] = [
  // agent: loading, retired, idle, publishing, askingRestore, restoring; versions: closed, loading, shown, failed
  ['versions and restoring', 'versions', { agent: 6, versions: 4, avatar: 1, export: 1 }, 778],
  // agent: loading, retired, idle; avatar and export: idle, busy
  ['the export and the picture', 'files', { agent: 3, versions: 1, avatar: 2, export: 2 }, 41],
];

describe.each(PARTS)('an agent’s %s, paths generated from the production machine', (_name, part, places, transitions) => {
  const { paths, transitionCount, reachedStates } = productionPaths(agentStudioMachine, { events: worldEvents(part), input, serializeState });

  it('reaches every place of its part, and takes every transition', () => {
    const regions = [...reachedStates].map((value) => JSON.parse(value) as Record<string, unknown>);
    const seen = (region: string) => new Set(regions.map((value) => JSON.stringify(value[region]))).size;
    expect({ agent: seen('agent'), versions: seen('versions'), avatar: seen('avatar'), export: seen('export') }).toEqual(places);
    // One path per transition: a change of this count is a change of the machine's chart, to look at.
    expect(transitionCount).toBe(transitions);
  });

  it.each(paths.map((path) => [describePath(path.events), path] as const))('%s', async (_description, path) => {
    expect(path.steps.length, path.description).toBeGreaterThan(1);
    await play(path.events);
  });
});
