import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '../../contract/media';

/** Everything needed to post by hand: the text to paste and the images to download. */
export const ExportPanel = ({ text, images }: { text: string; images: FileRef[] }) => {
  const { t } = useTranslation();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyText = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const downloadAll = () => {
    for (const image of images) {
      const link = document.createElement('a');
      link.href = image.url;
      link.download = image.name;
      document.body.append(link);
      link.click();
      link.remove();
    }
  };
  return (
    <div className="flex flex-col gap-2 border-t border-line pt-3" data-testid="export">
      <h3 className="text-sm font-semibold">{t('operations.export.title')}</h3>
      <div className="flex flex-wrap gap-2">
        <button type="button" className="btn-outline" disabled={!text} onClick={() => void copyText()}>
          <span className={copy === 'copied' ? 'i-lucide-check text-success' : 'i-lucide-copy'} aria-hidden="true" />
          {t('operations.export.copy')}
        </button>
        {images.length > 0 && (
          <button type="button" className="btn-outline" onClick={downloadAll}>
            <span className="i-lucide-download" aria-hidden="true" />
            {t('operations.export.downloadAll', { count: images.length })}
          </button>
        )}
      </div>
      <p aria-live="polite" className="text-xs text-muted">
        {copy === 'copied' ? t('operations.export.copied') : copy === 'failed' ? t('operations.export.copyFailed') : ''}
      </p>
      {images.length > 0 && (
        <ul className="flex flex-col gap-1 text-xs">
          {images.map((image, index) => (
            <li key={image.fileId}>
              <a href={image.url} download={image.name} className="text-accent hover:underline">
                {t('operations.export.image', { number: index + 1, name: image.name })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
