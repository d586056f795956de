import { useMemo, useState } from 'react';
import { BlockSplitter } from './block-splitter';
import { MarkdownBlock } from './markdown-block';

export type MarkdownProps = {
  /** The answer's markdown, possibly still growing. */
  source: string;
  /** True while the answer streams: the last block is then shown as in progress. */
  streaming?: boolean;
  className?: string;
};

/**
 * An agent's answer as markdown, safe by construction: tokens from marked's lexer become React
 * elements, so raw HTML is only ever text, and links and images pass the URL policy. Import it
 * lazily (see `lazy-markdown.tsx`) so markdown stays out of the first page's bundle.
 */
const Markdown = ({ source, streaming = false, className }: MarkdownProps) => {
  const [splitter] = useState(() => new BlockSplitter());
  const blocks = useMemo(() => splitter.split(source), [splitter, source]);
  return (
    <div className={`break-words text-fg ${className ?? ''}`} data-markdown="">
      {blocks.map((token, index) => (
        <MarkdownBlock key={index} token={token} inProgress={streaming && index === blocks.length - 1} />
      ))}
    </div>
  );
};

export default Markdown;
