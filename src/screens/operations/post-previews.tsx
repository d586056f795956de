import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PLATFORM_LIMITS } from '../../contract/tasks';
import type { FileRef } from '../../contract/media';

type PreviewProps = { title: string; body: string; images: FileRef[]; author: string };

/** Text with its #tags drawn as the platform draws them. */
const WithTags = ({ text, className }: { text: string; className: string }) => (
  <>
    {text.split(/(#[^\s#]+#?)/u).map((part, index): ReactNode =>
      index % 2 === 1 ? (
        <span key={index} className={className}>
          {part}
        </span>
      ) : (
        part
      ),
    )}
  </>
);

/** A Xiaohongshu note as it shows in the feed (cover, title, author) and opened (text with topic tags). */
export const XiaohongshuPreview = ({ title, body, images, author }: PreviewProps) => {
  const { t } = useTranslation();
  const [shown, setShown] = useState(0);
  const cover = images[Math.min(shown, images.length - 1)];
  return (
    <figure aria-label={t('operations.preview.xiaohongshu')} data-testid="xiaohongshu-preview" className="mx-auto w-full max-w-xs overflow-hidden rounded-2xl bg-white text-[#333] shadow-md">
      <div className="relative aspect-[3/4] bg-[#f5f5f5]">
        {cover ? (
          <img src={cover.url} alt={cover.name} className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full items-center justify-center text-sm text-[#999]">{t('operations.preview.noCover')}</div>
        )}
        {images.length > 1 && (
          <div className="absolute inset-x-0 bottom-2 flex justify-center gap-1">
            {images.map((image, index) => (
              <button
                key={image.fileId}
                type="button"
                aria-label={t('operations.preview.showImage', { number: index + 1 })}
                className={`h-1.5 w-1.5 rounded-full ${index === shown ? 'bg-[#ff2442]' : 'bg-white/80'}`}
                onClick={() => setShown(index)}
              />
            ))}
          </div>
        )}
      </div>
      <figcaption className="flex flex-col gap-2 p-3">
        <p className="line-clamp-2 text-[15px] font-semibold leading-snug" data-testid="preview-title">
          {title || t('operations.preview.noTitle')}
        </p>
        <div className="flex items-center justify-between text-xs text-[#666]">
          <span className="flex items-center gap-1">
            <span className="flex h-5 w-5 items-center justify-center rounded-full bg-[#ff2442] text-[10px] text-white">{author.slice(0, 1).toUpperCase()}</span>
            {author}
          </span>
          <span className="flex items-center gap-1">
            <span className="i-lucide-heart" aria-hidden="true" />0
          </span>
        </div>
        <div className="border-t border-[#eee] pt-2 text-[13px] leading-relaxed whitespace-pre-wrap" data-testid="preview-body">
          <WithTags text={body} className="text-[#13386c]" />
        </div>
      </figcaption>
    </figure>
  );
};

/** A LinkedIn post in the feed: the first 210 characters, then "…see more". */
export const LinkedInPreview = ({ body, images, author }: PreviewProps) => {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const limit = PLATFORM_LIMITS.linkedin.seeMoreAt;
  const chars = [...body];
  const cut = !expanded && chars.length > limit;
  const shown = cut ? chars.slice(0, limit).join('').trimEnd() : body;
  return (
    <figure aria-label={t('operations.preview.linkedin')} data-testid="linkedin-preview" className="mx-auto w-full max-w-md rounded-lg border border-[#e0dfdc] bg-white text-[rgba(0,0,0,0.9)] shadow-sm">
      <div className="flex items-center gap-2 p-3">
        <span className="flex h-12 w-12 items-center justify-center rounded-full bg-[#0a66c2] text-lg font-semibold text-white">{author.slice(0, 1).toUpperCase()}</span>
        <div className="text-sm leading-tight">
          <p className="font-semibold">{author}</p>
          <p className="text-xs text-[rgba(0,0,0,0.6)]">
            {t('operations.preview.now')} · <span className="i-lucide-globe" aria-label={t('operations.preview.public')} />
          </p>
        </div>
      </div>
      <div className="px-3 pb-2 text-sm leading-relaxed whitespace-pre-wrap" data-testid="preview-body">
        {body ? <WithTags text={shown} className="font-semibold text-[#0a66c2]" /> : <span className="text-[rgba(0,0,0,0.6)]">{t('operations.preview.noText')}</span>}
        {cut && (
          <>
            {'… '}
            <button type="button" className="text-[rgba(0,0,0,0.6)] hover:text-[#0a66c2] hover:underline" onClick={() => setExpanded(true)}>
              {t('operations.preview.seeMore')}
            </button>
          </>
        )}
      </div>
      {images.length > 0 && (
        <div className={`grid gap-0.5 ${images.length > 1 ? 'grid-cols-2' : ''}`}>
          {images.slice(0, 4).map((image) => (
            <img key={image.fileId} src={image.url} alt={image.name} className="aspect-square w-full object-cover" />
          ))}
        </div>
      )}
      {/* Icon over word, as LinkedIn's app shows them: four long German or French words fit a phone, and wrap if not. */}
      <div className="flex flex-wrap justify-around gap-1 border-t border-[#e0dfdc] p-1 text-[11px] font-semibold leading-tight text-[rgba(0,0,0,0.6)]" data-testid="linkedin-actions">
        {(
          [
            ['i-lucide-thumbs-up', 'like'],
            ['i-lucide-message-square', 'comment'],
            ['i-lucide-repeat-2', 'repost'],
            ['i-lucide-send', 'send'],
          ] as const
        ).map(([icon, action]) => (
          <span key={action} className="flex min-w-0 flex-col items-center gap-0.5 px-1 py-1.5 text-center">
            <span className={`${icon} text-base`} aria-hidden="true" />
            {t(`operations.preview.${action}`)}
          </span>
        ))}
      </div>
    </figure>
  );
};
