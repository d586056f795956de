import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { db, issueToken, seedUser } from '../../../tests/msw/db';
import { fail } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import AccountScreen from './account-screen';

/** The person signed in here, and on a phone and a tablet. */
const openWithThreeSessions = async () => {
  const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada' });
  const phone = issueToken(user.id);
  db.sessionDetails.get(phone)!.device = { browser: 'Safari 17', os: 'iOS 17' };
  const tablet = issueToken(user.id);
  db.sessionDetails.get(tablet)!.device = { browser: 'Chrome 131', os: 'Android 14' };
  const view = await renderWithRuntime(<AccountScreen />, { url: '/account', signedInAs: user });
  const rows = await screen.findAllByTestId('session-row');
  return { view, rows, phone, tablet };
};

describe('sessions on the account page', () => {
  it('lists every session, marks this device, and offers "Log out" for the others only', async () => {
    const { rows } = await openWithThreeSessions();
    expect(rows).toHaveLength(3);
    const current = rows.find((row) => within(row).queryByText('This device'))!;
    expect(within(current).queryByRole('button', { name: /Log out/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Log out Safari 17 on iOS 17' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Log out Chrome 131 on Android 14' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Log out all other sessions' })).toBeEnabled();
  });

  it('signs out one session: its token stops working, the list follows, a toast says so', async () => {
    const { view, phone, tablet } = await openWithThreeSessions();
    await view.user.click(screen.getByRole('button', { name: 'Log out Safari 17 on iOS 17' }));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(2));
    expect(db.sessions.has(phone)).toBe(false);
    expect(db.sessions.has(tablet)).toBe(true);
    expect(await screen.findByText('Session logged out')).toBeInTheDocument();
  });

  it('signs out all others at once and keeps this one', async () => {
    const { view, phone, tablet } = await openWithThreeSessions();
    await view.user.click(screen.getByRole('button', { name: 'Log out all other sessions' }));
    await waitFor(() => expect(screen.getAllByTestId('session-row')).toHaveLength(1));
    expect(db.sessions.has(phone) || db.sessions.has(tablet)).toBe(false);
    expect(await screen.findByText('Logged out of 2 other sessions')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out all other sessions' })).toBeNull();
  });

  it('keeps the list and says so when the server refuses the sign-out', async () => {
    const { view, phone } = await openWithThreeSessions();
    server.use(http.post(endpoints.sessionRevoke.path, () => fail(503, 'The server is busy.')));
    const revokes = recordRequests(endpoints.sessionRevoke.path);
    await view.user.click(screen.getByRole('button', { name: 'Log out Safari 17 on iOS 17' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The session could not be logged out.');
    expect(screen.getAllByTestId('session-row')).toHaveLength(3);
    expect(db.sessions.has(phone)).toBe(true);
    expect(revokes).toHaveLength(1);
  });
});
