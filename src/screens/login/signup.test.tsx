import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import type { UserInfo } from '../../contract/users';
import { isSignedIn } from '../../machines/app.machine';
import { getToken } from '../../services/cookies';
import { db, seedInvitation, seedUser } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime, type Screen } from '../../../tests/spa/harness';
import LoginScreen from './login-screen';

const openLogin = (query = '', signedInAs?: UserInfo) =>
  renderWithRuntime(
    <Switch>
      <Route path="/login" component={LoginScreen} />
      <Route>
        <p>elsewhere</p>
      </Route>
    </Switch>,
    { url: `/login${query}`, ...(signedInAs ? { signedInAs } : {}) },
  );

const signupLink = () => screen.queryByRole('button', { name: 'Create an account' });

const fillSignup = async ({ user }: Screen, values: { username: string; password: string; confirm?: string; nickname?: string }) => {
  await user.type(screen.getByLabelText('Phone number or e-mail'), values.username);
  if (values.nickname) await user.type(screen.getByLabelText('Nickname (optional)'), values.nickname);
  await user.type(screen.getByLabelText('Password'), values.password);
  await user.type(screen.getByLabelText('Password again'), values.confirm ?? values.password);
  await user.click(screen.getByRole('button', { name: 'Create account' }));
};

describe('creating an account on the login page', () => {
  it('is not offered when sign-up is closed, nor by invitation without one', async () => {
    await openLogin();
    await screen.findByRole('button', { name: 'Log in' });
    expect(signupLink()).toBeNull();
  });

  it('checks the rules before sending, says a name already taken beside it, and keeps what was typed', async () => {
    db.accounts.signup = 'open';
    seedUser({ username: 'ada@example.com' });
    const signups = recordRequests(endpoints.signup.path);
    const view = await openLogin();
    await view.user.click(await screen.findByRole('button', { name: 'Create an account' }));
    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();

    await fillSignup(view, { username: 'ada', password: '1234567890', confirm: '1234567' });
    expect(screen.getByTestId('signup-username-error')).toHaveTextContent('Enter a phone number (6 to 15 digits) or an e-mail address.');
    expect(screen.getByTestId('signup-password-error')).toHaveTextContent('A password cannot be only digits.');
    expect(signups).toHaveLength(0);

    await view.user.clear(screen.getByLabelText('Phone number or e-mail'));
    await view.user.type(screen.getByLabelText('Phone number or e-mail'), 'ada@example.com');
    await view.user.clear(screen.getByLabelText('Password'));
    await view.user.type(screen.getByLabelText('Password'), 'bread and butter');
    await view.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(screen.getByTestId('signup-confirm-error')).toHaveTextContent('The two passwords are not the same.');
    expect(signups).toHaveLength(0);

    await view.user.clear(screen.getByLabelText('Password again'));
    await view.user.type(screen.getByLabelText('Password again'), 'bread and butter');
    await view.user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByTestId('signup-username-error')).toHaveTextContent('An account with this name exists. Log in instead, or choose another name.');
    expect(screen.getByLabelText('Password')).toHaveValue('bread and butter');
    expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(false);
  });

  it('signs in exactly as a password login does: the session, then the safe redirect_url', async () => {
    db.accounts.signup = 'open';
    const view = await openLogin(`?redirect_url=${encodeURIComponent('/chat/agents?category=writing')}`);
    await view.user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await fillSignup(view, { username: 'grace@example.com', nickname: 'Grace', password: 'bread and butter' });

    await expect.poll(view.url).toBe('/chat/agents?category=writing');
    expect(view.runtime.app.getSnapshot().context.user).toMatchObject({ username: 'grace@example.com', nickname: 'Grace', role: 'member' });
    expect(db.sessions.get(getToken()!)).toBe(view.runtime.app.getSnapshot().context.user!.id);
  });

  it('goes home rather than to a hostile redirect_url', async () => {
    db.accounts.signup = 'open';
    const view = await openLogin(`?redirect_url=${encodeURIComponent('//evil.example/phish')}`);
    await view.user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await fillSignup(view, { username: '+8613800000000', password: 'bread and butter' });
    await expect.poll(view.url).toBe('/');
  });

  it.each([
    ['open', 'Sign-up is closed on this server. Ask an admin for an account.'],
    ['invite', 'Sign-up is by invitation only. Ask an admin for an invitation link.'],
  ] as const)('says why the server refused when sign-up was %s a moment ago', async (policy, said) => {
    db.accounts.signup = policy;
    const invitation = seedInvitation();
    server.use(http.post(endpoints.signup.path, () => HttpResponse.json(failBody('Forbidden'), { status: 403 })));
    const view = await openLogin(policy === 'invite' ? `?invitation=${invitation.token}` : '');
    if (policy === 'open') await view.user.click(await screen.findByRole('button', { name: 'Create an account' }));
    await screen.findByRole('heading', { name: 'Create an account' });
    await fillSignup(view, { username: 'grace@example.com', password: 'bread and butter' });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(said);
    expect(screen.getByLabelText('Phone number or e-mail')).toHaveValue('grace@example.com');
  });
});

describe('an invitation link', () => {
  it('shows the organisation and role, offers sign-up first, and the new account joins with that role', async () => {
    db.accounts.signup = 'invite';
    const invitation = seedInvitation({ companyName: 'Acme Bakery', role: 'operator' });
    const view = await openLogin(`?invitation=${invitation.token}`);

    expect(await screen.findByTestId('invitation')).toHaveTextContent('You are invited to join Acme Bakery as operator.');
    expect(screen.getByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    await fillSignup(view, { username: 'grace@example.com', password: 'bread and butter' });

    await expect.poll(view.url).toBe('/');
    expect(view.runtime.app.getSnapshot().context.user).toMatchObject({ role: 'operator', companyName: 'Acme Bakery' });
    expect(db.invitations.get(invitation.token)?.acceptedAt).toBeDefined();
  });

  it('says when it expired or was used, and offers only the login then', async () => {
    db.accounts.signup = 'invite';
    const invitation = seedInvitation({ acceptedAt: '2025-01-01T00:00:00.000Z' });
    await openLogin(`?invitation=${invitation.token}`);

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This invitation cannot be used');
    expect(alert).toHaveTextContent('This link has expired or was already used.');
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(signupLink()).toBeNull();
  });

  it('is accepted by someone already signed in, who then has its role', async () => {
    const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada', role: 'member' });
    const invitation = seedInvitation({ companyName: 'Acme Bakery', role: 'operator' });
    const view = await openLogin(`?invitation=${invitation.token}&redirect_url=${encodeURIComponent('/kraken-operation')}`, user);

    const offer = await screen.findByTestId('invitation');
    expect(offer).toHaveTextContent('You are invited to join Acme Bakery as operator.');
    expect(offer).toHaveTextContent('Accept to join with the account you are logged in as: Ada.');
    expect(screen.queryByLabelText('Password')).toBeNull();
    await view.user.click(within(offer).getByRole('button', { name: 'Accept the invitation' }));

    expect(await screen.findByText('You joined Acme Bakery.')).toBeInTheDocument();
    await expect.poll(view.url).toBe('/kraken-operation');
    expect(view.runtime.app.getSnapshot().context.user).toMatchObject({ id: user.id, role: 'operator', companyName: 'Acme Bakery' });
  });

  it('brings someone who logs in back to accept it', async () => {
    db.accounts.signup = 'invite';
    const { password } = seedUser({ username: 'ada@example.com', nickname: 'Ada' });
    const invitation = seedInvitation();
    const view = await openLogin(`?invitation=${invitation.token}`);
    await screen.findByRole('heading', { name: 'Create an account' });
    await view.user.click(screen.getByRole('button', { name: 'Log in' }));
    await view.user.type(screen.getByLabelText('Phone number or e-mail'), 'ada@example.com');
    await view.user.type(screen.getByLabelText('Password'), password);
    await view.user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('button', { name: 'Accept the invitation' })).toBeInTheDocument();
    expect(view.url()).toBe(`/login?invitation=${invitation.token}`);
  });
});

describe('forgot password', () => {
  it('is offered only when the server sends links by mail', async () => {
    await openLogin();
    await screen.findByRole('button', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: 'Forgot password?' })).toBeNull();
  });

  it('sends a link to the account, saying so without telling whether it exists', async () => {
    db.accounts.resetByMail = true;
    const view = await openLogin();
    await view.user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(screen.getByTestId('forgot-username-error')).toHaveTextContent('Enter your phone number or e-mail.');
    await view.user.type(screen.getByLabelText('Phone number or e-mail'), 'nobody@example.com');
    await view.user.click(screen.getByRole('button', { name: 'Send the link' }));

    expect(await screen.findByRole('status')).toHaveTextContent('If the account nobody@example.com exists, a link to choose a new password was sent to it.');
    expect(db.accounts.mailedResets).toEqual(['nobody@example.com']);
    await view.user.click(screen.getByRole('button', { name: 'Back to login' }));
    expect(screen.getByRole('heading', { name: 'Log in' })).toBeInTheDocument();
  });
});
