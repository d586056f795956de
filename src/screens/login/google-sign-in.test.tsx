import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { isSignedIn } from '../../machines/app.machine';
import { readGoogleAttempt, writeGoogleAttempt } from '../../services/google-attempt';
import { db, seedGoogleCode, seedUser } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import GoogleReturnScreen from './google-return-screen';
import LoginScreen from './login-screen';

const continueButton = () => screen.queryByRole('button', { name: 'Continue with Google' });

const openLogin = async (query = '') => {
  const leavePage = vi.fn<(url: string) => void>();
  const view = await renderWithRuntime(<LoginScreen />, { url: `/login${query}`, leavePage });
  return { view, leavePage };
};

/** Google's return, as a fresh page load of /login/google with what this tab kept. */
const openReturn = async (query: string) => {
  const leavePage = vi.fn<(url: string) => void>();
  const view = await renderWithRuntime(<GoogleReturnScreen />, { url: `/login/google?${query}`, leavePage });
  return { view, leavePage };
};

describe('Continue with Google on the login page', () => {
  it('is offered when the server has Google, and starts there keeping where the person was going', async () => {
    db.google.enabled = true;
    const { view, leavePage } = await openLogin(`?redirect_url=${encodeURIComponent('/kraken-operation?tab=x')}`);
    await view.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    await expect.poll(() => leavePage.mock.calls.length).toBe(1);
    const url = new URL(leavePage.mock.calls[0]![0]);
    expect(url.host).toBe('accounts.google.com');
    const state = url.searchParams.get('state')!;
    expect(readGoogleAttempt(location.origin)).toEqual({ state, returnTo: '/kraken-operation?tab=x' });
    expect(screen.getByRole('button', { name: 'Opening Google…' })).toBeDisabled();
  });

  it('is not offered when the server has no Google, or cannot say (a backend without the call)', async () => {
    db.google.enabled = false;
    await openLogin();
    await screen.findByRole('button', { name: 'Log in' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(continueButton()).toBeNull();

    server.use(http.get(endpoints.loginOptions.path, () => HttpResponse.json({ msg: 'Not Found' }, { status: 404 })));
    await openLogin();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(continueButton()).toBeNull();
    // the missing call is not a "request exception" toast on the login page
    expect(screen.queryByText('Something went wrong')).toBeNull();
  });

  it('says, in the interface language, why Google could not start, and keeps the password form', async () => {
    db.google.enabled = true;
    server.use(http.post(endpoints.googleAuthorize.path, () => HttpResponse.json({ code: 1, msg: 'Too many', data: null }, { status: 429 })));
    const { view, leavePage } = await openLogin();
    await view.user.type(screen.getByLabelText('Phone number or e-mail'), 'ada@example.com');
    await view.user.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Google login could not start.');
    expect(alert).toHaveTextContent('Too many attempts. Please wait a minute and try again.');
    expect(leavePage).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Phone number or e-mail')).toHaveValue('ada@example.com');
    expect(continueButton()).toBeEnabled();
  });
});

describe('the return from Google (/login/google)', () => {
  it('signs in with the code and the state this tab sent, then goes where the person was going', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    db.google.enabled = true;
    db.google.states.add('st-ours');
    seedGoogleCode('4/good', user.id);
    writeGoogleAttempt({ state: 'st-ours', returnTo: '/chat?from=google' });
    const { view } = await openReturn('code=4%2Fgood&state=st-ours&scope=email');
    await expect.poll(view.url).toBe('/chat?from=google');
    expect(view.runtime.app.getSnapshot().context.user?.id).toBe(user.id);
    expect(readGoogleAttempt(location.origin)).toBeNull();
  });

  it('never sends a code that came back with another state, and offers to start again', async () => {
    db.google.enabled = true;
    const logins = recordRequests(endpoints.login.path);
    writeGoogleAttempt({ state: 'st-ours', returnTo: '/' });
    const { view, leavePage } = await openReturn('code=4%2Fplanted&state=st-attacker');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Google login did not finish');
    expect(alert).toHaveTextContent('This login was not started in this tab, or it has expired. Please start again.');
    expect(logins).toHaveLength(0);
    expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(false);
    await view.user.click(screen.getByRole('button', { name: 'Try again with Google' }));
    await expect.poll(() => leavePage.mock.calls.length).toBe(1);
  });

  it('tells a person who cancelled on Google’s page, with a way back to the login page', async () => {
    writeGoogleAttempt({ state: 'st-ours', returnTo: '/kraken-operation' });
    await openReturn('error=access_denied&state=st-ours');
    expect(await screen.findByRole('alert')).toHaveTextContent('You left Google’s page without logging in.');
    expect(screen.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login?redirect_url=%2Fkraken-operation');
  });

  it('translates the server’s refusal of a used code, and stays signed out', async () => {
    db.google.enabled = true;
    db.google.states.add('st-ours');
    writeGoogleAttempt({ state: 'st-ours', returnTo: '/' });
    const { view } = await openReturn('code=4%2Fnever-issued&state=st-ours');
    expect(await screen.findByRole('alert')).toHaveTextContent('This login has expired or was already used. Please start again.');
    expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(false);
    expect(view.url()).toBe('/login/google?code=4%2Fnever-issued&state=st-ours');
  });

  it('never goes off-site, whatever the stored attempt says', async () => {
    const { user } = seedUser();
    db.google.states.add('st-ours');
    seedGoogleCode('4/good', user.id);
    sessionStorage.setItem('ai-chat-ops:google-sign-in', JSON.stringify({ state: 'st-ours', returnTo: '//evil.example/phish' }));
    const { view } = await openReturn('code=4%2Fgood&state=st-ours');
    await expect.poll(view.url).toBe('/');
  });
});
