import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Application } from '../contract/applications';
import { applicationsListMachine, APPLICATIONS_SHOWN } from './applications-list.machine';

const application = (id: string): Application => ({
  id, applicationId: id, name: id, avatar: '', intro: '', companyId: 'co', public: true, published: true, isDraft: false,
});

describe('the applications in the market', () => {
  it('asks for one page, tries again after a failure, and starts a workflow with the one picked', async () => {
    let fail = true;
    const fetchApplications = vi.fn(async ({ pageSize }: { pageSize: number }) => {
      if (fail) throw new Error('HTTP 500');
      return { list: [application('digest')], total: 1, current: 1, pageSize };
    });
    const startWorkflow = vi.fn();
    const actor = createActor(
      applicationsListMachine.provide({
        actors: { fetchApplications: fromPromise(({ input }) => fetchApplications(input)) },
        actions: { startWorkflow: (_, params) => startWorkflow(params.applicationId, params.application?.name) },
      }),
    ).start();
    // nothing is listed before the first page arrives
    expect(actor.getSnapshot().context.items).toEqual([]);
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('failed'));
    fail = false;
    actor.send({ type: 'retry' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('ready'));
    expect(actor.getSnapshot().context.items.map((item) => item.applicationId)).toEqual(['digest']);
    expect(fetchApplications).toHaveBeenCalledWith({ pageSize: APPLICATIONS_SHOWN });
    // a retry only where it failed
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
    actor.send({ type: 'application.start', applicationId: 'digest' });
    expect(startWorkflow).toHaveBeenCalledWith('digest', 'digest');
  });
});
