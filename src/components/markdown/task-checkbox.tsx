import { useMarkdownWords } from './markdown-words';

/** The box of a GFM task list item; read-only, since the answer is not the reader's to edit. */
export const TaskCheckbox = ({ checked }: { checked: boolean }) => {
  const words = useMarkdownWords();
  return (
    <input
      type="checkbox"
      checked={checked}
      readOnly
      disabled
      aria-label={checked ? words.taskDone : words.taskOpen}
      className="me-2 align-middle accent-accent"
    />
  );
};
