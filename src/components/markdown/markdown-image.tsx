import type { Tokens } from 'marked';
import { decodeEntities } from './entities';
import { useMarkdownWords } from './markdown-words';
import { openableImageHref, safeImageSrc } from './url-policy';

/**
 * An image from this site (or a `blob:` URL) is shown; any other is never requested, because
 * its URL could carry data out. The reader sees its description and may open it themselves.
 */
export const MarkdownImage = ({ token }: { token: Tokens.Image }) => {
  const words = useMarkdownWords();
  const alt = decodeEntities(token.text);
  const title = token.title ? decodeEntities(token.title) : undefined;
  const src = safeImageSrc(token.href);
  if (src) return <img src={src} alt={alt} title={title} loading="lazy" className="my-2 max-w-full rounded-lg" />;

  const label = alt || words.image;
  const openable = openableImageHref(token.href);
  const content = (
    <>
      <span className="i-lucide-image-off" aria-hidden="true" />
      <span>{label}</span>
    </>
  );
  const className = 'inline-flex items-center gap-1 rounded border border-line bg-raised px-1.5 py-0.5 text-sm';
  if (!openable) {
    return (
      <span className={`${className} text-muted`} title={words.imageBlocked} data-blocked-image="">
        {content}
      </span>
    );
  }
  return (
    <a
      href={openable}
      target="_blank"
      rel="noopener noreferrer"
      title={words.imageNotLoaded}
      className={`${className} text-accent hover:opacity-80`}
      data-blocked-image=""
    >
      {content}
    </a>
  );
};
