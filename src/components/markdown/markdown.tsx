import { useMemo, useState } from 'react';
import type { Token } from 'marked';
import { BlockSplitter } from './block-splitter';
import { lexMarkdown } from './budgeted-lexer';
import { MarkdownBlock } from './markdown-block';
import { LeaveSiteProvider } from './leave-site';
import { MarkdownWordsProvider } from './markdown-words';
import { TailCuts } from './tail-cut';

export type MarkdownProps = {
  /** The answer's markdown, possibly still growing. */
  source: string;
  /** True while the answer streams: the last block is then shown as in progress. */
  streaming?: boolean;
  /**
   * How much of `source` has been painted in order, when it arrived faster than the page can
   * paint it (all of it when absent). The end is then shown ahead of the rest, and the part
   * between holds its estimated place.
   */
  painted?: number;
  className?: string;
};

/** The height the part not yet painted is given: about 60 characters a line of 1.625 rem. */
const estimatedHeight = (chars: number) => `${((chars / 60) * 1.625).toFixed(1)}rem`;

type Placed = { at: number; token: Token };

/** Each block with its offset in the text, which keys it: a block shown ahead keeps its element once painted in order. */
const placed = (tokens: Token[], start: number): Placed[] => {
  let at = start;
  return tokens.map((token) => {
    const block = { at, token };
    at += token.raw.length;
    return block;
  });
};

/**
 * An agent's answer as markdown, safe by construction: tokens from marked's lexer become React
 * elements, so raw HTML is only ever text, and links and images pass the URL policy. Import it
 * lazily (see `lazy-markdown.tsx`) so markdown stays out of the first page's bundle.
 *
 * An answer painted in steps (`painted`) shows its end first: from a cut near the end (see
 * `TailCuts`) its last blocks are lexed alone and shown at once, the part before is lexed and
 * shown in order as `painted` grows, and the blocks shown ahead give way to the same blocks lexed
 * in order once it reaches them. The finished page is the same as rendering the answer whole.
 * The space kept for the blocks not yet painted is never the browser's scroll anchor: a reader
 * who scrolled up onto it is anchored to the words they see, which stay put as it fills in.
 */
const Markdown = ({ source, streaming = false, painted, className }: MarkdownProps) => {
  const [splitter] = useState(() => new BlockSplitter());
  const [cuts] = useState(() => new TailCuts());
  const inOrder = painted === undefined || painted >= source.length ? source : source.slice(0, painted);
  const blocks = useMemo(() => placed(splitter.split(inOrder), 0), [splitter, inOrder]);
  const cut = inOrder === source ? null : cuts.cutNear(source, inOrder.length);
  const ahead = useMemo(() => (cut === null ? [] : placed(lexMarkdown(source.slice(cut)), cut)), [source, cut]);
  const last = ahead.at(-1) ?? blocks.at(-1);
  return (
    <MarkdownWordsProvider>
      <LeaveSiteProvider>
        <div className={`break-words text-fg ${className ?? ''}`} data-markdown="">
          {/* One list, keyed by offset: a block shown ahead keeps its element when it is painted in order. */}
          {[
            ...blocks.map(({ at, token }) => (
              // In order up to a cut, the last block is unfinished.
              <MarkdownBlock key={at} token={token} inProgress={(streaming || cut !== null) && token === blocks.at(-1)?.token} />
            )),
            cut !== null && (
              <div key="unpainted" aria-hidden="true" data-unpainted="" style={{ height: estimatedHeight(cut - inOrder.length), overflowAnchor: 'none' }} />
            ),
            ...ahead.map(({ at, token }) => <MarkdownBlock key={at} token={token} inProgress={streaming && token === last?.token} />),
          ]}
        </div>
      </LeaveSiteProvider>
    </MarkdownWordsProvider>
  );
};

export default Markdown;
