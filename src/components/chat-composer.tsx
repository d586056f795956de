import { useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

type ChatComposerProps = {
  value: string;
  onChange: (text: string) => void;
  onSend: () => void;
  onStop?: () => void;
  streaming?: boolean;
  label: string;
  autoFocus?: boolean;
};

const MAX_HEIGHT_PX = 240;

/** An input method (Chinese, Japanese) is still composing: Enter picks a candidate, it must not send. */
export const isComposing = (event: KeyboardEvent<HTMLTextAreaElement>): boolean =>
  event.nativeEvent.isComposing || event.keyCode === 229;

/** The message box: grows with its text; Enter sends, Shift+Enter breaks the line. */
export const ChatComposer = ({ value, onChange, onSend, onStop, streaming = false, label, autoFocus }: ChatComposerProps) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLTextAreaElement>(null);

  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(box.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || isComposing(event)) return;
    event.preventDefault();
    if (!streaming) onSend();
  };

  return (
    <form
      className="flex items-end gap-2 rounded-2xl border border-line bg-surface p-2 shadow-sm focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/30"
      onSubmit={(event) => {
        event.preventDefault();
        if (!streaming) onSend();
      }}
    >
      <textarea
        ref={ref}
        rows={1}
        value={value}
        aria-label={label}
        placeholder={t('chat.placeholder')}
        autoFocus={autoFocus}
        className="max-h-60 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-fg outline-none focus-visible:outline-none placeholder:text-muted"
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {streaming ? (
        <button type="button" className="btn-outline" onClick={onStop} aria-label={t('chat.stop')}>
          <span className="i-lucide-square" aria-hidden="true" />
        </button>
      ) : (
        <button type="submit" className="btn-primary" aria-label={t('chat.send')} disabled={!value.trim()}>
          <span className="i-lucide-send-horizontal rtl:-scale-x-100" aria-hidden="true" />
        </button>
      )}
    </form>
  );
};
