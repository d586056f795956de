import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The browser lets Tab leave a modal dialog for its own toolbar: wrap around instead. */
const keepFocusInside = (dialog: HTMLElement, event: KeyboardEvent<HTMLElement>): void => {
  const focusable = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0);
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
};

type ModalDialogProps = {
  open: boolean;
  onClose: () => void;
  /** The dialog's accessible name. */
  label: string;
  className?: string;
  children: ReactNode;
};

/**
 * A modal on the browser's own <dialog>: the rest of the page is inert while it is open (focus
 * stays inside), Escape closes it, and focus returns to where it was.
 */
export const ModalDialog = ({ open, onClose, label, className = '', children }: ModalDialogProps) => {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-label={label}
      className={`border border-line bg-surface p-0 text-fg shadow-xl backdrop:bg-black/40 ${className}`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        // A menu open inside closes first: the Escape it handled (and marked so) is not the dialog's.
        if (event.key === 'Escape' && event.defaultPrevented) return;
        if (event.key === 'Escape') {
          event.preventDefault();
          onClose();
        } else if (event.key === 'Tab') {
          keepFocusInside(event.currentTarget, event);
        }
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      {open && children}
    </dialog>
  );
};
