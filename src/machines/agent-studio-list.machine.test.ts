import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { StudioAgentSummary } from '../contract/studio';
import { refusal, studioAgent } from '../../tests/spa/models/agent-studio-kit';
import { agentStudioListMachine, STUDIO_PAGE_SIZE } from './agent-studio-list.machine';

const summary = (agentId: string): StudioAgentSummary => {
  const { content, ...standing } = studioAgent({ agentId });
  return { ...standing, name: content.name, avatar: content.avatar, intro: content.intro, category: content.category, visibility: content.visibility };
};

const start = (options: { mayListAll?: boolean; total?: number; failFirst?: boolean; importAgent?: () => Promise<ReturnType<typeof studioAgent>> } = {}) => {
  let failing = options.failFirst ?? false;
  const list = vi.fn(async (input: { current: number; pageSize: number; scope: string }) => {
    if (failing) {
      failing = false;
      throw refusal(500);
    }
    return { list: [summary(`agent-${input.scope}-${input.current}`)], total: options.total ?? 1, current: input.current, pageSize: input.pageSize };
  });
  const imported: string[] = [];
  const actor = createActor(
    agentStudioListMachine.provide({
      actors: {
        listAgents: fromPromise(({ input }) => list(input)),
        importAgent: fromPromise(options.importAgent ?? (async () => studioAgent({ agentId: 'agent-imported' }))),
      },
      actions: { agentImported: (_, { agentId }) => void imported.push(agentId) },
    }),
    { input: { mayListAll: options.mayListAll ?? false } },
  ).start();
  const loaded = () => waitFor(actor, (state) => state.matches({ list: 'loaded' }));
  return { actor, list, imported, loaded };
};

describe('the studio’s list', () => {
  it('lists the person’s agents, a page at a time, and only pages that exist', async () => {
    const { actor, list, loaded } = start({ total: STUDIO_PAGE_SIZE + 1 });
    await loaded();
    expect(list).toHaveBeenCalledWith({ current: 1, pageSize: STUDIO_PAGE_SIZE, scope: 'mine' });
    actor.send({ type: 'page', current: 3 });
    actor.send({ type: 'page', current: 1 });
    expect(list).toHaveBeenCalledTimes(1);
    actor.send({ type: 'page', current: 2 });
    await loaded();
    expect(actor.getSnapshot().context).toMatchObject({ current: 2, agents: [{ agentId: 'agent-mine-2' }] });
  });

  it('lists everyone’s agents for an admin only, from the first page', async () => {
    const person = start();
    await person.loaded();
    person.actor.send({ type: 'scope', scope: 'all' });
    expect(person.list).toHaveBeenCalledTimes(1);
    const admin = start({ mayListAll: true, total: 50 });
    await admin.loaded();
    admin.actor.send({ type: 'page', current: 2 });
    await admin.loaded();
    admin.actor.send({ type: 'scope', scope: 'all' });
    await admin.loaded();
    expect(admin.list).toHaveBeenLastCalledWith({ current: 1, pageSize: STUDIO_PAGE_SIZE, scope: 'all' });
  });

  it('says when the list could not be read, and reads it again', async () => {
    const { actor, list, loaded } = start({ failFirst: true });
    await waitFor(actor, (state) => state.matches({ list: 'failed' }));
    expect(actor.getSnapshot().context.failure).toMatchObject({ status: 500 });
    actor.send({ type: 'retry' });
    await loaded();
    expect(list).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('opens an imported agent’s editor, and says why a file was refused', async () => {
    const { actor, imported } = start();
    actor.send({ type: 'import', file: new File(['{}'], 'agent.json', { type: 'application/json' }) });
    await waitFor(actor, () => imported.length > 0);
    expect(imported).toEqual(['agent-imported']);
    const refused = start({ importAgent: async () => Promise.reject(refusal(400)) });
    refused.actor.send({ type: 'import', file: new File(['{}'], 'agent.json') });
    await waitFor(refused.actor, (state) => state.context.importFailure !== null);
    expect(refused.actor.getSnapshot().context.importFailure).toMatchObject({ status: 400 });
    refused.actor.send({ type: 'dismiss' });
    expect(refused.actor.getSnapshot().context.importFailure).toBeNull();
  });
});
