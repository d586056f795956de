import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember } from '../../../tests/msw/admin-handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { endpoints } from '../../contract/endpoints';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

const days = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ day: `2026-03-${String(index + 1).padStart(2, '0')}`, questions: index === count - 1 ? 12 : index % 3, tokens: 1000 * index }));

describe('the usage panel', () => {
  it('draws a bar per day and the figures per account and per agent, for the period chosen', async () => {
    adminStore().usage = {
      days: days(30),
      users: [{ userId: 'u1', name: 'Grace', questions: 40, tokens: 120_000 }],
      agents: [{ agentId: 'a1', name: 'LinkedIn Post Writer', questions: 35, tokens: 100_000 }],
    };
    const { user } = seedMember({ role: 'admin' });
    const usage = recordRequests(endpoints.adminUsage.path);
    const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=usage', signedInAs: user });
    const chart = await screen.findByTestId('usage-chart');
    expect(within(chart).getAllByRole('listitem')).toHaveLength(30);
    expect(within(chart).getByRole('listitem', { name: /Mar 30 · Questions: 12 · Tokens: 29,000/ })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Per account' })).toHaveTextContent('Grace40120,000');
    expect(screen.getByRole('table', { name: 'Per agent' })).toHaveTextContent('LinkedIn Post Writer35100,000');
    expect(JSON.parse(await usage[0]!.text)).toEqual({ days: 30 });

    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Period' }), 'Last 7 days');
    await waitFor(() => expect(within(screen.getByTestId('usage-chart')).getAllByRole('listitem')).toHaveLength(7));
    expect(JSON.parse(await usage[1]!.text)).toEqual({ days: 7 });
  });
});
