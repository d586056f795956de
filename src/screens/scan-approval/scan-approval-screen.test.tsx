import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { db, seedScanTicket, seedUser } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ScanApprovalScreen from './scan-approval-screen';

describe('scan approval page', () => {
  it('sends a visitor to log in, coming back to this page, and approves nothing', async () => {
    const ticket = seedScanTicket();
    const approvals = recordRequests(endpoints.userUpdateScanId.path);
    const view = await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${ticket.id}` });
    await waitFor(() => expect(view.url()).toBe(`/login?redirect_url=${encodeURIComponent(`/scan-approval?scanid=${ticket.id}`)}`));
    expect(await screen.findByText('Log in to approve or deny the login on your other device.')).toBeInTheDocument();
    expect(approvals).toHaveLength(0);
    expect(db.scanTickets.get(ticket.id)!.status).toBe('waiting');
  });

  it('shows who asks and approves only on the click, for this account', async () => {
    const ticket = seedScanTicket({ device: { browser: 'Edge 131', os: 'Windows' }, address: '192.0.2.44' });
    const { user } = seedUser({ nickname: 'Mei' });
    const view = await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${ticket.id}`, signedInAs: user });
    expect(await screen.findByText('Edge 131 on Windows')).toBeInTheDocument();
    expect(screen.getByText('192.0.2.44')).toBeInTheDocument();
    expect(screen.getByText(/Mei, a browser is asking to log in to your account/)).toBeInTheDocument();
    expect(db.scanTickets.get(ticket.id)!.status).toBe('waiting');
    await view.user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Login approved')).toBeInTheDocument();
    expect(db.scanTickets.get(ticket.id)).toMatchObject({ status: 'confirmed', userId: user.id });
  });

  it('Deny declines the code, and the waiting browser reads "denied"', async () => {
    const ticket = seedScanTicket();
    const { user } = seedUser();
    const view = await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${ticket.id}`, signedInAs: user });
    await view.user.click(await screen.findByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('Login denied')).toBeInTheDocument();
    expect(db.scanTickets.get(ticket.id)!.status).toBe('denied');
  });

  it('says an expired code expired and offers no buttons', async () => {
    const ticket = seedScanTicket({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const { user } = seedUser();
    await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${ticket.id}`, signedInAs: user });
    expect(await screen.findByText('This login code has expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});

describe('scan approval failures', () => {
  it('says why an answer failed in the product’s words, not the server’s', async () => {
    const ticket = seedScanTicket();
    const { user } = seedUser();
    server.use(http.post(endpoints.userUpdateScanId.path, () => HttpResponse.json(failBody('pg: deadlock detected on scan_tickets'), { status: 500 })));
    const view = await renderWithRuntime(<ScanApprovalScreen />, { url: `/scan-approval?scanid=${ticket.id}`, signedInAs: user });
    await view.user.click(await screen.findByRole('button', { name: 'Approve' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your answer could not be sent.');
    expect(alert).toHaveTextContent('Something went wrong on the server. Please try again.');
    expect(alert).not.toHaveTextContent('deadlock');
  });
});
