import type { ReactNode } from 'react';
import type { Tokens } from 'marked';
import { useTranslation } from 'react-i18next';
import { decodeEntities } from './entities';
import { safeLinkHref } from './url-policy';

type MarkdownLinkProps = { token: Tokens.Link; children: ReactNode };

/** A link that opens in a new tab, or its text alone when the URL is not one we allow. */
export const MarkdownLink = ({ token, children }: MarkdownLinkProps) => {
  const { t } = useTranslation();
  const href = safeLinkHref(token.href);
  if (!href) {
    return (
      <span className="text-muted" title={t('markdown.linkRemoved')} data-blocked-link="">
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
