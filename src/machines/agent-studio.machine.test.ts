import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FileRef } from '../contract/media';
import { STUDIO_ERRORS, type AgentDocument, type AgentSaveRequest, type StudioAgent } from '../contract/studio';
import { content, MODELS, published, refusal, studioAgent, version } from '../../tests/spa/models/agent-studio-kit';
import { agentStudioMachine, agentStudioView, type StudioNotice } from './agent-studio.machine';

type Overrides = {
  agent?: StudioAgent | null;
  open?: () => Promise<{ agent: StudioAgent | null; models: typeof MODELS }>;
  save?: (input: AgentSaveRequest) => Promise<StudioAgent>;
  publish?: () => Promise<StudioAgent>;
  upload?: () => Promise<FileRef>;
  isAdmin?: boolean;
  companyId?: string | null;
};

const start = (overrides: Overrides = {}) => {
  const agent = overrides.agent === undefined ? studioAgent() : overrides.agent;
  const calls = {
    save: vi.fn(overrides.save ?? (async (input: AgentSaveRequest) => studioAgent({ agentId: input.agentId ?? 'agent-new', content: content({ ...input, avatar: input.avatar || 'data:image/svg+xml,generated' }) }))),
    publish: vi.fn(overrides.publish ?? (async () => published({ content: agent?.content ?? content() }))),
    preview: vi.fn(async () => ({ conversationId: 'conv-preview' })),
    exported: vi.fn(
      async (): Promise<AgentDocument> => ({
        format: 'kraken-agent',
        version: 1,
        agent: { name: 'Tutor', intro: '', category: null, systemPrompt: '', model: null, parameters: {}, starters: {}, translations: {}, allowModelChoice: false },
      }),
    ),
    retire: vi.fn(async (): Promise<void> => undefined),
    restore: vi.fn(async () => studioAgent({ ...published(), hasDraft: true, isDraft: true, content: content({ name: 'Tutor, as it was' }) })),
    versions: vi.fn(async () => ({ list: [version()], total: 1 })),
    upload: vi.fn(overrides.upload ?? (async (): Promise<FileRef> => ({ fileId: 'f1', name: 'a.png', url: '/api/media/file/f1', kind: 'image', mimeType: 'image/png', size: 10 }))),
  };
  const told = { created: [] as string[], previews: [] as string[], exports: [] as unknown[], notices: [] as StudioNotice[], left: [] as string[] };
  const actor = createActor(
    agentStudioMachine.provide({
      actors: {
        openAgent: fromPromise(overrides.open ?? (async () => ({ agent, models: MODELS }))),
        saveAgent: fromPromise(({ input }) => calls.save(input)),
        publishAgent: fromPromise(() => calls.publish()),
        startPreview: fromPromise(() => calls.preview()),
        exportAgent: fromPromise(() => calls.exported()),
        retireAgent: fromPromise(() => calls.retire()),
        restoreVersion: fromPromise(() => calls.restore()),
        listVersions: fromPromise(() => calls.versions()),
        uploadAvatar: fromPromise(() => calls.upload()),
      },
      actions: {
        agentCreated: (_, { agentId }) => void told.created.push(agentId),
        openPreview: (_, { conversationId }) => void told.previews.push(conversationId),
        deliverExport: (_, params) => void told.exports.push(params),
        notify: (_, { notice }) => void told.notices.push(notice),
        leave: (_, { to }) => void told.left.push(to),
      },
    }),
    { input: { agentId: agent?.agentId ?? null, companyId: overrides.companyId === undefined ? 'company-acme' : overrides.companyId, isAdmin: overrides.isAdmin ?? false, uploadLimitBytes: 1000 } },
  ).start();
  const idle = () => waitFor(actor, (state) => state.matches({ agent: { editing: 'idle' } }));
  return { actor, calls, told, idle };
};

describe('the agent studio: a new agent', () => {
  it('starts blank with the models, and names what is missing before asking the server', async () => {
    const { actor, calls, idle } = start({ agent: null });
    await idle();
    expect(actor.getSnapshot().context).toMatchObject({ agentId: null, models: MODELS, form: { name: '', visibility: 'private', modelId: null } });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().context.problems).toEqual({ name: 'required' });
    expect(calls.save).not.toHaveBeenCalled();
    actor.send({ type: 'field.change', patch: { name: 'Tutor' } });
    expect(actor.getSnapshot().context.problems).toEqual({});
  });

  it('is saved without an id, gets its id, moves to its address and shows what the server kept', async () => {
    const { actor, calls, told, idle } = start({ agent: null });
    await idle();
    actor.send({ type: 'field.change', patch: { name: '  Tutor  ', parameters: { temperature: '0,7', topP: '', maxOutput: '' } } });
    actor.send({ type: 'save' });
    await waitFor(actor, () => told.notices.length > 0);
    const sent = calls.save.mock.calls[0]![0];
    expect(sent).not.toHaveProperty('agentId');
    expect(sent).toMatchObject({ name: 'Tutor', avatar: '', parameters: { temperature: 0.7 } });
    expect(told).toMatchObject({ created: ['agent-new'], notices: ['saved'] });
    const { context } = actor.getSnapshot();
    expect(context.agentId).toBe('agent-new');
    expect(context.form.avatar).toBe('data:image/svg+xml,generated');
    expect(agentStudioView.unsaved(actor.getSnapshot())).toBe(false);
  });

  it('keeps what was typed while the save was out, and says it is unsaved', async () => {
    let answer: (agent: StudioAgent) => void = () => undefined;
    const { actor, idle } = start({ agent: null, save: (input) => new Promise((resolve) => (answer = () => resolve(studioAgent({ agentId: 'agent-new', content: content({ ...input, avatar: 'data:image/svg+xml,T' }) })))) });
    await idle();
    actor.send({ type: 'field.change', patch: { name: 'Tutor' } });
    actor.send({ type: 'save' });
    actor.send({ type: 'field.change', patch: { intro: 'Typed meanwhile' } });
    answer(studioAgent());
    await idle();
    expect(actor.getSnapshot().context.form).toMatchObject({ name: 'Tutor', intro: 'Typed meanwhile' });
    // What the server kept is what went out; the picture it made stands in for none.
    expect(actor.getSnapshot().context.baseline).toMatchObject({ intro: '', avatar: 'data:image/svg+xml,T' });
    expect(agentStudioView.unsaved(actor.getSnapshot())).toBe(true);
  });

  it('keeps everything typed when the save is refused, and says why beside the field it is about', async () => {
    const { actor, idle } = start({ agent: null, save: async () => Promise.reject(refusal(400, STUDIO_ERRORS.avatarRefused)) });
    await idle();
    actor.send({ type: 'field.change', patch: { name: 'Tutor', avatar: '/api/media/file/not-mine' } });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toMatchObject({ action: 'save', status: 400, reason: STUDIO_ERRORS.avatarRefused });
    expect(actor.getSnapshot().context.form).toMatchObject({ name: 'Tutor', avatar: '/api/media/file/not-mine' });
    actor.send({ type: 'field.change', patch: { intro: 'Another field' } });
    expect(actor.getSnapshot().context.failure).not.toBeNull();
    actor.send({ type: 'field.change', patch: { avatar: '' } });
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('may not be published to an organisation when its author has none', async () => {
    const { actor, calls, idle } = start({ agent: null, companyId: null });
    await idle();
    actor.send({ type: 'field.change', patch: { name: 'Tutor', visibility: 'organisation' } });
    actor.send({ type: 'publish' });
    expect(actor.getSnapshot().context).toMatchObject({ problems: { visibility: 'noOrganisation' }, pending: null });
    expect(calls.save).not.toHaveBeenCalled();
  });
});

describe('the agent studio: publishing and trying', () => {
  it('saves the changes first, then publishes, and says it went live', async () => {
    const { actor, calls, told, idle } = start({ agent: published() });
    await idle();
    actor.send({ type: 'field.change', patch: { systemPrompt: 'Be brief.' } });
    actor.send({ type: 'publish' });
    await waitFor(actor, () => told.notices.length > 0);
    expect(calls.save).toHaveBeenCalledWith(expect.objectContaining({ agentId: 'agent-1', systemPrompt: 'Be brief.' }));
    expect(calls.publish).toHaveBeenCalledOnce();
    expect(told.notices).toEqual(['published']);
    expect(actor.getSnapshot().context.agent).toMatchObject({ published: true, hasDraft: false });
  });

  it('says a public version waits for an admin', async () => {
    const { actor, told, idle } = start({ agent: studioAgent({ content: content({ visibility: 'public' }) }), publish: async () => published({ approval: 'pending', pendingVersionId: 'v2', published: false, versionId: null }) });
    await idle();
    expect(agentStudioView.awaitsApproval(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'publish' });
    await waitFor(actor, () => told.notices.length > 0);
    expect(told.notices).toEqual(['sentForApproval']);
  });

  it('an admin publishes to the public market without waiting', async () => {
    const { actor, idle } = start({ agent: studioAgent({ content: content({ visibility: 'public' }) }), isAdmin: true });
    await idle();
    expect(agentStudioView.awaitsApproval(actor.getSnapshot())).toBe(false);
  });

  it('offers nothing to publish when the live version is up to date', async () => {
    const { actor, idle } = start({ agent: published() });
    await idle();
    expect(actor.getSnapshot().can({ type: 'publish' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'save' })).toBe(false);
    actor.send({ type: 'field.change', patch: { intro: 'New words' } });
    expect(actor.getSnapshot().can({ type: 'publish' })).toBe(true);
  });

  it('keeps the typed form when publishing is refused', async () => {
    const { actor, idle } = start({ agent: studioAgent(), publish: async () => Promise.reject(refusal(400, 'MODEL_UNKNOWN')) });
    await idle();
    actor.send({ type: 'publish' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context.failure).toMatchObject({ action: 'publish', reason: 'MODEL_UNKNOWN' });
    expect(actor.getSnapshot().matches({ agent: { editing: 'idle' } })).toBe(true);
  });

  it('tries the draft in a preview: saved first when changed, then the chat opens it', async () => {
    const { actor, calls, told, idle } = start({ agent: studioAgent() });
    await idle();
    actor.send({ type: 'field.change', patch: { name: 'Tutor 2' } });
    actor.send({ type: 'preview' });
    await waitFor(actor, () => told.previews.length > 0);
    expect(calls.save).toHaveBeenCalledOnce();
    expect(told).toMatchObject({ previews: ['conv-preview'], notices: [] });
    actor.send({ type: 'preview' });
    await waitFor(actor, () => told.previews.length > 1);
    expect(calls.save).toHaveBeenCalledOnce();
  });
});

describe('the agent studio: versions, restore, export, retire', () => {
  it('reads the versions when asked, and restores one into the draft after asking', async () => {
    const { actor, calls, told, idle } = start({ agent: published() });
    await idle();
    expect(actor.getSnapshot().can({ type: 'restore', versionId: 'version-1' })).toBe(false);
    actor.send({ type: 'versions.open' });
    await waitFor(actor, (state) => state.matches({ versions: 'shown' }));
    expect(calls.versions).toHaveBeenCalledOnce();
    actor.send({ type: 'field.change', patch: { intro: 'Unsaved' } });
    actor.send({ type: 'restore', versionId: 'version-1' });
    expect(actor.getSnapshot().matches({ agent: { editing: 'askingRestore' } })).toBe(true);
    actor.send({ type: 'cancel' });
    expect(actor.getSnapshot().context.restoreId).toBeNull();
    actor.send({ type: 'restore', versionId: 'version-1' });
    actor.send({ type: 'confirm' });
    await waitFor(actor, () => told.notices.length > 0);
    expect(told.notices).toEqual(['restored']);
    expect(actor.getSnapshot().context.form.name).toBe('Tutor, as it was');
    expect(agentStudioView.unsaved(actor.getSnapshot())).toBe(false);
  });

  it('reads the versions again after a publish while they are shown', async () => {
    const { actor, calls, idle } = start({ agent: studioAgent() });
    await idle();
    actor.send({ type: 'versions.open' });
    await waitFor(actor, (state) => state.matches({ versions: 'shown' }));
    actor.send({ type: 'publish' });
    await waitFor(actor, () => calls.versions.mock.calls.length === 2);
  });

  it('exports what is saved, and retires after asking; a retired agent is only read and exported', async () => {
    const { actor, calls, told, idle } = start({ agent: published() });
    await idle();
    actor.send({ type: 'export' });
    await waitFor(actor, () => told.exports.length > 0);
    actor.send({ type: 'retire' });
    actor.send({ type: 'cancel' });
    expect(calls.retire).not.toHaveBeenCalled();
    actor.send({ type: 'retire' });
    actor.send({ type: 'confirm' });
    await waitFor(actor, (state) => state.matches({ agent: 'retired' }));
    expect(told.notices).toEqual(['retired']);
    actor.send({ type: 'field.change', patch: { name: 'Changed' } });
    expect(actor.getSnapshot().context.form.name).toBe('Tutor');
    expect(actor.getSnapshot().can({ type: 'export' })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'versions.open' })).toBe(true);
  });

  it('opens a retired agent read-only', async () => {
    const { actor } = start({ agent: published({ retired: true, published: false }) });
    await waitFor(actor, (state) => state.matches({ agent: 'retired' }));
    expect(agentStudioView.editable(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().can({ type: 'save' })).toBe(false);
  });
});

describe('the agent studio: opening, leaving, the picture', () => {
  it('says an agent that is not the person’s does not exist, and lets a failed opening be tried again', async () => {
    const missing = start({ open: async () => Promise.reject(refusal(404)) });
    await waitFor(missing.actor, (state) => state.matches({ agent: 'notFound' }));
    let fail = true;
    const flaky = start({ open: async () => (fail ? Promise.reject(refusal(500)) : { agent: studioAgent(), models: MODELS }) });
    await waitFor(flaky.actor, (state) => state.matches({ agent: 'loadFailed' }));
    expect(flaky.actor.getSnapshot().context.loadFailure).toMatchObject({ status: 500 });
    fail = false;
    flaky.actor.send({ type: 'retry' });
    await flaky.idle();
  });

  it('asks before leaving with unsaved changes, and goes where asked once confirmed', async () => {
    const { actor, told, idle } = start();
    await idle();
    expect(agentStudioView.mustAskBeforeLeaving(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'field.change', patch: { name: 'Changed' } });
    actor.send({ type: 'leave.request', to: '/chat' });
    expect(actor.getSnapshot().matches({ leaving: 'asking' })).toBe(true);
    actor.send({ type: 'leave.stay' });
    expect(told.left).toEqual([]);
    actor.send({ type: 'leave.request', to: '/account' });
    actor.send({ type: 'leave.confirm' });
    expect(told.left).toEqual(['/account']);
  });

  it('takes a picture that is an image within the limit, and says what is wrong with any other', async () => {
    const { actor, calls, idle } = start();
    await idle();
    actor.send({ type: 'avatar.select', file: new File(['x'], 'a.txt', { type: 'text/plain' }) });
    expect(actor.getSnapshot().context.avatarProblem).toBe('notImage');
    actor.send({ type: 'avatar.select', file: new File(['x'.repeat(2000)], 'a.png', { type: 'image/png' }) });
    expect(actor.getSnapshot().context.avatarProblem).toBe('tooLarge');
    expect(calls.upload).not.toHaveBeenCalled();
    actor.send({ type: 'avatar.select', file: new File(['x'], 'a.png', { type: 'image/png' }) });
    await waitFor(actor, (state) => state.matches({ avatar: 'idle' }) && state.context.form.avatar === '/api/media/file/f1');
    expect(actor.getSnapshot().context.avatarProblem).toBeNull();
  });

  it('says an upload that failed, or was not an image after all', async () => {
    const failing = start({ upload: async () => Promise.reject(refusal(413)) });
    await failing.idle();
    failing.actor.send({ type: 'avatar.select', file: new File(['x'], 'a.png', { type: 'image/png' }) });
    await waitFor(failing.actor, (state) => state.context.avatarProblem === 'failed');
    const other = start({ upload: async () => ({ fileId: 'f2', name: 'a.png', url: '/api/media/file/f2', kind: 'other', mimeType: 'image/png', size: 1 }) });
    await other.idle();
    other.actor.send({ type: 'avatar.select', file: new File(['x'], 'a.png', { type: 'image/png' }) });
    await waitFor(other.actor, (state) => state.context.avatarProblem === 'notImage');
    expect(other.actor.getSnapshot().context.form.avatar).toBe(content().avatar);
  });

  it('checks the parameters against the contract and the model', async () => {
    const { actor, idle } = start();
    await idle();
    actor.send({ type: 'field.change', patch: { parameters: { temperature: '3', topP: 'abc', maxOutput: '5000' } } });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().context.problems).toEqual({ 'parameters.temperature': 'range', 'parameters.topP': 'format', 'parameters.maxOutput': 'range' });
    actor.send({ type: 'field.change', patch: { modelId: 'model-seeing' } });
    actor.send({ type: 'field.change', patch: { parameters: { temperature: '1', topP: '0.9', maxOutput: '4000' } } });
    actor.send({ type: 'save' });
    // The Seeing model writes 2,048 tokens at most.
    expect(actor.getSnapshot().context.problems).toEqual({ 'parameters.maxOutput': 'range' });
  });
});
