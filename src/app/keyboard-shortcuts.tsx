import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { ShortcutsDialog } from '../components/shortcuts-dialog';
import { ensureCompleteTranslations, i18n } from '../i18n';
import { lastAnswerText, matchShortcut, platformOf, type ShortcutCommand } from '../machines/shortcuts';
import type { Navigate, Runtime } from './runtime';
import { useRuntime } from './runtime-context';

const isTextField = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type)));

/** Focuses the element once the page shows it (a page's code may still be on its way). */
const focusWhenShown = (selector: string, frames = 120): void => {
  const element = document.querySelector<HTMLElement>(selector);
  if (element) element.focus();
  else if (frames > 0) requestAnimationFrame(() => focusWhenShown(selector, frames - 1));
};

/** What each command does in this app; a command that has nothing to act on does nothing. */
const perform = async (command: ShortcutCommand, { runtime, navigate, openHelp }: { runtime: Runtime; navigate: Navigate; openHelp: () => void }): Promise<boolean> => {
  const chat = runtime.peekChat();
  switch (command) {
    case 'newChat':
      navigate('/chat');
      focusWhenShown('textarea[data-composer]');
      return true;
    case 'focusComposer':
      focusWhenShown('textarea[data-composer]', 0);
      return document.querySelector('textarea[data-composer]') !== null;
    case 'searchChats':
      if (!location.pathname.startsWith('/chat')) navigate('/chat');
      runtime.screenEvents.emit('showHistory');
      focusWhenShown('input[data-chat-search]');
      return true;
    case 'toggleSidebar':
      runtime.screenEvents.emit('toggleHistory');
      return location.pathname.startsWith('/chat');
    case 'stopAnswer':
      if (!chat?.getSnapshot().can({ type: 'stop' })) return false;
      chat.send({ type: 'stop' });
      return true;
    case 'copyLastAnswer': {
      const text = chat && location.pathname.startsWith('/chat') ? lastAnswerText(chat.getSnapshot().context.messages) : null;
      await ensureCompleteTranslations();
      if (text === null) {
        runtime.toast({ title: i18n.t('shortcuts.nothingToCopy') });
        return true;
      }
      try {
        await navigator.clipboard.writeText(text);
        runtime.toast({ title: i18n.t('shortcuts.answerCopied') });
      } catch {
        runtime.toast({ title: i18n.t('markdown.copyFailed'), variant: 'destructive' });
      }
      return true;
    }
    case 'showHelp':
      openHelp();
      return true;
  }
};

/**
 * The keyboard shortcuts, listened to on the whole page once it has loaded (their code is not
 * part of the first page), with the `?` dialog that lists them.
 */
const KeyboardShortcuts = () => {
  const runtime = useRuntime();
  const [, navigate] = useLocation();
  const [helpOpen, setHelpOpen] = useState(false);
  const platform = platformOf(navigator.userAgent, navigator.platform);

  useEffect(() => {
    const openHelp = () => void ensureCompleteTranslations().then(() => setHelpOpen(true));
    const onKeyDown = (event: KeyboardEvent) => {
      // A dialog (or a field) that handled the key already has the last word.
      if (event.defaultPrevented) return;
      const command = matchShortcut(
        {
          key: event.key,
          code: event.code,
          ctrlKey: event.ctrlKey,
          metaKey: event.metaKey,
          shiftKey: event.shiftKey,
          altKey: event.altKey,
          isComposing: event.isComposing,
          keyCode: event.keyCode,
          inTextField: isTextField(event.target),
        },
        platform,
      );
      if (!command || document.querySelector('dialog[open]')) return;
      // Escape stops an answer only when there is one; otherwise it keeps its usual meaning.
      if (command === 'stopAnswer' && !runtime.peekChat()?.getSnapshot().can({ type: 'stop' })) return;
      event.preventDefault();
      void perform(command, { runtime, navigate, openHelp });
    };
    window.addEventListener('keydown', onKeyDown);
    // The keys are heard from here on (this code arrives after the page): browser tests wait for it.
    document.documentElement.dataset.shortcuts = 'on';
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [runtime, navigate, platform]);

  return <ShortcutsDialog open={helpOpen} platform={platform} onClose={() => setHelpOpen(false)} />;
};

export default KeyboardShortcuts;
