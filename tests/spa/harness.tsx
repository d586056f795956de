import { render, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { onTestFinished } from 'vitest';
import { Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { waitFor } from 'xstate';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/app/runtime';
import { RuntimeContext } from '../../src/app/runtime-context';
import { Toaster } from '../../src/components/toaster';
import type { UserInfo } from '../../src/contract/users';
import { i18n, initI18n } from '../../src/i18n';
import { LOCALE_STORAGE_KEY } from '../../src/i18n/locale';
import { setToken } from '../../src/services/cookies';
import { issueToken } from '../msw/db';

export type Screen = RenderResult & {
  runtime: Runtime;
  user: ReturnType<typeof userEvent.setup>;
  /** Where the browser is now: path and query. */
  url: () => string;
};

/** The interface in English, as the assertions are written in it. */
export const switchToEnglish = async (): Promise<void> => {
  localStorage.setItem(LOCALE_STORAGE_KEY, 'en-US');
  await initI18n('en-US');
};

/**
 * Renders screens the way the app does: a runtime from createRuntime with the browser's
 * navigation, the session already checked, inside the runtime context, i18next in English and a
 * router, with the toaster beside them. `signedInAs` stores a valid token for that user first;
 * `wechat` sets the device, environment and redirect the WeChat flows see; `leavePage` records
 * where the app would leave for (nowhere, by default: jsdom cannot navigate away).
 */
export const renderWithRuntime = async (
  ui: ReactNode,
  options: Pick<RuntimeOptions, 'wechat' | 'leavePage' | 'inspect' | 'chatClock'> & { url?: string; signedInAs?: UserInfo } = {},
): Promise<Screen> => {
  await switchToEnglish();
  history.replaceState(null, '', options.url ?? '/');
  if (options.signedInAs) setToken(issueToken(options.signedInAs.id));

  const runtime = createRuntime({
    navigate,
    wechat: options.wechat,
    inspect: options.inspect,
    leavePage: options.leavePage ?? (() => undefined),
    ...(options.chatClock ? { chatClock: options.chatClock } : {}),
  });
  runtime.start();
  onTestFinished(() => {
    runtime.stop();
    history.replaceState(null, '', '/');
  });
  await waitFor(runtime.app, (state) => state.matches('loaded') || state.matches('errored'));

  const user = userEvent.setup();
  const result = render(
    <RuntimeContext.Provider value={runtime}>
      <I18nextProvider i18n={i18n}>
        <Router>{ui}</Router>
        <Toaster />
      </I18nextProvider>
    </RuntimeContext.Provider>,
  );
  return { ...result, runtime, user, url: () => `${location.pathname}${location.search}` };
};
