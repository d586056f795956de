import { act, screen, waitFor } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { RootLayout } from '../../src/app/root-layout';
import { Routes } from '../../src/app/routes';
import { i18n, initI18n } from '../../src/i18n';
import { LOCALES, type Locale } from '../../src/i18n/locale';
import { db, seedConversation, seedInvitation, seedResetLink, seedScanTicket, seedUser, userOwner } from '../msw/db';
import { renderWithRuntime } from './harness';

type Page = { name: string; url: string; title: string; signedIn?: boolean; ready: () => Promise<unknown> };

/** A page is ready when its content shows, however busy the machine: a bound, not a pause. */
const SHOWN = { timeout: 15_000 };

/** Every route, as someone would open it: the whole layout (header, settings) around the page. */
const PAGES: Page[] = [
  { name: 'home', url: '/', title: 'app.title', ready: () => screen.findByRole('heading', { level: 1 }, SHOWN) },
  { name: 'login', url: '/login?source=kraken', title: 'login.title', ready: () => screen.findByRole('heading', { level: 1 }, SHOWN) },
  { name: 'invitation', url: '/login?invitation={invitation}', title: 'login.signup.title', ready: () => screen.findByTestId('invitation', {}, SHOWN) },
  { name: 'reset password', url: '/reset-password?token={reset}', title: 'resetPassword.title', ready: () => screen.findByLabelText(i18n.t('resetPassword.confirm'), {}, SHOWN) },
  { name: 'new chat', url: '/chat', title: 'nav.chat', ready: () => screen.findByRole('textbox', {}, SHOWN) },
  { name: 'stored chat', url: '/chat/{conversation}', title: 'nav.chat', signedIn: true, ready: () => screen.findByTestId('answer', {}, SHOWN) },
  { name: 'account', url: '/account', title: 'account.title', signedIn: true, ready: () => screen.findAllByTestId('session-row', {}, SHOWN) },
  { name: 'scan approval', url: '/scan-approval?scanid={scan}', title: 'scanApproval.title', signedIn: true, ready: () => screen.findByTestId('scan-ticket', {}, SHOWN) },
  { name: 'download', url: '/download', title: 'download.title', ready: () => screen.findByRole('heading', { level: 1 }, SHOWN) },
  { name: 'operations', url: '/kraken-operation', title: 'operations.title', signedIn: true, ready: () => screen.findByRole('heading', { level: 1 }, SHOWN) },
  {
    name: 'operations task',
    url: '/kraken-operation/task/edit/7',
    title: 'operations.title',
    signedIn: true,
    ready: () => screen.findByRole('heading', { level: 1 }, SHOWN),
  },
  { name: 'not found', url: '/no-such-page', title: 'notFound.title', ready: () => screen.findByRole('heading', { level: 1 }, SHOWN) },
];

const flatten = (tree: Record<string, unknown>, prefix = ''): Array<[string, string]> =>
  Object.entries(tree).flatMap(([key, value]): Array<[string, string]> =>
    value && typeof value === 'object' ? flatten(value as Record<string, unknown>, `${prefix}${key}.`) : [[`${prefix}${key}`, String(value)]],
  );
/** A bundle's texts by "dotted.key". */
const leaves = (locale: Locale): Map<string, string> =>
  new Map(flatten(JSON.parse(readFileSync(join(import.meta.dirname, `../../src/i18n/locales/${locale}.json`), 'utf8')) as Record<string, unknown>));
/** Every key of the reference bundle: one of them on screen means a translation is missing. */
const KEYS = [...leaves('zh-CN').keys()];

/** What a person reads or hears: the text and the accessible names, labels, hints and titles. */
const everythingSaid = (): string[] => {
  const said = [document.body.textContent ?? '', document.title];
  for (const element of document.body.querySelectorAll('*')) {
    for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(attribute);
      if (value) said.push(value);
    }
  }
  return said;
};

let warn: MockInstance<typeof console.warn>;
const missingKeyWarnings = () =>
  warn.mock.calls.map((call) => String(call[0])).filter((message) => /missing|translation|i18next/i.test(message));

// Every page's code is loaded once before the first test: the first render of a screen would
// otherwise also wait for its modules to be compiled, which on a busy machine takes seconds.
beforeAll(async () => {
  await Promise.all([
    import('../../src/screens/home/home-screen'),
    import('../../src/screens/login/login-screen'),
    import('../../src/screens/login/reset-password-screen'),
    import('../../src/screens/chat/chat-screen'),
    import('../../src/screens/account/account-screen'),
    import('../../src/screens/download/download-screen'),
    import('../../src/screens/operations/operations-area'),
    import('../../src/screens/scan-approval/scan-approval-screen'),
    import('../../src/screens/not-found/not-found-screen'),
    import('../../src/components/preferences-menu'),
  ]);
}, 120_000);

beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
});

afterEach(async () => {
  warn.mockRestore();
  await initI18n('en-US');
});

describe('missing-key detection', () => {
  it('warns when a screen asks for a key no bundle has (so the tests below can fail)', async () => {
    await initI18n('de-DE');
    i18n.t('screens.keyThatDoesNotExist');
    expect(missingKeyWarnings().join('\n')).toContain('screens.keyThatDoesNotExist');
  });
});

describe.each(LOCALES)('every screen in %s', (locale: Locale) => {
  it.each(PAGES)('$name says everything in the language, with no missing key', async (page) => {
    const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada' });
    const conversation = seedConversation({
      owner: userOwner(user.id),
      title: 'Croissants',
      messages: [
        { role: 'user', content: 'How long to proof croissants?' },
        { role: 'assistant', content: 'About two hours.' },
      ],
    });
    const scan = seedScanTicket();
    // Sign-up by invitation and reset links by mail: the login page offers everything it can.
    db.accounts = { signup: 'invite', resetByMail: true, mailedResets: [] };
    // index.html's description, which each page rewrites in its language (what a search result shows).
    document.head.querySelector('meta[name=description]')?.remove();
    document.head.insertAdjacentHTML('beforeend', '<meta name="description" content="index.html says this">');
    const url = page.url
      .replace('{conversation}', conversation.conversationId)
      .replace('{scan}', scan.id)
      .replace('{invitation}', seedInvitation().token)
      .replace('{reset}', seedResetLink(user.id).token);
    const view = await renderWithRuntime(
      <RootLayout>
        <Routes />
      </RootLayout>,
      { url, signedInAs: page.signedIn ? user : undefined },
    );
    await act(async () => {
      await initI18n(locale);
    });
    await page.ready();
    // The settings panel is part of every page: open it too.
    // The header's menus are their own chunk: the button shows a moment after the page.
    await view.user.click(await screen.findByTestId('preferences-button', {}, SHOWN));
    await screen.findByRole('group', { name: i18n.t('preferences.title') }, SHOWN);

    await waitFor(() => expect(document.documentElement.lang).toBe(locale));
    expect(document.title).not.toBe('');
    expect(missingKeyWarnings()).toEqual([]);
    const said = everythingSaid().join('\n');
    expect(KEYS.filter((key) => said.includes(key))).toEqual([]);
    expect(document.title).toBe(i18n.t('app.documentTitle', { page: i18n.t(page.title) }));
    const description = document.head.querySelector('meta[name=description]')?.getAttribute('content') ?? '';
    expect(description).not.toBe('index.html says this');
    expect([...leaves(locale).values()]).toContain(description);
    if (locale !== 'en-US') expect([...leaves('en-US').values()]).not.toContain(description);
    // English left in place: an English text of the interface where this language says something else.
    if (locale !== 'en-US') {
      const own = new Set(leaves(locale).values());
      const english = [...leaves('en-US').values()].filter((text) => text.length > 3 && !own.has(text) && !text.includes('{{'));
      const saysWhole = (text: string) => new RegExp(`(?<!\\p{L})${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\p{L})`, 'u').test(said);
      expect(english.filter(saysWhole)).toEqual([]);
    }
  });
});
