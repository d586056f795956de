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
