import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { countChars, hashtagsOf, PLATFORM_LIMITS, type ContentIssue, type Platform } from '../../contract/tasks';
import type { FileRef } from '../../contract/media';
import { ImagePicker } from './image-picker';

type ComposerProps = {
  platform: Platform;
  title: string;
  body: string;
  images: FileRef[];
  issues: ContentIssue[];
  editable: boolean;
  uploading: boolean;
  onChange: (patch: { title?: string; body?: string }) => void;
  onAddImages: (files: File[]) => void;
  onRemoveImage: (fileId: string) => void;
  onMoveImage: (fileId: string, by: -1 | 1) => void;
};

const Counter = ({ used, limit, id }: { used: number; limit: number; id: string }) => (
  <span id={id} data-testid={id} className={`text-xs tabular-nums ${used > limit ? 'font-semibold text-danger' : 'text-muted'}`}>
    {used}/{limit}
  </span>
);

/** The text and images that will be posted, counted against the platform's limits as they are typed. */
/** What a task needs before it can be marked ready; the field itself says so to assistive technology. */
const RequiredMark = () => (
  <span aria-hidden="true" className="ms-0.5 text-danger">
    *
  </span>
);

export const Composer = ({ platform, title, body, images, issues, editable, uploading, onChange, onAddImages, onRemoveImage, onMoveImage }: ComposerProps) => {
  const { t } = useTranslation();
  const limits = PLATFORM_LIMITS[platform];
  const tags = hashtagsOf(body);
  const titleId = useId();
  const bodyId = useId();
  const issueText = (issue: ContentIssue) => t(`operations.issues.${issue.field}.${issue.kind}`, { limit: issue.limit });

  return (
    <section aria-labelledby="composer-title" className="flex flex-col gap-3 rounded-xl border border-line p-4">
      <h2 id="composer-title" className="text-base font-semibold">
        {t(`operations.composer.title.${platform}`)}
      </h2>
      <div className="flex flex-col gap-1 text-sm">
        <span className="flex items-center justify-between">
          <label htmlFor={titleId}>
            {t(`operations.composer.titleLabel.${platform}`)}
            <RequiredMark />
          </label>
          <Counter id="title-counter" used={countChars(title)} limit={limits.titleMax} />
        </span>
        <input
          id={titleId}
          className="field"
          value={title}
          aria-required
          disabled={!editable}
          aria-describedby="title-counter"
          aria-invalid={countChars(title) > limits.titleMax}
          placeholder={t(`operations.composer.titlePlaceholder.${platform}`)}
          onChange={(event) => onChange({ title: event.target.value })}
        />
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <span className="flex items-center justify-between">
          <label htmlFor={bodyId}>
            {t(`operations.composer.bodyLabel.${platform}`)}
            <RequiredMark />
          </label>
          <Counter id="body-counter" used={countChars(body)} limit={limits.bodyMax} />
        </span>
        <textarea
          id={bodyId}
          className="field min-h-64 font-[inherit] leading-relaxed"
          value={body}
          aria-required
          disabled={!editable}
          aria-describedby="body-counter"
          aria-invalid={countChars(body) > limits.bodyMax}
          placeholder={t(`operations.composer.bodyPlaceholder.${platform}`)}
          onChange={(event) => onChange({ body: event.target.value })}
        />
      </div>
      <p className="text-xs text-muted" data-testid="hashtags">
        {tags.length > 0 ? t('operations.composer.tags', { tags: tags.map((tag) => `#${tag}`).join(' ') }) : t(`operations.composer.noTags.${platform}`)}
      </p>
      {platform === 'linkedin' && limits.seeMoreAt !== null && countChars(body) > limits.seeMoreAt && (
        <p className="text-xs text-muted">{t('operations.composer.seeMoreHint', { count: limits.seeMoreAt })}</p>
      )}
      <ImagePicker images={images} max={limits.imagesMax} editable={editable} uploading={uploading} onAdd={onAddImages} onRemove={onRemoveImage} onMove={onMoveImage} />
      {issues.length > 0 && (
        <ul role="alert" className="list-disc ps-5 text-sm text-danger">
          {issues.map((issue) => (
            <li key={`${issue.field}-${issue.kind}`}>{issueText(issue)}</li>
          ))}
        </ul>
      )}
    </section>
  );
};
