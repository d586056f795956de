import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AuditEntry, Organisation } from '../contract/admin';
import type { Page } from '../contract/paging';
import { adminAccess, adminConsoleMachine, failureOf, type AdminPanel } from './admin-console.machine';
import { adminAuditMachine } from './admin-audit.machine';
import { adminOrganisationsMachine } from './admin-organisations.machine';
import { adminUsageMachine, busiestDay } from './admin-usage.machine';

const user = (role?: 'member' | 'operator' | 'admin') => ({ id: 'u', username: 'u', nickname: 'u', avatar: '', ...(role ? { role } : {}) });

describe('the admin console', () => {
  it('lets in admins only, and sends a visitor to log in', () => {
    expect(adminAccess(null)).toBe('visitor');
    expect(adminAccess(user())).toBe('refused');
    expect(adminAccess(user('member'))).toBe('refused');
    expect(adminAccess(user('operator'))).toBe('refused');
    expect(adminAccess(user('admin'))).toBe('allowed');
  });

  it('opens the panel the address names (users otherwise) and reports each change once', () => {
    const opened: AdminPanel[] = [];
    const actor = createActor(adminConsoleMachine.provide({ actions: { panelOpened: (_, { panel }) => void opened.push(panel) } }), {
      input: { panel: 'nonsense' },
    }).start();
    expect(actor.getSnapshot().context.panel).toBe('users');
    actor.send({ type: 'open', panel: 'usage' });
    actor.send({ type: 'open', panel: 'usage' });
    expect(opened).toEqual(['usage']);
    expect(createActor(adminConsoleMachine, { input: { panel: 'audit' } }).start().getSnapshot().context.panel).toBe('audit');
  });

  it('keeps only the status of a failure, none when nothing answered', () => {
    expect(failureOf(Object.assign(new Error('x'), { status: 409 }))).toEqual({ status: 409 });
    expect(failureOf(Object.assign(new Error('x'), { status: 503, unreachable: true }))).toEqual({ status: undefined });
  });

  it("keeps the server's reason word beside the status, from the answer the client kept or the error itself", () => {
    const answered = { code: 1, msg: 'A model of Acme answers for 2 published agents', data: null, reason: 'MODEL_IN_USE' };
    expect(failureOf(Object.assign(new Error('x'), { status: 409, cause: { data: answered } }))).toStrictEqual({ status: 409, reason: 'MODEL_IN_USE' });
    expect(failureOf(Object.assign(new Error('x'), { status: 409, reason: 'AGENT_VERSION_NOT_PENDING' }))).toStrictEqual({ status: 409, reason: 'AGENT_VERSION_NOT_PENDING' });
    // No reason, or one that is not a word: only the status.
    expect(failureOf(Object.assign(new Error('x'), { status: 400, cause: { data: { msg: 'bad' } } }))).toStrictEqual({ status: 400 });
    expect(failureOf(Object.assign(new Error('x'), { status: 400, cause: { data: { reason: 7 } } }))).toStrictEqual({ status: 400 });
    // Nothing answered: no status, and nothing else either.
    expect(failureOf(Object.assign(new Error('x'), { unreachable: true, cause: { data: { reason: 'MODEL_IN_USE' } } }))).toStrictEqual({ status: undefined });
  });

  it('opens the model registry and the approvals from the address', () => {
    expect(createActor(adminConsoleMachine, { input: { panel: 'models' } }).start().getSnapshot().context.panel).toBe('models');
    expect(createActor(adminConsoleMachine, { input: { panel: 'reviews' } }).start().getSnapshot().context.panel).toBe('reviews');
  });
});

describe('organisations', () => {
  it('adds one with a trimmed name, and keeps the name when refused', async () => {
    const names: string[] = [];
    let refuse = true;
    const actor = createActor(
      adminOrganisationsMachine.provide({
        actors: {
          listOrganisations: fromPromise(async (): Promise<Organisation[]> => []),
          createOrganisation: fromPromise(async ({ input }) => {
            names.push(input.name);
            if (refuse) throw Object.assign(new Error('HTTP 409'), { status: 409 });
            return { id: 'o1', name: input.name, members: 0 };
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }));
    actor.send({ type: 'create' });
    expect(names).toEqual([]);
    actor.send({ type: 'name.change', name: ' Initech ' });
    actor.send({ type: 'create' });
    await waitFor(actor, (state) => state.context.failure !== null);
    expect(actor.getSnapshot().context).toMatchObject({ name: ' Initech ', failure: { status: 409 } });
    refuse = false;
    actor.send({ type: 'create' });
    await waitFor(actor, (state) => state.context.organisations.length === 1);
    expect(names).toEqual(['Initech', 'Initech']);
    expect(actor.getSnapshot().context).toMatchObject({ name: '', failure: null });
  });
});

describe('usage', () => {
  it('reads again for another period only', async () => {
    const asked: number[] = [];
    const actor = createActor(
      adminUsageMachine.provide({
        actors: {
          loadUsage: fromPromise(async ({ input }) => {
            asked.push(input.days);
            return { days: [{ day: '2026-03-01', questions: 4, tokens: 9 }], users: [], agents: [] };
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches('loaded'));
    actor.send({ type: 'days.pick', days: 30 });
    actor.send({ type: 'days.pick', days: 90 });
    await waitFor(actor, (state) => state.matches('loaded'));
    expect(asked).toEqual([30, 90]);
    expect(busiestDay(actor.getSnapshot().context.usage!)).toBe(4);
    expect(busiestDay({ days: [{ day: '2026-03-01', questions: 0, tokens: 0 }], users: [], agents: [] })).toBe(1);
  });
});

describe('the audit log', () => {
  it('filters from page 1 with the action trimmed, and pages within range', async () => {
    const asked: unknown[] = [];
    const actor = createActor(
      adminAuditMachine.provide({
        actors: {
          listAudit: fromPromise(async ({ input }): Promise<Page<AuditEntry>> => {
            asked.push(input);
            return { list: [], total: 60, current: input.current ?? 1, pageSize: 25 };
          }),
        },
      }),
    ).start();
    await waitFor(actor, (state) => state.matches('loaded'));
    actor.send({ type: 'page', current: 4 });
    actor.send({ type: 'page', current: 3 });
    await waitFor(actor, (state) => state.matches('loaded'));
    actor.send({ type: 'action.typed', action: ' user.update ' });
    actor.send({ type: 'filter' });
    await waitFor(actor, (state) => state.matches('loaded'));
    expect(asked).toEqual([
      { current: 1, pageSize: 25 },
      { current: 3, pageSize: 25 },
      { current: 1, pageSize: 25, action: 'user.update' },
    ]);
  });
});
