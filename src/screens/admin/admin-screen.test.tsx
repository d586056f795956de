import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { adminHandlers, seedAuditEntry, seedMember, seedOrganisation } from '../../../tests/msw/admin-handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { Routes } from '../../app/routes';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

describe('the admin console door', () => {
  it('sends a visitor to log in, to come back to the console', async () => {
    const view = await renderWithRuntime(<Routes />, { url: '/admin' });
    await expect.poll(view.url).toBe('/login?redirect_url=%2Fadmin');
  });

  it('tells a signed-in member they may not enter, with a way home, and asks the server nothing', async () => {
    const { user } = seedMember({ nickname: 'Mia', role: 'member' });
    const calls = recordRequests();
    await renderWithRuntime(<AdminScreen />, { url: '/admin', signedInAs: user });
    const refusal = await screen.findByRole('alert');
    expect(refusal).toHaveTextContent('You do not have permission to open the administration console.');
    expect(within(refusal).getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    expect(calls.filter((call) => call.pathname.startsWith('/api/admin/'))).toEqual([]);
  });

  it('refuses an operator too: the console is for admins only', async () => {
    const organisation = seedOrganisation('Acme');
    const { user } = seedMember({ role: 'operator', organisation });
    await renderWithRuntime(<AdminScreen />, { url: '/admin', signedInAs: user });
    expect(await screen.findByRole('alert')).toHaveTextContent('Only administrators can see this page.');
  });

  it('opens for an admin on the users, and keeps the open panel in the address', async () => {
    const { user } = seedMember({ nickname: 'Ada', role: 'admin' });
    const view = await renderWithRuntime(<Routes />, { url: '/admin', signedInAs: user });
    expect(await screen.findByRole('heading', { level: 1, name: 'Administration' })).toBeInTheDocument();
    expect(await screen.findAllByTestId('admin-user-row')).toHaveLength(1);
    await view.user.click(screen.getByRole('button', { name: 'Audit log' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Audit log' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
    expect(view.url()).toBe('/admin?panel=audit');
  });

  it('opens on the panel the address names', async () => {
    const { user } = seedMember({ role: 'admin' });
    await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=organisations', signedInAs: user });
    expect(await screen.findByRole('heading', { level: 2, name: 'Organisations' })).toBeInTheDocument();
    expect(await screen.findByText('No organisations yet.')).toBeInTheDocument();
  });

  it('says every panel in words of the bundle: no key shown, none missing', async () => {
    const warn = vi.spyOn(console, 'warn');
    const acme = seedOrganisation('Acme');
    seedAuditEntry({ action: 'user.update', actorName: 'Ada' });
    const { user } = seedMember({ role: 'admin', organisation: acme });
    const view = await renderWithRuntime(<AdminScreen />, { url: '/admin', signedInAs: user });
    await screen.findAllByTestId('admin-user-row');
    for (const [panel, ready] of [
      ['Organisations', () => screen.findAllByTestId('admin-organisation-row')],
      ['Invitations', () => screen.findByText('No invitations yet.')],
      ['Connectors', () => screen.findByTestId('connector-linkedin')],
      ['Models', () => screen.findAllByTestId('model-provider')],
      ['Approvals', () => screen.findByText('No agent is waiting for approval.')],
      ['Usage', () => screen.findByTestId('usage-chart')],
      ['Audit log', () => screen.findAllByTestId('audit-row')],
    ] as const) {
      await view.user.click(screen.getByRole('button', { name: panel }));
      await ready();
      expect(document.body.textContent).not.toMatch(/\badmin\.[a-z]/);
    }
    expect(warn.mock.calls.map(String).filter((message) => /missing|translation/i.test(message))).toEqual([]);
  });
});
