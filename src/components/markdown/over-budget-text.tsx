import { useMarkdownWords } from './markdown-words';

/** Characters laid out together: a longer text is cut into runs of about this many. */
export const TEXT_RUN_CHARS = 2_000;

/**
 * Where `text` is cut into runs: at the first space or line end after each TEXT_RUN_CHARS
 * characters (or at twice that, with none). The cuts depend only on the text before them, so a
 * text that grows keeps its earlier runs, and the page lays out again only the last.
 */
export const textRuns = (text: string): string[] => {
  const runs: string[] = [];
  let start = 0;
  while (text.length - start > 2 * TEXT_RUN_CHARS) {
    const space = text.slice(start + TEXT_RUN_CHARS, start + 2 * TEXT_RUN_CHARS).search(/\s/);
    const end = start + TEXT_RUN_CHARS + (space < 0 ? TEXT_RUN_CHARS : space + 1);
    runs.push(text.slice(start, end));
    start = end;
  }
  runs.push(text.slice(start));
  return runs;
};

/**
 * Text past a rendering budget (see render-budgets.ts), shown exactly as written and never
 * formatted, with a note saying why. A long one is laid out in runs, each a block of its own, so
 * an answer still arriving does not lay out all of it again at each word.
 */
export const OverBudgetText = ({ text, block }: { text: string; block: boolean }) => {
  const words = useMarkdownWords();
  const Tag = block ? 'div' : 'span';
  const runs = textRuns(text);
  return (
    <Tag className={`whitespace-pre-wrap ${block ? 'my-2 block' : ''}`} data-over-budget="" title={words.overBudget}>
      {runs.length === 1
        ? text
        : runs.map((run, index) => (
            <span key={index} className="block">
              {run}
            </span>
          ))}
      <span className="mt-1 block text-xs text-muted">{words.overBudget}</span>
    </Tag>
  );
};
