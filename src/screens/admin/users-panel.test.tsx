import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember, seedOrganisation } from '../../../tests/msw/admin-handlers';
import { db, issueToken } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { ADMIN_SEARCH_MAX } from '../../contract/admin';
import { endpoints } from '../../contract/endpoints';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

/** Ada, the admin, with Bob (an operator of Acme) and Mia (a member of none). */
const openUsers = async () => {
  const acme = seedOrganisation('Acme');
  seedOrganisation('Globex');
  const ada = seedMember({ username: 'ada@example.com', nickname: 'Ada', role: 'admin', organisation: acme });
  const bob = seedMember({ username: 'bob@example.com', nickname: 'Bob', role: 'operator', organisation: acme });
  const mia = seedMember({ username: 'mia@example.com', nickname: 'Mia', role: 'member' });
  const view = await renderWithRuntime(<AdminScreen />, { url: '/admin', signedInAs: ada.user });
  await screen.findAllByTestId('admin-user-row');
  // The organisations arrive beside the accounts: each account's select offers them.
  await screen.findAllByRole('option', { name: 'Globex' });
  return { view, ada: ada.user, bob: bob.user, mia: mia.user, acme };
};

describe('the users panel', () => {
  it('lists the accounts, newest first, with their organisation and role', async () => {
    await openUsers();
    const rows = screen.getAllByTestId('admin-user-row');
    // Each account under its name, in the first column.
    const accounts = ['mia@example.com', 'bob@example.com', 'ada@example.com'];
    rows.forEach((row, index) => expect(within(within(row).getAllByRole('cell')[0]!).getByText(accounts[index]!)).toBeInTheDocument());
    expect(screen.getByRole('combobox', { name: 'Role of Bob' })).toHaveValue('operator');
    expect(within(screen.getByRole('combobox', { name: 'Organisation of Bob' })).getByRole('option', { selected: true })).toHaveTextContent('Acme');
    expect(screen.getByText('3 accounts')).toBeInTheDocument();
  });

  it("changes an operator's role: the server holds it and a toast says so", async () => {
    const { view, bob } = await openUsers();
    const updates = recordRequests(endpoints.adminUserUpdate.path);
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Role of Bob' }), 'member');
    expect(await screen.findByText('Bob updated')).toBeInTheDocument();
    expect(db.users.get(bob.id)?.role).toBe('member');
    expect(screen.getByRole('combobox', { name: 'Role of Bob' })).toHaveValue('member');
    expect(JSON.parse(await updates[0]!.text)).toEqual({ id: bob.id, role: 'member' });
  });

  it('says an operator needs an organisation when the server refuses one without (400)', async () => {
    const { view, mia } = await openUsers();
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Role of Mia' }), 'operator');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The change was not saved.');
    expect(alert).toHaveTextContent('An operator works for an organisation: choose one for this account first.');
    expect(screen.getByRole('combobox', { name: 'Role of Mia' })).toHaveValue('member');
    expect(db.users.get(mia.id)?.role).toBe('member');
  });

  it('moves an account to an organisation, and disabling one logs it out everywhere', async () => {
    const { view, mia, acme } = await openUsers();
    const phone = issueToken(mia.id);
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Organisation of Mia' }), 'Acme');
    await waitFor(() => expect(db.users.get(mia.id)?.companyId).toBe(acme.id));
    const access = await screen.findByRole('switch', { name: 'Mia may log in' });
    expect(access).toBeChecked();
    await view.user.click(access);
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Mia may log in' })).not.toBeChecked());
    expect(screen.getByText('Disabled')).toBeInTheDocument();
    expect(adminStore().disabled.has(mia.id)).toBe(true);
    expect(db.sessions.has(phone)).toBe(false);
  });

  it('says in words why the server refused an admin demoting themselves, keeps the search typed and the role as it is', async () => {
    const { view, ada } = await openUsers();
    await view.user.type(screen.getByRole('searchbox', { name: 'Search accounts' }), 'a');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Role of Ada' }), 'member');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The change was not saved.');
    expect(alert).toHaveTextContent('You cannot demote or disable your own account, nor remove the last administrator.');
    expect(alert).not.toHaveTextContent('ask another admin');
    expect(screen.getByRole('combobox', { name: 'Role of Ada' })).toHaveValue('admin');
    expect(screen.getByRole('searchbox', { name: 'Search accounts' })).toHaveValue('a');
    expect(db.users.get(ada.id)?.role).toBe('admin');
  });

  it('shows a reset link once, as a whole address with a copy button, until it is hidden', async () => {
    const { view } = await openUsers();
    await view.user.click(screen.getByRole('button', { name: 'Password reset link for Bob' }));
    const link = await screen.findByTestId('one-time-link');
    const address = within(link).getByRole('textbox', { name: 'Password reset link for Bob' });
    expect((address as HTMLInputElement).value).toMatch(new RegExp(`^${location.origin}/reset-password\\?token=\\S+$`));
    await view.user.click(within(link).getByRole('button', { name: 'Copy link' }));
    expect(await navigator.clipboard.readText()).toBe((address as HTMLInputElement).value);
    expect(within(link).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await view.user.click(within(link).getByRole('button', { name: 'Hide' }));
    expect(screen.queryByTestId('one-time-link')).toBeNull();
  });

  it('logs an account out everywhere and says how many sessions ended', async () => {
    const { view, bob } = await openUsers();
    issueToken(bob.id);
    issueToken(bob.id);
    await view.user.click(screen.getByRole('button', { name: 'Log out Bob everywhere' }));
    expect(await screen.findByText('Bob was logged out of 2 sessions')).toBeInTheDocument();
    expect([...db.sessions.values()].includes(bob.id)).toBe(false);
  });

  it('searches by name and filters by organisation', async () => {
    const { view } = await openUsers();
    // No longer than the server takes: a longer search would only be refused.
    expect(screen.getByRole('searchbox', { name: 'Search accounts' })).toHaveAttribute('maxlength', String(ADMIN_SEARCH_MAX));
    await view.user.type(screen.getByRole('searchbox', { name: 'Search accounts' }), 'bob{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('admin-user-row')).toHaveLength(1));
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    await view.user.clear(screen.getByRole('searchbox', { name: 'Search accounts' }));
    await view.user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-user-row')).toHaveLength(3));
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Organisation' }), 'Acme');
    await waitFor(() => expect(screen.getAllByTestId('admin-user-row')).toHaveLength(2));
  });
});
