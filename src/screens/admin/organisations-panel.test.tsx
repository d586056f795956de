import { screen, waitFor } from '@testing-library/react';
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

describe('the organisations panel', () => {
  it('lists each organisation with its members and adds one', async () => {
    const acme = seedOrganisation('Acme');
    const { user } = seedMember({ role: 'admin', organisation: acme });
    seedMember({ role: 'member', organisation: acme });
    const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=organisations', signedInAs: user });
    const [row] = await screen.findAllByTestId('admin-organisation-row');
    expect(row).toHaveTextContent('Acme2');

    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), '  Initech ');
    await view.user.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.getAllByTestId('admin-organisation-row')).toHaveLength(2));
    expect(screen.getAllByTestId('admin-organisation-row')[1]).toHaveTextContent('Initech0');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(await screen.findByText('Organisation Initech added')).toBeInTheDocument();
  });

  it('keeps the name typed and says why when the server refuses it', async () => {
    seedOrganisation('Acme');
    const { user } = seedMember({ role: 'admin' });
    const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=organisations', signedInAs: user });
    await screen.findAllByTestId('admin-organisation-row');
    server.use(http.post(endpoints.adminOrganisationCreate.path, () => fail(503, 'busy')));
    await view.user.type(screen.getByRole('textbox', { name: 'Name' }), 'Initech');
    await view.user.click(screen.getByRole('button', { name: 'Add' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The organisation was not added.');
    expect(alert).toHaveTextContent('Something went wrong on the server. Please try again.');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Initech');
    expect(adminStore().organisations.size).toBe(1);
  });
});
