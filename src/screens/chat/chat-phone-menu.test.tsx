import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { seedUser } from '../../../tests/msw/db';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { MOBILE_QUERY, TOUCH_QUERY } from '../../components/use-media-query';
import ChatScreen from './chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

/** A phone, as `matchMedia` describes it: narrow, touch only. */
const phone = (query: string) =>
  ({ matches: query === MOBILE_QUERY || query === TOUCH_QUERY, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;

beforeEach(() => {
  vi.stubGlobal('matchMedia', phone);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const openMenu = async (user: Awaited<ReturnType<typeof renderWithRuntime>>['user']) => {
  await user.click(screen.getByRole('button', { name: 'Open menu and chat history' }));
  return screen.findByRole('dialog', { name: 'Menu' });
};

describe('the chat on a phone', () => {
  it('has one bar, which stands in for the site header', async () => {
    await renderWithRuntime(routes, { url: '/chat' });
    // theme.css hides the site header while an element so marked is shown
    expect(screen.getByTestId('chat-bar')).toHaveAttribute('data-replaces-site-header');
    expect(screen.getByRole('button', { name: 'Open menu and chat history' })).toHaveAttribute('aria-haspopup', 'dialog');
  });

  it('offers in its menu everything the site header offers, then the chat history', async () => {
    const view = await renderWithRuntime(routes, { url: '/chat' });
    const menu = await openMenu(view.user);
    expect(within(menu).getByRole('link', { name: 'Kraken AI' })).toHaveAttribute('href', '/');
    const nav = within(menu).getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Chat', 'Download']);
    expect(within(nav).getByRole('link', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
    expect(await within(menu).findByRole('button', { name: 'Display and language settings' })).toBeInTheDocument();
    expect(within(menu).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', expect.stringContaining('redirect_url'));
    expect(within(menu).getByRole('navigation', { name: 'Chat history' })).toBeInTheDocument();

    await view.user.click(within(menu).getByRole('button', { name: 'Close menu' }));
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
  });

  it('offers a signed-in person their areas and their menu; Escape closes the open settings first, then the menu', async () => {
    const { user: account } = seedUser({ role: 'admin', companyId: 'company-acme' });
    const view = await renderWithRuntime(routes, { url: '/chat', signedInAs: account });
    const menu = await openMenu(view.user);
    const nav = within(menu).getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Chat', 'Download', 'Operations', 'Admin']);
    expect(await within(menu).findByRole('button', { name: /^User menu: / })).toBeInTheDocument();

    const settings = await within(menu).findByRole('button', { name: 'Display and language settings' });
    await view.user.click(settings);
    expect(settings).toHaveAttribute('aria-expanded', 'true');
    await view.user.keyboard('{Escape}');
    expect(settings).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
    await view.user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull();
  });
});
