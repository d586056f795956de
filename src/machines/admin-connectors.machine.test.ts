import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Connector } from '../contract/admin';
import { adminConnectorsMachine, connectorProblemsOf, type ConnectorNotice } from './admin-connectors.machine';

const connector = (companyId: string, partial: Partial<Connector> = {}): Connector => ({
  companyId,
  platform: 'linkedin',
  configured: false,
  source: 'none',
  authorUrn: null,
  updatedAt: null,
  updatedByName: null,
  ...partial,
});

const start = (options: { organisations?: { id: string; name: string; members: number }[]; set?: () => Promise<Connector> } = {}) => {
  const calls = {
    list: vi.fn(async (companyId: string) => [companyId === 'acme' ? connector('acme', { configured: true, source: 'console', authorUrn: 'urn:li:person:ada' }) : connector(companyId)]),
    set: vi.fn(options.set ?? (async () => connector('globex', { configured: true, source: 'console', authorUrn: 'urn:li:organization:42' }))),
    clear: vi.fn(async (): Promise<void> => undefined),
    notices: [] as ConnectorNotice[],
  };
  const actor = createActor(
    adminConnectorsMachine.provide({
      actors: {
        listOrganisations: fromPromise(async () => options.organisations ?? [{ id: 'acme', name: 'Acme', members: 1 }, { id: 'globex', name: 'Globex', members: 0 }]),
        listConnectors: fromPromise(({ input }) => calls.list(input.companyId)),
        setConnector: fromPromise(() => calls.set()),
        clearConnector: fromPromise(() => calls.clear()),
      },
      actions: { notify: (_, notice) => void calls.notices.push(notice) },
    }),
  ).start();
  return { actor, calls };
};

describe('admin connectors', () => {
  it("opens on the first organisation, offering its author again but never a token", async () => {
    const { actor } = start();
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    expect(actor.getSnapshot().context).toMatchObject({ companyId: 'acme', form: { accessToken: '', authorUrn: 'urn:li:person:ada' } });
  });

  it('checks the form with the contract before saving, and forgets the token once saved', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    actor.send({ type: 'organisation.pick', companyId: 'globex' });
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().context.problems).toEqual({ accessToken: 'required', authorUrn: 'required' });
    expect(calls.set).not.toHaveBeenCalled();
    actor.send({ type: 'form.change', field: 'accessToken', value: 'AQX-long-enough' });
    actor.send({ type: 'form.change', field: 'authorUrn', value: 'urn:li:organization:42' });
    expect(actor.getSnapshot().context.problems).toEqual({});
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }) && calls.notices.length > 0);
    expect(actor.getSnapshot().context).toMatchObject({
      form: { accessToken: '', authorUrn: 'urn:li:organization:42' },
      connectors: [{ configured: true, source: 'console' }],
    });
    expect(calls.notices).toEqual([{ kind: 'saved' }]);
  });

  it('keeps the form when the server refuses it', async () => {
    const { actor } = start({
      set: async () => {
        throw Object.assign(new Error('HTTP 400'), { status: 400 });
      },
    });
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    actor.send({ type: 'form.change', field: 'accessToken', value: 'AQX-long-enough' });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ failure: { status: 400 }, form: { accessToken: 'AQX-long-enough', authorUrn: 'urn:li:person:ada' } });
  });

  it('clears only a connector set in the console, then reads it again', async () => {
    const { actor, calls } = start();
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    actor.send({ type: 'clear' });
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }) && calls.notices.length > 0);
    expect(calls.clear).toHaveBeenCalledTimes(1);
    expect(calls.list).toHaveBeenCalledTimes(2);
    actor.send({ type: 'organisation.pick', companyId: 'globex' });
    await waitFor(actor, (state) => state.matches({ chosen: { loaded: 'idle' } }));
    expect(actor.getSnapshot().can({ type: 'clear' })).toBe(false);
  });

  it('says there is nothing to configure without an organisation', async () => {
    const { actor } = start({ organisations: [] });
    await waitFor(actor, (state) => state.matches('noOrganisation'));
  });

  it('names a malformed author and a short token', () => {
    expect(connectorProblemsOf('acme', { accessToken: 'short', authorUrn: 'https://linkedin.com/in/ada' })).toEqual({ accessToken: 'format', authorUrn: 'format' });
    expect(connectorProblemsOf('acme', { accessToken: 'long-enough-token', authorUrn: 'urn:li:person:a_b-1' })).toEqual({});
  });
});
