import { useTranslation } from 'react-i18next';
import { shortcutList, type Platform } from '../machines/shortcuts';
import { ModalDialog } from './modal-dialog';

/** The `?` dialog: every shortcut with its keys as written on this platform. */
export const ShortcutsDialog = ({ open, platform, onClose }: { open: boolean; platform: Platform; onClose: () => void }) => {
  const { t } = useTranslation();
  return (
    <ModalDialog open={open} onClose={onClose} label={t('shortcuts.title')} className="w-[min(28rem,92vw)] rounded-xl">
      <div className="p-5">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 className="m-0 text-lg font-semibold">{t('shortcuts.title')}</h2>
          <button type="button" className="btn-ghost h-9 w-9 p-0" aria-label={t('shortcuts.close')} onClick={onClose} autoFocus>
            <span className="i-lucide-x" aria-hidden="true" />
          </button>
        </div>
        <dl className="m-0 grid grid-cols-[1fr_auto] gap-x-4 gap-y-2 text-sm">
          {shortcutList(platform).map(({ command, keys }) => (
            <div key={command} className="contents">
              <dt>{t(`shortcuts.${command}`)}</dt>
              <dd className="m-0 flex gap-1">
                {keys.map((key) => (
                  <kbd key={key} className="rounded border border-line bg-raised px-1.5 py-0.5 font-mono text-xs">
                    {key}
                  </kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </ModalDialog>
  );
};
