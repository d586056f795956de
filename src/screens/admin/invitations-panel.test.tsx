import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember, seedOrganisation } from '../../../tests/msw/admin-handlers';
import { fail } from '../../../tests/msw/handlers';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { endpoints } from '../../contract/endpoints';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

const openInvitations = async () => {
  seedOrganisation('Acme');
  const globex = seedOrganisation('Globex');
  const { user } = seedMember({ nickname: 'Ada', role: 'admin' });
  const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=invitations', signedInAs: user });
  await screen.findByText('No invitations yet.');
  return { view, globex };
};

describe('the invitations panel', () => {
  it('creates an invitation and shows its link once, as a whole address', async () => {
    const { view, globex } = await openInvitations();
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Organisation' }), 'Globex');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'operator');
    await view.user.type(screen.getByRole('textbox', { name: 'Note (whom it is for)' }), 'Grace, new editor');
    await view.user.click(screen.getByRole('button', { name: 'Create invitation' }));

    const link = await screen.findByTestId('one-time-link');
    const address = within(link).getByRole('textbox', { name: 'Invitation link to Globex' }) as HTMLInputElement;
    expect(address.value).toMatch(new RegExp(`^${location.origin}/login\\?invitation=\\S+$`));
    expect(link).toHaveTextContent('This link is shown only once: copy it now.');
    const row = screen.getByTestId('admin-invitation-row');
    expect(row).toHaveTextContent('Globex');
    expect(row).toHaveTextContent('Operator');
    expect(row).toHaveTextContent('Grace, new editor');
    expect(row).toHaveTextContent('Open');
    expect([...adminStore().invitations.values()]).toMatchObject([{ companyId: globex.id, role: 'operator', note: 'Grace, new editor' }]);
    // The note is for one invitation; the next starts blank.
    expect(screen.getByRole('textbox', { name: 'Note (whom it is for)' })).toHaveValue('');

    await view.user.click(within(link).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByTestId('one-time-link')).toBeNull();
    expect(screen.queryByText(address.value)).toBeNull();
  });

  it('revokes an open invitation: its status says so and it cannot be revoked again', async () => {
    const { view } = await openInvitations();
    await view.user.click(screen.getByRole('button', { name: 'Create invitation' }));
    await screen.findByTestId('one-time-link');
    await view.user.click(screen.getByRole('button', { name: 'Revoke the invitation to Acme' }));
    await waitFor(() => expect(screen.getByTestId('admin-invitation-row')).toHaveTextContent('Revoked'));
    expect(screen.queryByRole('button', { name: 'Revoke the invitation to Acme' })).toBeNull();
    expect(await screen.findByText('Invitation revoked')).toBeInTheDocument();
  });

  it('keeps what was typed when the server refuses, and says why in words', async () => {
    const { view } = await openInvitations();
    server.use(http.post(endpoints.adminInvitationCreate.path, () => fail(500, 'database is down')));
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'admin');
    await view.user.type(screen.getByRole('textbox', { name: 'Note (whom it is for)' }), 'for Linus');
    await view.user.click(screen.getByRole('button', { name: 'Create invitation' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The invitation was not created.');
    expect(alert).toHaveTextContent('Something went wrong on the server. Please try again.');
    expect(alert).not.toHaveTextContent('database is down');
    expect(screen.getByRole('textbox', { name: 'Note (whom it is for)' })).toHaveValue('for Linus');
    expect(screen.getByRole('combobox', { name: 'Role' })).toHaveValue('admin');
    expect(screen.queryByTestId('one-time-link')).toBeNull();
  });
});
