import { act, screen, within } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Route, Switch } from 'wouter';
import { i18n, initI18n } from '../../i18n';
import { LOCALES, type Locale } from '../../i18n/locale';
import { seedUser } from '../../../tests/msw/db';
import { seedStudioAgent } from '../../../tests/msw/studio-handlers';
import { renderWithRuntime } from '../../../tests/spa/harness';
import StudioArea from './studio-area';

const SHOWN = { timeout: 5000 };

const flatten = (tree: Record<string, unknown>, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([key, value]) => (value && typeof value === 'object' ? flatten(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}`]));
/** Every key of the studio's words: one of them on screen is a translation missing. */
const KEYS = flatten(JSON.parse(readFileSync(join(import.meta.dirname, '../../i18n/locales/zh-CN.json'), 'utf8')) as Record<string, unknown>).filter(
  (key) => key.startsWith('studio.') || key === 'nav.studio',
);

let warn: MockInstance<typeof console.warn>;
beforeEach(() => {
  warn = vi.spyOn(console, 'warn');
});
afterEach(async () => {
  warn.mockRestore();
  await initI18n('en-US');
});

const said = () => {
  const texts = [document.body.textContent ?? ''];
  for (const element of document.body.querySelectorAll('*')) {
    for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
      const value = element.getAttribute(attribute);
      if (value) texts.push(value);
    }
  }
  return texts.join('\n');
};

/** The studio in every language: its list and an agent with every part filled in, no key left untranslated. */
describe.each(LOCALES)('the studio in %s', (locale: Locale) => {
  it('says everything in the language', async () => {
    const ada = seedUser({ nickname: 'Ada', role: 'member', companyId: 'company-acme', companyName: 'Acme' }).user;
    const agent = seedStudioAgent(
      ada.id,
      {
        name: 'Tutor',
        category: 'writing',
        visibility: 'public',
        parameters: { temperature: 0.5 },
        starters: { ja: ['こんにちは'] },
        translations: { 'fr-FR': { name: 'Tuteur', intro: '' } },
      },
      { draftAfter: { intro: 'New words' } },
    );
    Object.assign(agent.versions.at(-1)!, { status: 'rejected', reviewNote: 'Too vague' });
    seedStudioAgent(ada.id, { name: 'Draft' }, { publish: false });
    const view = await renderWithRuntime(
      <Switch>
        <Route path="/studio" component={StudioArea} />
        <Route path="/studio/*" component={StudioArea} />
      </Switch>,
      { url: '/studio', signedInAs: ada },
    );
    await act(async () => {
      await initI18n(locale);
    });
    await screen.findAllByTestId('studio-agent', {}, SHOWN);
    let text = said();
    expect(KEYS.filter((key) => text.includes(key))).toEqual([]);

    await view.user.click(screen.getAllByRole('link', { name: 'Tutor' })[0]!);
    const versions = await screen.findByRole('region', { name: i18n.t('studio.versions.title') }, SHOWN);
    await view.user.click(within(versions).getByRole('button', { name: i18n.t('studio.versions.show') }));
    await within(versions).findByTestId('agent-version', {}, SHOWN);
    await view.user.clear(screen.getByLabelText(i18n.t('studio.fields.temperature')));
    await view.user.type(screen.getByLabelText(i18n.t('studio.fields.temperature')), '9');
    await view.user.click(screen.getByRole('button', { name: i18n.t('studio.editor.save') }));
    text = said();
    expect(text).toContain(i18n.t('studio.problems.range', { min: '0', max: '2' }));
    expect(KEYS.filter((key) => text.includes(key))).toEqual([]);
    expect(warn.mock.calls.map((call) => String(call[0])).filter((message) => /missing|translation|i18next/i.test(message))).toEqual([]);
  });
});
