import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, seedAuditEntry, seedMember } from '../../../tests/msw/admin-handlers';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { AUDIT_ACTION_MAX } from '../../contract/admin';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

describe('the audit log panel', () => {
  it('shows who did what, newest first, pages through it and filters by action', async () => {
    for (let index = 0; index < 30; index += 1) seedAuditEntry({ action: 'task.publish', actorName: 'scheduler', target: `task-${index}` });
    seedAuditEntry({ action: 'user.update', actorName: 'Ada', target: 'user-7', details: { role: 'operator' } });
    const { user } = seedMember({ role: 'admin' });
    const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=audit', signedInAs: user });
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(25);
    expect(rows[0]).toHaveTextContent('Ada');
    expect(rows[0]).toHaveTextContent('user.update');
    expect(rows[0]).toHaveTextContent('roleoperator');
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(6));

    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveAttribute('maxlength', String(AUDIT_ACTION_MAX));
    await view.user.type(screen.getByRole('combobox', { name: 'Action' }), 'user.update');
    await view.user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(1));
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });
});
