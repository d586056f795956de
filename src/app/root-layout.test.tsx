import { screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderWithRuntime } from '../../tests/spa/harness';
import { MOBILE_QUERY } from '../components/use-media-query';
import { RootLayout } from './root-layout';

/** The page before its screen's code arrived: the layout around an empty place. */
const layout = <RootLayout>{null}</RootLayout>;
const MARK = 'data-steps-aside-on-phone';

describe('the site header around a page', () => {
  // The chat on a phone has a bar of its own: a header painted first and hidden once the chat's
  // code arrived moved the whole page up (a layout shift of 0.064 on a phone's first load).
  it.each(['/chat', '/chat/agents', '/chat/c/42'])('is marked to step aside on a phone at %s from the first render, before the chat’s code is there', async (url) => {
    await renderWithRuntime(layout, { url });
    expect(screen.getByRole('banner')).toHaveAttribute(MARK);
  });

  it.each(['/', '/chatter', '/download', '/admin'])('is not marked at %s', async (url) => {
    await renderWithRuntime(layout, { url });
    expect(screen.getByRole('banner')).not.toHaveAttribute(MARK);
  });

  it('is hidden by the style sheet at the phone layout’s width only (jsdom applies no style sheet)', () => {
    const css = readFileSync('src/styles/theme.css', 'utf8');
    const rule = new RegExp(`@media ${MOBILE_QUERY.replace(/[()]/g, '\\$&')} \\{\\s*\\.site-header\\[${MARK}\\] \\{\\s*display: none;`);
    expect(css).toMatch(rule);
  });
});
