import { lazy, Suspense } from 'react';
import type { MarkdownProps } from './markdown';

const Markdown = lazy(() => import('./markdown'));

/**
 * The markdown renderer, fetched the first time an answer is shown. Until it arrives the answer
 * is shown as plain text, so nothing waits on the chunk.
 */
export const LazyMarkdown = (props: MarkdownProps) => (
  <Suspense fallback={<div className={`whitespace-pre-wrap break-words ${props.className ?? ''}`}>{props.source.slice(0, props.painted)}</div>}>
    <Markdown {...props} />
  </Suspense>
);
