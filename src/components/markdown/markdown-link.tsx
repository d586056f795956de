import type { MouseEvent, ReactNode } from 'react';
import type { Tokens } from 'marked';
import { decodeEntities } from './entities';
import { useAskBeforeLeaving } from './leave-site';
import { useMarkdownWords } from './markdown-words';
import { leavesSite, safeLinkHref } from './url-policy';

type MarkdownLinkProps = { token: Tokens.Link; children: ReactNode };

const hostOf = (href: string): string => {
  try {
    return new URL(href).host;
  } catch {
    return '';
  }
};

/**
 * A link that opens in a new tab, or its text alone when the URL is not one we allow. A link to
 * another site says which one beside its text (unless the text already does) and asks before
 * leaving, showing the whole address: a click, a middle click or Enter all ask.
 */
export const MarkdownLink = ({ token, children }: MarkdownLinkProps) => {
  const words = useMarkdownWords();
  const ask = useAskBeforeLeaving();
  const href = safeLinkHref(token.href);
  if (!href) {
    return (
      <span className="text-muted" title={words.linkRemoved} data-blocked-link="">
        {children}
      </span>
    );
  }
  const outside = leavesSite(href);
  const host = outside ? hostOf(href) : '';
  const askFirst = (event: MouseEvent<HTMLAnchorElement>) => {
    // A right click opens the browser's own menu, where the address is shown.
    if (!outside || event.button === 2) return;
    event.preventDefault();
    ask(href);
  };
  return (
    <>
      <a
        href={href}
        title={token.title ? decodeEntities(token.title) : undefined}
        target="_blank"
        rel="noopener noreferrer"
        className="text-accent underline underline-offset-2 hover:opacity-80"
        data-outside={outside ? '' : undefined}
        onClick={askFirst}
        onAuxClick={askFirst}
      >
        {children}
      </a>
      {host && !token.text.includes(host) && <span className="ms-1 text-xs text-muted">({host})</span>}
    </>
  );
};
