import { useTranslation } from 'react-i18next';

/** The box of a GFM task list item; read-only, since the answer is not the reader's to edit. */
export const TaskCheckbox = ({ checked }: { checked: boolean }) => {
  const { t } = useTranslation();
  return (
    <input
      type="checkbox"
      checked={checked}
      readOnly
      disabled
      aria-label={checked ? t('markdown.taskDone') : t('markdown.taskOpen')}
      className="me-2 align-middle accent-accent"
    />
  );
};
