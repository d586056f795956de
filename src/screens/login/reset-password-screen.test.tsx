import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { db, issueToken, seedResetLink, seedUser } from '../../../tests/msw/db';
import { recordRequests } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ResetPasswordScreen from './reset-password-screen';

const openLink = (token: string) =>
  renderWithRuntime(
    <Switch>
      <Route path="/reset-password" component={ResetPasswordScreen} />
      <Route path="/login">
        <p>the login page</p>
      </Route>
    </Switch>,
    { url: `/reset-password?token=${token}` },
  );

describe('a reset link', () => {
  it('shows the account, takes the new password twice, and sends to login saying it worked', async () => {
    const { user } = seedUser({ username: 'ada@example.com' });
    const elsewhere = issueToken(user.id);
    const link = seedResetLink(user.id);
    const resets = recordRequests(endpoints.passwordReset.path);
    const view = await openLink(link.token);

    expect(await screen.findByText('For the account ada@example.com.')).toBeInTheDocument();
    await view.user.type(screen.getByLabelText('New password'), 'ada@example.com');
    await view.user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByTestId('reset-password-error')).toHaveTextContent('A password cannot be your account name.');
    await view.user.clear(screen.getByLabelText('New password'));
    await view.user.type(screen.getByLabelText('New password'), 'bread and butter');
    await view.user.type(screen.getByLabelText('New password again'), 'bread and buttER');
    await view.user.click(screen.getByRole('button', { name: 'Set the password' }));
    expect(screen.getByTestId('reset-confirm-error')).toHaveTextContent('The two passwords are not the same.');
    expect(resets.filter((request) => request.method === 'POST')).toHaveLength(0);

    await view.user.clear(screen.getByLabelText('New password again'));
    await view.user.type(screen.getByLabelText('New password again'), 'bread and butter');
    await view.user.click(screen.getByRole('button', { name: 'Set the password' }));

    expect(await screen.findByText('the login page')).toBeInTheDocument();
    expect(view.url()).toBe('/login');
    expect(await screen.findByText('Your password was changed. Log in with the new one.')).toBeInTheDocument();
    expect(db.users.get(user.id)?.password).toBe('bread and butter');
    expect(db.sessions.has(elsewhere)).toBe(false);
  });

  it.each([
    ['used', { usedAt: '2025-01-01T00:00:00.000Z' }, 'This link has expired or was already used.'],
    ['expired', { expiresAt: '2025-01-01T00:00:00.000Z' }, 'This link has expired or was already used.'],
  ])('says a %s link cannot be used, offering nothing to type but the way to login', async (_how, partial, said) => {
    const { user } = seedUser();
    const view = await openLink(seedResetLink(user.id, partial).token);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link cannot be used');
    expect(alert).toHaveTextContent(said);
    expect(screen.queryByLabelText('New password')).toBeNull();
    await view.user.click(screen.getByRole('link', { name: 'Go to login' }));
    expect(await screen.findByText('the login page')).toBeInTheDocument();
  });

  it('says a link that never existed is not valid', async () => {
    await openLink('no-such-link-0123456789abcdef');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not valid. Check that you copied all of it.');
  });
});
