import { CopyButton } from './copy-button';
import { HighlightedCode } from './highlighted-code';
import { useMarkdownWords } from './markdown-words';
import { useHighlight } from './use-highlight';

type CodeBlockProps = { code: string; language: string; inProgress: boolean };

/**
 * A fenced code block with its language and a copy button. Plain monospace first; colours
 * arrive with the highlighter, which is loaded only once a finished block needs it.
 */
export const CodeBlock = ({ code, language, inProgress }: CodeBlockProps) => {
  const words = useMarkdownWords();
  const name = language.trim().split(/\s+/)[0] ?? '';
  const tree = useHighlight(code, name, !inProgress);
  return (
    <figure className="my-3 overflow-hidden rounded-lg border border-line bg-raised" data-language={name || undefined}>
      <figcaption className="flex items-center justify-between gap-2 border-b border-line px-3 py-1 text-xs text-muted">
        <span className="font-mono">{name || words.code}</span>
        {inProgress ? <span aria-hidden="true">{words.writing}</span> : <CopyButton text={code} />}
      </figcaption>
      <pre className="m-0 overflow-x-auto p-3 text-sm leading-relaxed">
        <code className="font-mono">{tree ? <HighlightedCode tree={tree} /> : code}</code>
      </pre>
    </figure>
  );
};
