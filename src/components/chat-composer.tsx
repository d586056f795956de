import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MESSAGE_TEXT_MAX } from '../contract/constants';
import type { ComposerAttachments } from './attachment-tray';
import { TOUCH_QUERY, useMediaQuery } from './use-media-query';

/** Only composers that take files (the chat's, not the home page's) load the attachment tray. */
const AttachmentTray = lazy(() => import('./attachment-tray').then((module) => ({ default: module.AttachmentTray })));

type ChatComposerProps = {
  value: string;
  onChange: (text: string) => void;
  onSend: () => void;
  onStop?: () => void;
  streaming?: boolean;
  label: string;
  autoFocus?: boolean;
  /**
   * Where the person has arrived (a conversation, a new chat): the box takes the focus when it
   * appears, and again when this changes while nothing else holds the focus (a closed dialog left
   * it nowhere), so the next keystrokes are typed into it.
   */
  arrival?: string;
  /** The arrival is a fresh start (a new chat): the box takes the focus even from the link that led here. */
  claimFocus?: boolean;
  /** Lets the message carry images and files (attach button, paste, drop); without it, text only. */
  attachments?: ComposerAttachments;
};

const MAX_HEIGHT_PX = 240;
/** The counter appears once the text nears the limit, so a long question is never a surprise. */
const COUNTER_FROM = Math.floor(MESSAGE_TEXT_MAX * 0.9);
const COUNTER_ID = 'composer-length';

/** The text's length as the server measures it (the contract's `maxLength`: UTF-16 code units). */
export const measuredLength = (text: string): number => text.length;

/**
 * The browser sizes the box to its text by itself (`field-sizing: content`, in `theme.css`):
 * nothing to measure. Elsewhere the box is measured after each change, which makes the browser
 * lay the page out there and then, in the same task as whatever changed the text (sending a
 * question empties it while the whole conversation appears).
 */
const sizesItself = (): boolean => typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content');

/** An input method (Chinese, Japanese) is still composing: Enter picks a candidate, it must not send. */
export const isComposing = (event: KeyboardEvent<HTMLTextAreaElement>): boolean =>
  event.nativeEvent.isComposing || event.keyCode === 229;

/** The message box: grows with its text; Enter sends, Shift+Enter breaks the line. */
export const ChatComposer = ({ value, onChange, onSend, onStop, streaming = false, label, autoFocus, arrival, claimFocus = false, attachments }: ChatComposerProps) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  // A phone's keyboard has no Shift+Enter: the hint about keys is for keyboards only.
  const touch = useMediaQuery(TOUCH_QUERY);
  const uploadsPending = useSelector(attachments?.queue, (state) => (state?.context.items.length ?? 0) > 0) ?? false;
  const hasFiles = (attachments?.files.length ?? 0) > 0;
  const length = measuredLength(value);
  const excess = length - MESSAGE_TEXT_MAX;
  const canSend = (value.trim().length > 0 || hasFiles) && !uploadsPending && excess <= 0;

  const attach = (files: File[]) => {
    if (!attachments || files.length === 0) return;
    attachments.queue.send({ type: 'files.add', files, attached: attachments.files.length });
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(event.clipboardData.files);
    if (!attachments || files.length === 0) return;
    event.preventDefault();
    attach(files);
  };
  const carriesFiles = (event: DragEvent) => Boolean(attachments) && Array.from(event.dataTransfer.types).includes('Files');
  const send = () => {
    if (!streaming && canSend) onSend();
  };

  // A passive effect: it runs after the clean-ups of what this render removed (a dialog closing
  // gives the focus back to its opener, which may be gone), so the focus lands here last.
  const arrived = useRef(false);
  useEffect(() => {
    if (arrival === undefined) return;
    const nowhere = document.activeElement === null || document.activeElement === document.body;
    if (!arrived.current || nowhere || claimFocus) ref.current?.focus({ preventScroll: true });
    arrived.current = true;
    // Only an arrival moves the focus; `claimFocus` says how, it is no reason to move it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [arrival]);

  useLayoutEffect(() => {
    const box = ref.current;
    if (!box || sizesItself()) return;
    box.style.height = 'auto';
    box.style.height = `${Math.min(box.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || isComposing(event)) return;
    event.preventDefault();
    send();
  };

  return (
    <form
      className={`relative flex flex-col rounded-2xl border bg-surface p-2 shadow-sm focus-within:border-accent focus-within:ring-2 focus-within:ring-accent/30 ${dragging ? 'border-accent' : 'border-line'}`}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        attach(Array.from(event.dataTransfer.files));
      }}
    >
      {attachments && (
        <Suspense fallback={null}>
          <AttachmentTray attachments={attachments} />
        </Suspense>
      )}
      {dragging && (
        <div className="pointer-events-none absolute inset-0 z-10 grid place-items-center rounded-2xl bg-surface/90 text-sm font-medium text-accent" aria-hidden="true">
          {t('attachments.dropHere')}
        </div>
      )}
      <div className="flex items-end gap-2">
        {attachments && (
          <>
            <input
              ref={fileInput}
              type="file"
              multiple
              className="sr-only"
              tabIndex={-1}
              aria-hidden="true"
              data-testid="attach-input"
              onChange={(event) => {
                attach(Array.from(event.target.files ?? []));
                event.target.value = '';
              }}
            />
            <button type="button" className="btn-ghost px-2" aria-label={t('attachments.attach')} title={t('attachments.attach')} onClick={() => fileInput.current?.click()}>
              <span className="i-lucide-paperclip text-lg" aria-hidden="true" />
            </button>
          </>
        )}
        <textarea
          ref={ref}
          rows={1}
          value={value}
          aria-label={label}
          data-composer=""
          placeholder={touch ? t('chat.placeholderTouch') : t('chat.placeholder')}
          autoFocus={autoFocus}
          aria-invalid={excess > 0 || undefined}
          aria-describedby={excess > 0 ? COUNTER_ID : undefined}
          className="max-h-60 min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-fg outline-none focus-visible:outline-none placeholder:text-muted"
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
        />
        {streaming ? (
          <button type="button" className="btn-outline" onClick={onStop} aria-label={t('chat.stop')}>
            <span className="i-lucide-square" aria-hidden="true" />
          </button>
        ) : (
          <button
            type="submit"
            className="btn-primary"
            aria-label={t('chat.send')}
            title={uploadsPending ? t('attachments.waitForUploads') : undefined}
            disabled={!canSend}
          >
            <span className="i-lucide-send-horizontal rtl:-scale-x-100" aria-hidden="true" />
          </button>
        )}
      </div>
      {length >= COUNTER_FROM && (
        <p id={COUNTER_ID} className={`m-0 flex justify-end gap-2 px-2 text-xs ${excess > 0 ? 'text-danger' : 'text-muted'}`}>
          {excess > 0 && <span role="alert">{t('chat.tooLong', { excess })}</span>}
          <span className="tabular-nums">{t('chat.length', { length, max: MESSAGE_TEXT_MAX })}</span>
        </p>
      )}
    </form>
  );
};
