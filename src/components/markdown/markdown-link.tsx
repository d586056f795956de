import type { ReactNode } from 'react';
import type { Tokens } from 'marked';
import { decodeEntities } from './entities';
import { useMarkdownWords } from './markdown-words';
import { safeLinkHref } from './url-policy';

type MarkdownLinkProps = { token: Tokens.Link; children: ReactNode };

/** A link that opens in a new tab, or its text alone when the URL is not one we allow. */
export const MarkdownLink = ({ token, children }: MarkdownLinkProps) => {
  const words = useMarkdownWords();
  const href = safeLinkHref(token.href);
  if (!href) {
    return (
      <span className="text-muted" title={words.linkRemoved} data-blocked-link="">
        {children}
      </span>
    );
  }
  return (
    <a
      href={href}
      title={token.title ? decodeEntities(token.title) : undefined}
      target="_blank"
      rel="noopener noreferrer"
      className="text-accent underline underline-offset-2 hover:opacity-80"
    >
      {children}
    </a>
  );
};
