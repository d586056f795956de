import type { Tokens } from 'marked';
import { decodeEntities } from './entities';
import { useMarkdownWords } from './markdown-words';
import { openableImageHref, safeImageSrc } from './url-policy';

/**
 * An image from this site (or a `blob:` URL) is shown; any other is never requested, because
 * its URL could carry data out. Nor does it become a link, which a click would send: the reader
 * sees its description and its address as plain text.
 */
export const MarkdownImage = ({ token }: { token: Tokens.Image }) => {
  const words = useMarkdownWords();
  const alt = decodeEntities(token.text);
  const title = token.title ? decodeEntities(token.title) : undefined;
  const src = safeImageSrc(token.href);
  if (src) return <img src={src} alt={alt} title={title} loading="lazy" className="my-2 max-w-full rounded-lg" />;

  const address = openableImageHref(token.href);
  return (
    <span
      className="inline-flex max-w-full flex-wrap items-center gap-x-1 rounded border border-line bg-raised px-1.5 py-0.5 text-sm text-muted"
      title={address ? words.imageNotLoaded : words.imageBlocked}
      data-blocked-image=""
    >
      <span className="i-lucide-image-off shrink-0" aria-hidden="true" />
      <span>{alt || words.image}</span>
      {address && <span className="min-w-0 break-all font-mono text-xs">{address}</span>}
    </span>
  );
};
