/**
 * The browser's offer to install the app (Chromium's `beforeinstallprompt`, not in the DOM's
 * types). It fires once, soon after the page loads, often before anyone opens the download page:
 * so it is kept from the start (`keepInstallPrompt`, called where the app starts) until asked for.
 */
export type InstallOutcome = 'accepted' | 'dismissed';

type InstallPromptEvent = Event & { prompt: () => Promise<unknown>; userChoice: Promise<{ outcome: InstallOutcome }> };

export type InstallNews = { type: 'prompt.available' } | { type: 'app.installed' };

const kept = new WeakMap<Window, { prompt: InstallPromptEvent | null; listeners: Set<(news: InstallNews) => void> }>();

const tell = (target: Window, news: InstallNews) => {
  for (const listener of kept.get(target)?.listeners ?? []) listener(news);
};

/**
 * Starts keeping the install offer of this window (once; later calls do nothing). The browser's
 * own offer (Android's install bar) is left alone: this page only adds a button for it.
 */
export const keepInstallPrompt = (target: Window = window): void => {
  if (kept.has(target)) return;
  const state = { prompt: null as InstallPromptEvent | null, listeners: new Set<(news: InstallNews) => void>() };
  kept.set(target, state);
  target.addEventListener('beforeinstallprompt', (event) => {
    state.prompt = event as InstallPromptEvent;
    tell(target, { type: 'prompt.available' });
  });
  target.addEventListener('appinstalled', () => {
    state.prompt = null;
    tell(target, { type: 'app.installed' });
  });
};

/** Hears whether an install offer is there (at once, if one was kept) and when the app is installed. */
export const watchInstallPrompt = (listener: (news: InstallNews) => void, target: Window = window): (() => void) => {
  keepInstallPrompt(target);
  const state = kept.get(target)!;
  state.listeners.add(listener);
  if (state.prompt) listener({ type: 'prompt.available' });
  return () => state.listeners.delete(listener);
};

/** Shows the browser's install dialog (an offer serves once) and says what the person chose. */
export const promptInstall = async (target: Window = window): Promise<InstallOutcome> => {
  const state = kept.get(target);
  const offer = state?.prompt;
  if (!state || !offer) throw new Error('The browser has made no install offer');
  state.prompt = null;
  await offer.prompt();
  const { outcome } = await offer.userChoice;
  return outcome;
};
