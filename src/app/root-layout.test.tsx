import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRuntime } from '../../tests/spa/harness';
import { MOBILE_QUERY } from '../components/use-media-query';
import { RootLayout } from './root-layout';

/** A window `matchMedia` describes as a phone's, or as a desktop's. */
const screenOf = (phone: boolean) => (query: string) =>
  ({ matches: phone && query === MOBILE_QUERY, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The page before its screen's code arrived: the layout around an empty place. */
const layout = <RootLayout>{null}</RootLayout>;

describe('the site header around a page', () => {
  // The chat on a phone has a bar of its own: a header painted first and hidden once the chat's
  // code arrived moved the whole page up (a layout shift of 0.064 on a phone's first load).
  it.each(['/chat', '/chat/agents', '/chat/c/42'])('steps aside on a phone at %s from the first render, before the chat’s code is there', async (url) => {
    vi.stubGlobal('matchMedia', screenOf(true));
    await renderWithRuntime(layout, { url });
    expect(screen.getByRole('banner')).toHaveClass('hidden');
  });

  it.each([
    ['a phone', true, '/'],
    ['a phone', true, '/chatter'],
    ['a phone', true, '/download'],
    ['a desktop', false, '/chat'],
  ])('is shown on %s at %s', async (_, phone, url) => {
    vi.stubGlobal('matchMedia', screenOf(phone));
    await renderWithRuntime(layout, { url });
    expect(screen.getByRole('banner')).not.toHaveClass('hidden');
    expect(screen.getByRole('banner')).toHaveClass('flex');
  });
});
