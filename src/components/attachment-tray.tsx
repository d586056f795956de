import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { FileRef } from '../contract/media';
import { formatBytes, formatRetryAfter } from '../i18n/format';
import type { uploadQueueMachine, QueuedUpload } from '../machines/upload-queue.machine';
import type { UploadProblem } from '../machines/upload.machine';

export type UploadQueueRef = ActorRefFrom<typeof uploadQueueMachine>;

/** What the composer needs to attach files: the stored ones, the queue of those on their way. */
export type ComposerAttachments = {
  files: FileRef[];
  queue: UploadQueueRef;
  onRemoveFile: (fileId: string) => void;
};

const THUMB_CLASS = 'h-12 w-12 shrink-0 rounded-lg border border-line object-cover';

/** A local preview of an image being uploaded, its object URL released when no longer shown. */
const LocalImageThumb = ({ file }: { file: File }) => {
  const ref = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = ref.current;
    if (!image || typeof URL.createObjectURL !== 'function') return;
    const url = URL.createObjectURL(file);
    image.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <img ref={ref} alt="" className={THUMB_CLASS} data-testid="attachment-thumbnail" title={file.name} />;
};

const Thumb = ({ src, name }: { src: string | null; name: string }) =>
  src ? (
    <img src={src} alt="" className={THUMB_CLASS} data-testid="attachment-thumbnail" title={name} />
  ) : (
    <span className="grid h-12 w-12 shrink-0 place-items-center rounded-lg border border-line bg-raised" aria-hidden="true">
      <span className="i-lucide-file-text text-xl text-muted" />
    </span>
  );

const RemoveButton = ({ name, onClick }: { name: string; onClick: () => void }) => {
  const { t } = useTranslation();
  return (
    <button type="button" className="btn-ghost shrink-0 p-1" aria-label={t('attachments.remove', { name })} onClick={onClick}>
      <span className="i-lucide-x" aria-hidden="true" />
    </button>
  );
};

const StoredFile = ({ file, onRemove }: { file: FileRef; onRemove: () => void }) => {
  const { i18n } = useTranslation();
  return (
    <li className="flex max-w-64 items-center gap-2 rounded-xl border border-line bg-bg p-1.5 pe-1" data-testid="attachment" data-state="done">
      <Thumb src={file.kind === 'image' ? file.url : null} name={file.name} />
      <span className="min-w-0 flex-1 text-sm">
        <span className="block truncate">{file.name}</span>
        <span className="block text-xs text-muted">{formatBytes(file.size, i18n.language)}</span>
      </span>
      <RemoveButton name={file.name} onClick={onRemove} />
    </li>
  );
};

/** Why a file is not attached, in the reader's language. */
const describeProblem = (t: TFunction, problem: UploadProblem, file: { name: string; limitBytes: number; locale: string }): string => {
  const { name } = file;
  switch (problem.kind) {
    case 'tooLarge':
      return problem.message
        ? t('attachments.tooLargeForServer', { name })
        : t('attachments.tooLarge', { name, size: formatBytes(file.limitBytes, file.locale) });
    case 'rateLimited':
      return problem.retryAfterSeconds === undefined
        ? t('attachments.rateLimitedLater', { name })
        : t('attachments.rateLimited', { name, when: formatRetryAfter(problem.retryAfterSeconds, file.locale) });
    case 'refused':
      return t('attachments.refused', { name, reason: problem.message });
    case 'network':
      return t('attachments.network', { name });
  }
};

const PendingFile = ({ item, queue }: { item: QueuedUpload; queue: UploadQueueRef }) => {
  const { t, i18n } = useTranslation();
  const state = useSelector(item.ref, (snapshot) => snapshot.value);
  const { file, loaded, total, problem, limitBytes } = useSelector(item.ref, (snapshot) => snapshot.context);
  const percent = total > 0 ? Math.min(100, Math.round((loaded / total) * 100)) : 0;
  const problemText = problem ? describeProblem(t, problem, { name: file.name, limitBytes, locale: i18n.language }) : null;
  return (
    <li
      className={`flex max-w-72 items-center gap-2 rounded-xl border bg-bg p-1.5 pe-1 ${problem ? 'border-danger' : 'border-line'}`}
      data-testid="attachment"
      data-state={state}
    >
      {file.type.startsWith('image/') ? <LocalImageThumb file={file} /> : <Thumb src={null} name={file.name} />}
      <span className="min-w-0 flex-1 text-sm">
        <span className="block truncate">{file.name}</span>
        {problemText ? (
          <span role="alert" className="block text-xs text-danger">
            {problemText}
          </span>
        ) : (
          <span className="mt-1 flex items-center gap-2 text-xs text-muted">
            <span
              role="progressbar"
              aria-label={t('attachments.uploading', { name: file.name, percent })}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="block h-1.5 w-20 overflow-hidden rounded-full bg-raised"
            >
              <span className="block h-full rounded-full bg-accent transition-[width]" style={{ width: `${percent}%` }} />
            </span>
            {percent}%
          </span>
        )}
      </span>
      {state === 'failed' && (
        <button type="button" className="btn-ghost shrink-0 p-1" aria-label={t('attachments.retry')} title={t('attachments.retry')} onClick={() => item.ref.send({ type: 'retry' })}>
          <span className="i-lucide-rotate-ccw" aria-hidden="true" />
        </button>
      )}
      <RemoveButton name={file.name} onClick={() => queue.send({ type: 'file.remove', id: item.id })} />
    </li>
  );
};

/** The files of the next message: stored ones, and those still uploading or refused, each removable. */
export const AttachmentTray = ({ attachments }: { attachments: ComposerAttachments }) => {
  const { t } = useTranslation();
  const items = useSelector(attachments.queue, (state) => state.context.items);
  const leftOut = useSelector(attachments.queue, (state) => state.context.leftOut);
  const maxFiles = useSelector(attachments.queue, (state) => state.context.maxFiles);
  if (attachments.files.length === 0 && items.length === 0 && leftOut === 0) return null;
  return (
    <div className="w-full px-1 pt-1">
      {(attachments.files.length > 0 || items.length > 0) && (
        <ul className="m-0 flex list-none flex-wrap gap-2 p-0" aria-label={t('attachments.list')}>
          {attachments.files.map((file) => (
            <StoredFile key={file.fileId} file={file} onRemove={() => attachments.onRemoveFile(file.fileId)} />
          ))}
          {items.map((item) => (
            <PendingFile key={item.id} item={item} queue={attachments.queue} />
          ))}
        </ul>
      )}
      {leftOut > 0 && (
        <p role="status" className="m-0 mt-1 text-xs text-warn">
          {t('attachments.tooMany', { count: maxFiles, leftOut })}
        </p>
      )}
    </div>
  );
};
