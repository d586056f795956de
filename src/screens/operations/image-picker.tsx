import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileRef } from '../../contract/media';

type ImagePickerProps = {
  images: FileRef[];
  max: number;
  editable: boolean;
  uploading: boolean;
  onAdd: (files: File[]) => void;
  onRemove: (fileId: string) => void;
  onMove: (fileId: string, by: -1 | 1) => void;
};

/** The post's images, in order: add (uploaded at once), move, remove. */
export const ImagePicker = ({ images, max, editable, uploading, onAdd, onRemove, onMove }: ImagePickerProps) => {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const room = max - images.length;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between text-sm">
        <span>{t('operations.images.label')}</span>
        <span data-testid="images-counter" className={`text-xs tabular-nums ${images.length > max ? 'text-danger' : 'text-muted'}`}>
          {images.length}/{max}
        </span>
      </div>
      <ul className="flex flex-wrap gap-2" aria-label={t('operations.images.label')}>
        {images.map((image, index) => (
          <li key={image.fileId} className="group relative h-24 w-24 overflow-hidden rounded-lg border border-line">
            <img src={image.url} alt={image.name} className="h-full w-full object-cover" />
            {editable && (
              <div className="absolute inset-x-0 bottom-0 flex justify-between bg-black/50 p-0.5">
                <button type="button" className="btn-ghost h-6 px-1 py-0 text-white" disabled={index === 0} aria-label={t('operations.images.moveLeft', { name: image.name })} onClick={() => onMove(image.fileId, -1)}>
                  <span className="i-lucide-chevron-left rtl:-scale-x-100" aria-hidden="true" />
                </button>
                <button type="button" className="btn-ghost h-6 px-1 py-0 text-white" aria-label={t('operations.images.remove', { name: image.name })} onClick={() => onRemove(image.fileId)}>
                  <span className="i-lucide-trash-2" aria-hidden="true" />
                </button>
                <button type="button" className="btn-ghost h-6 px-1 py-0 text-white" disabled={index === images.length - 1} aria-label={t('operations.images.moveRight', { name: image.name })} onClick={() => onMove(image.fileId, 1)}>
                  <span className="i-lucide-chevron-right rtl:-scale-x-100" aria-hidden="true" />
                </button>
              </div>
            )}
          </li>
        ))}
        {editable && room > 0 && (
          <li>
            <button type="button" className="btn-outline h-24 w-24 flex-col text-xs" disabled={uploading} onClick={() => input.current?.click()}>
              <span className={uploading ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-image-plus'} aria-hidden="true" />
              {uploading ? t('operations.images.uploading') : t('operations.images.add')}
            </button>
            <input
              ref={input}
              type="file"
              accept="image/*"
              multiple
              hidden
              aria-label={t('operations.images.add')}
              onChange={(event) => {
                const files = [...(event.target.files ?? [])].slice(0, room);
                event.target.value = '';
                if (files.length) onAdd(files);
              }}
            />
          </li>
        )}
      </ul>
    </div>
  );
};
