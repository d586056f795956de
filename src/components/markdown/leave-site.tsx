import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ModalDialog } from '../modal-dialog';
import { useMarkdownWords } from './markdown-words';

type AskBeforeLeaving = (href: string) => void;

const LeaveContext = createContext<AskBeforeLeaving | null>(null);

/** The address with its host set apart, so the reader sees at a glance which site it is. */
const Address = ({ href }: { href: string }) => {
  let host = '';
  try {
    host = new URL(href).host;
  } catch {
    // Not an absolute URL: shown whole.
  }
  const at = host ? href.indexOf(host) : -1;
  if (at < 0) return <>{href}</>;
  return (
    <>
      {href.slice(0, at)}
      <strong className="font-semibold text-fg">{host}</strong>
      {href.slice(at + host.length)}
    </>
  );
};

/**
 * One dialog per answer that shows the full address of a link to another site and opens it only
 * when the reader says so (as ChatGPT does): an answer's link text can say anything, and a
 * prompt-injected answer could otherwise send the reader's data away in one click.
 */
export const LeaveSiteProvider = ({ children }: { children: ReactNode }) => {
  const words = useMarkdownWords();
  const [target, setTarget] = useState<string | null>(null);
  const close = useCallback(() => setTarget(null), []);
  const open = () => {
    if (target) window.open(target, '_blank', 'noopener,noreferrer');
    setTarget(null);
  };
  const ask = useMemo<AskBeforeLeaving>(() => (href) => setTarget(href), []);
  return (
    <LeaveContext.Provider value={ask}>
      {children}
      <ModalDialog open={target !== null} onClose={close} label={words.leaveTitle} className="w-[min(28rem,calc(100vw-2rem))] rounded-xl">
        <div className="p-5" data-leave-site="">
          <h2 className="m-0 mb-2 text-lg font-semibold">{words.leaveTitle}</h2>
          <p className="m-0 mb-2 text-sm text-muted">{words.leaveBody}</p>
          <p className="m-0 mb-5 max-h-40 overflow-y-auto break-all rounded-lg border border-line bg-raised p-3 font-mono text-sm text-muted" data-address="">
            {target && <Address href={target} />}
          </p>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn-outline" onClick={close}>
              {words.leaveCancel}
            </button>
            <button type="button" className="btn-primary" onClick={open}>
              <span className="i-lucide-external-link" aria-hidden="true" />
              {words.leaveOpen}
            </button>
          </div>
        </div>
      </ModalDialog>
    </LeaveContext.Provider>
  );
};

/** Asks the reader before opening `href` in a new tab; only inside an answer's markdown. */
export const useAskBeforeLeaving = (): AskBeforeLeaving => {
  const ask = useContext(LeaveContext);
  if (!ask) throw new Error('useAskBeforeLeaving is used outside Markdown');
  return ask;
};
