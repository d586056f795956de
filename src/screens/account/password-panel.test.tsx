import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { db, issueToken, seedUser } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { getToken } from '../../services/cookies';
import AccountScreen from './account-screen';

const openAccount = async () => {
  const { user, password } = seedUser({ username: 'ada@example.com', nickname: 'Ada' });
  const view = await renderWithRuntime(<AccountScreen />, { url: '/account', signedInAs: user });
  await screen.findByLabelText('Nickname');
  return { ...view, account: user, password };
};

const panel = () => within(screen.getByRole('region', { name: 'Password' }));
const current = () => panel().getByLabelText('Current password');
const next = () => panel().getByLabelText('New password');
const confirm = () => panel().getByLabelText('New password again');
const change = () => panel().getByRole('button', { name: 'Change password' });

describe('changing the password on the account page', () => {
  it('says what is wrong with the new password beside its field, and sends nothing', async () => {
    const view = await openAccount();
    const changes = recordRequests(endpoints.passwordChange.path);

    await view.user.click(change());
    expect(screen.getByTestId('password-current-error')).toHaveTextContent('Enter your current password.');
    expect(screen.getByTestId('password-next-error')).toHaveTextContent('A password has at least 8 characters.');

    await view.user.type(current(), view.password);
    expect(screen.queryByTestId('password-current-error')).toBeNull();
    await view.user.type(next(), '12345678');
    await view.user.click(change());
    expect(screen.getByTestId('password-next-error')).toHaveTextContent('A password cannot be only digits.');

    await view.user.clear(next());
    await view.user.type(next(), 'ADA@example.com');
    await view.user.click(change());
    expect(screen.getByTestId('password-next-error')).toHaveTextContent('A password cannot be your account name.');
    expect(next()).toHaveAttribute('aria-invalid', 'true');

    await view.user.clear(next());
    await view.user.type(next(), 'a much longer secret');
    await view.user.type(confirm(), 'a much longer secreT');
    await view.user.click(change());
    expect(screen.getByTestId('password-confirm-error')).toHaveTextContent('The two passwords are not the same.');
    expect(changes).toHaveLength(0);
  });

  it('says a wrong current password beside it, keeping everything typed', async () => {
    const view = await openAccount();
    await view.user.type(current(), 'not my password');
    await view.user.type(next(), 'a much longer secret');
    await view.user.type(confirm(), 'a much longer secret');
    await view.user.click(change());

    expect(await screen.findByTestId('password-current-error')).toHaveTextContent('The current password is wrong.');
    expect(current()).toHaveValue('not my password');
    expect(next()).toHaveValue('a much longer secret');
    expect(confirm()).toHaveValue('a much longer secret');
    expect(db.users.get(view.account.id)?.password).toBe(view.password);
  });

  it('keeps everything typed when the change fails for another reason, and says why in the reader’s words', async () => {
    const view = await openAccount();
    server.use(http.post(endpoints.passwordChange.path, () => HttpResponse.json(failBody('database down'), { status: 500 }), { once: true }));
    await view.user.type(current(), view.password);
    await view.user.type(next(), 'a much longer secret');
    await view.user.type(confirm(), 'a much longer secret');
    await view.user.click(change());

    const alert = await panel().findByRole('alert');
    expect(alert).toHaveTextContent('Your password could not be changed. Everything you typed is still here.');
    expect(alert).toHaveTextContent('Something went wrong on the server. Please try again.');
    expect(alert).not.toHaveTextContent('database down');
    expect(next()).toHaveValue('a much longer secret');

    await view.user.click(change());
    expect(await screen.findByText(/Your password was changed/)).toBeInTheDocument();
  });

  it('changes it, says the other sessions were logged out, empties the fields and keeps this one signed in', async () => {
    const view = await openAccount();
    const elsewhere = issueToken(view.account.id);
    await view.user.type(current(), view.password);
    await view.user.type(next(), 'a much longer secret');
    await view.user.type(confirm(), 'a much longer secret');
    await view.user.click(change());

    expect(await screen.findByText('Your password was changed. 1 other session was logged out.')).toBeInTheDocument();
    await waitFor(() => expect(current()).toHaveValue(''));
    expect(next()).toHaveValue('');
    expect(confirm()).toHaveValue('');
    expect(db.users.get(view.account.id)?.password).toBe('a much longer secret');
    expect(db.sessions.has(elsewhere)).toBe(false);
    expect(db.sessions.get(getToken()!)).toBe(view.account.id);
  });
});
