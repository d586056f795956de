import { useMarkdownWords } from './markdown-words';

/**
 * Text past a rendering budget (see render-budgets.ts), shown exactly as written and never
 * formatted, with a note saying why.
 */
export const OverBudgetText = ({ text, block }: { text: string; block: boolean }) => {
  const words = useMarkdownWords();
  const Tag = block ? 'div' : 'span';
  return (
    <Tag className={`whitespace-pre-wrap ${block ? 'my-2 block' : ''}`} data-over-budget="" title={words.overBudget}>
      {text}
      <span className="mt-1 block text-xs text-muted">{words.overBudget}</span>
    </Tag>
  );
};
