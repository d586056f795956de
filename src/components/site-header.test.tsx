import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedUser } from '../../tests/msw/db';
import { renderWithRuntime } from '../../tests/spa/harness';
import { SiteHeader } from './site-header';

const nav = () => within(screen.getByRole('navigation', { name: 'Main navigation' }));
const current = () => screen.queryAllByRole('link', { current: 'page' }).map((link) => link.getAttribute('aria-label'));

describe('the site header says where the person is', () => {
  it.each([
    ['/', ['Kraken AI']],
    ['/chat', ['Chat']],
    ['/chat/agents', ['Chat']],
    ['/download', ['Download']],
    ['/kraken-operation/task/edit/7', ['Operations']],
    ['/account', []],
    ['/chatter', []],
  ])('on %s it marks %j as the current page', async (url, marked) => {
    const { user } = seedUser();
    await renderWithRuntime(<SiteHeader />, { url, signedInAs: user });
    await nav().findByRole('link', { name: 'Operations' });
    expect(current()).toEqual(marked);
  });
});

describe('the site header offers each area to whom it is for', () => {
  it.each([
    ['a member, who only chats', { role: 'member' as const, companyId: 'company-acme' }, [] as string[]],
    ['an operator of an organisation', { role: 'operator' as const, companyId: 'company-acme' }, ['Operations']],
    ['an operator in no organisation yet', { role: 'operator' as const }, []],
    ['an admin', { role: 'admin' as const, companyId: 'company-acme' }, ['Operations', 'Admin']],
    ['an account of a server without roles', {}, ['Operations']],
  ])('to %s: %j', async (_who, role, offered) => {
    const { user } = seedUser(role);
    await renderWithRuntime(<SiteHeader />, { url: '/', signedInAs: user });
    await nav().findByRole('link', { name: 'Chat' });
    const areas = nav()
      .getAllByRole('link')
      .map((link) => link.getAttribute('aria-label'))
      .filter((name) => name === 'Operations' || name === 'Admin');
    expect(areas).toEqual(offered);
  });

  it('marks the admin console as the current page there', async () => {
    const { user } = seedUser({ role: 'admin', companyId: 'company-acme' });
    await renderWithRuntime(<SiteHeader />, { url: '/admin/users', signedInAs: user });
    expect(await nav().findByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page');
  });

  it('offers neither area to a visitor', async () => {
    await renderWithRuntime(<SiteHeader />, { url: '/' });
    await nav().findByRole('link', { name: 'Chat' });
    expect(nav().queryByRole('link', { name: 'Operations' })).toBeNull();
    expect(nav().queryByRole('link', { name: 'Admin' })).toBeNull();
  });
});

describe("the header's login link comes back to the page", () => {
  it.each([
    ['/chat/c-42', '/login?redirect_url=%2Fchat%2Fc-42'],
    ['/chat/agents?category=writing', '/login?redirect_url=%2Fchat%2Fagents%3Fcategory%3Dwriting'],
    ['/download', '/login?redirect_url=%2Fdownload'],
    ['/', '/login'],
  ])('on %s it leads to %s', async (url, href) => {
    await renderWithRuntime(<SiteHeader />, { url });
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute('href', href);
  });
});
