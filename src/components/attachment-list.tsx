import { useTranslation } from 'react-i18next';
import type { FileRef } from '../contract/media';
import { formatBytes } from '../i18n/format';

/** The files sent with a message: images as thumbnails that open full size, other files as downloads. */
export const MessageAttachments = ({ files }: { files: FileRef[] }) => {
  const { t, i18n } = useTranslation();
  if (files.length === 0) return null;
  return (
    <ul className="m-0 mt-2 flex list-none flex-wrap justify-end gap-2 p-0" aria-label={t('attachments.list')} data-testid="message-attachments">
      {files.map((file) => (
        <li key={file.fileId}>
          {file.kind === 'image' ? (
            <a href={file.url} target="_blank" rel="noopener noreferrer" aria-label={t('attachments.open', { name: file.name })} className="block">
              <img
                src={file.url}
                alt={t('attachments.image', { name: file.name })}
                loading="lazy"
                className="block h-32 max-w-56 rounded-xl border border-line bg-raised object-cover"
                data-testid="message-image"
              />
            </a>
          ) : (
            <a
              href={file.url}
              download={file.name}
              className="flex max-w-64 items-center gap-2 rounded-xl border border-line bg-surface px-3 py-2 text-sm text-fg no-underline hover:bg-raised"
              aria-label={t('attachments.downloadFile', { name: file.name, size: formatBytes(file.size, i18n.language) })}
              data-testid="message-file"
            >
              <span className="i-lucide-file-text shrink-0 text-lg text-muted" aria-hidden="true" />
              <span className="min-w-0">
                <span className="block truncate">{file.name}</span>
                <span className="block text-xs text-muted">{formatBytes(file.size, i18n.language)}</span>
              </span>
            </a>
          )}
        </li>
      ))}
    </ul>
  );
};
