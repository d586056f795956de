import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember, seedOrganisation } from '../../../tests/msw/admin-handlers';
import { fail } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { endpoints } from '../../contract/endpoints';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

const openConnectors = async () => {
  const acme = seedOrganisation('Acme');
  const globex = seedOrganisation('Globex');
  const { user } = seedMember({ nickname: 'Ada', role: 'admin' });
  const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=connectors', signedInAs: user });
  const card = await screen.findByTestId('connector-linkedin');
  return { view, card, acme, globex };
};

describe('the connectors panel', () => {
  it("sets an organisation's LinkedIn token and author, then forgets the token it was given", async () => {
    const { view, card, globex } = await openConnectors();
    expect(card).toHaveTextContent('Not configured');
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Organisation' }), 'Globex');
    await view.user.type(await screen.findByLabelText('Access token'), 'AQX-secret-token-123');
    await view.user.type(screen.getByLabelText('Author URN'), 'urn:li:organization:4242');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByTestId('connector-linkedin')).toHaveTextContent('Configured'));
    const saved = screen.getByTestId('connector-linkedin');
    expect(saved).toHaveTextContent('Set in this console.');
    expect(saved).toHaveTextContent('Author: urn:li:organization:4242');
    expect(saved).not.toHaveTextContent('AQX-secret-token-123');
    expect(screen.getByLabelText('Access token')).toHaveValue('');
    expect(adminStore().connectors.get(globex.id)).toMatchObject({ authorUrn: 'urn:li:organization:4242', source: 'console' });
    expect(await screen.findByText('LinkedIn connector saved')).toBeInTheDocument();

    await view.user.click(within(saved).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByTestId('connector-linkedin')).toHaveTextContent('Not configured'));
    expect(adminStore().connectors.has(globex.id)).toBe(false);
  });

  it('names what is wrong with the form before asking the server anything, and keeps it', async () => {
    const { view } = await openConnectors();
    const sets = recordRequests(endpoints.adminConnectorSet.path);
    await view.user.type(screen.getByLabelText('Access token'), 'short');
    await view.user.type(screen.getByLabelText('Author URN'), 'linkedin.com/in/ada');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('This token is too short or too long.')).toBeInTheDocument();
    expect(screen.getByText('The author must be urn:li:person:<id> or urn:li:organization:<id>.')).toBeInTheDocument();
    expect(screen.getByLabelText('Author URN')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Author URN')).toHaveValue('linkedin.com/in/ada');
    expect(sets).toHaveLength(0);
  });

  it('says the server needs its CONNECTOR_KEY when it refuses to store a secret (409), keeping the form', async () => {
    const { view } = await openConnectors();
    server.use(http.post(endpoints.adminConnectorSet.path, () => fail(409, 'Set CONNECTOR_KEY on the server')));
    await view.user.type(screen.getByLabelText('Access token'), 'AQX-secret-token-123');
    await view.user.type(screen.getByLabelText('Author URN'), 'urn:li:person:ada');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The connector was not changed.');
    expect(alert).toHaveTextContent('The server cannot store connectors until CONNECTOR_KEY is set on it.');
    expect(screen.getByLabelText('Access token')).toHaveValue('AQX-secret-token-123');
    expect(screen.getByLabelText('Author URN')).toHaveValue('urn:li:person:ada');
  });
});
