import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { TOKEN_COOKIE } from '../../contract/auth';
import { endpoints } from '../../contract/endpoints';
import { isSignedIn } from '../../machines/app.machine';
import { db, seedUser } from '../../../tests/msw/db';
import { recordRequests } from '../../../tests/msw/server';
import { renderWithRuntime, type Screen } from '../../../tests/spa/harness';
import LoginScreen from './login-screen';

const openLogin = (query = '') => renderWithRuntime(<LoginScreen />, { url: `/login${query}` });

const fill = async ({ user }: Screen, username: string, password: string) => {
  await user.type(screen.getByLabelText('Phone number or e-mail'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
};

const tokenCookie = () =>
  document.cookie
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${TOKEN_COOKIE}=`));

describe('the login screen', () => {
  it('says the account or password is wrong, not to try later, and keeps what was typed', async () => {
    const { password: _right } = seedUser({ username: 'ada@example.com' });
    const view = await openLogin();

    await fill(view, 'ada@example.com', 'not-the-password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Login failed');
    expect(alert).toHaveTextContent('The account or password is wrong.');
    expect(alert).not.toHaveTextContent(/later/i);
    expect(screen.getByLabelText('Phone number or e-mail')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('not-the-password');
    expect(view.url()).toBe('/login');
    expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(false);
    expect(tokenCookie()).toBeUndefined();
  });

  it.each([
    ['/kraken-operation/task/edit/7?tab=images', '/kraken-operation/task/edit/7?tab=images'],
    ['//evil.example/phish', '/'],
    [null, '/'],
  ])('sends someone already signed in on to redirect_url %s (landing on %s) without the form', async (redirectUrl, lands) => {
    const { user } = seedUser({ username: 'ada@example.com' });
    const query = redirectUrl === null ? '' : `?redirect_url=${encodeURIComponent(redirectUrl)}`;
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/login" component={LoginScreen} />
        <Route>elsewhere</Route>
      </Switch>,
      { url: `/login${query}`, signedInAs: user },
    );

    await expect.poll(view.url).toBe(lands);
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('asks for both fields without calling the server', async () => {
    const logins = recordRequests(endpoints.login.path);
    const view = await openLogin();

    await view.user.type(screen.getByLabelText('Phone number or e-mail'), 'ada@example.com');
    await view.user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Enter your phone number or e-mail and your password');
    expect(logins).toHaveLength(0);
  });

  it('signs in, stores the token cookie and goes to the safe redirect_url exactly', async () => {
    const { user, password } = seedUser({ username: 'ada@example.com', nickname: 'Ada' });
    const view = await openLogin(`?source=kraken&redirect_url=${encodeURIComponent('/kraken-operation/task/edit/7?tab=images#top')}`);
    expect(screen.getByText('Log in to open the operations area.')).toBeInTheDocument();

    await fill(view, 'ada@example.com', password);

    await expect.poll(view.url).toBe('/kraken-operation/task/edit/7?tab=images');
    expect(location.hash).toBe('#top');
    expect(view.runtime.app.getSnapshot().context.user).toEqual(user);
    const cookie = tokenCookie();
    expect(cookie).toBeDefined();
    expect(db.sessions.get(decodeURIComponent(cookie!.split('=')[1]!))).toBe(user.id);
  });

  it.each(['//evil.example', '/\\evil.example', '/%09/evil.example', 'javascript:alert(1)', 'https://evil.example/phish'])(
    'refuses the hostile redirect_url %s and goes home instead',
    async (hostile) => {
      const { password } = seedUser({ username: 'ada@example.com' });
      const view = await openLogin(`?redirect_url=${encodeURIComponent(hostile)}`);

      await fill(view, 'ada@example.com', password);

      await expect.poll(view.url).toBe('/');
      expect(location.origin).toBe('http://localhost:3000');
      expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(true);
    },
  );

  it('goes home after login when there is no redirect_url', async () => {
    const { password } = seedUser({ username: '+8613800000000' });
    const view = await openLogin();
    await fill(view, '+8613800000000', password);
    await expect.poll(view.url).toBe('/');
  });
});
