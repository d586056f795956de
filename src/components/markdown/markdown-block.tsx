import { createElement, memo, type ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { CodeBlock } from './code-block';
import { decodeEntities } from './entities';
import { renderInline } from './inline-tokens';
import { MarkdownTable } from './markdown-table';
import { MathFormula } from './math-formula';
import type { MathToken } from './math-syntax';
import { MermaidDiagram } from './mermaid-diagram';
import { OverBudgetText } from './over-budget-text';
import { TaskCheckbox } from './task-checkbox';

type MarkdownBlockProps = { token: Token; inProgress: boolean };

/**
 * One top-level block, memoised: a completed block keeps its token object (see BlockSplitter),
 * so while an answer streams only the tail's blocks render again.
 */
export const MarkdownBlock = memo(({ token, inProgress }: MarkdownBlockProps) => <>{renderBlock(token, 0, inProgress)}</>);
MarkdownBlock.displayName = 'MarkdownBlock';

const renderBlocks = (tokens: Token[] | undefined): ReactNode[] => (tokens ?? []).map((token, index) => renderBlock(token, index, false));

const HEADING_CLASSES = ['', 'text-2xl', 'text-xl', 'text-lg', 'text-base', 'text-sm', 'text-sm text-muted'];

const renderBlock = (token: Token, key: number, inProgress: boolean): ReactNode => {
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'heading': {
      const depth = Math.min(Math.max((token as Tokens.Heading).depth, 1), 6);
      return createElement(`h${depth}`, { key, className: `mt-4 mb-2 font-semibold leading-snug ${HEADING_CLASSES[depth]}` }, renderInline(token.tokens));
    }
    case 'paragraph':
      return (
        <p key={key} className="my-2 leading-relaxed">
          {renderInline(token.tokens)}
        </p>
      );
    case 'text':
      // Text directly inside a tight list item.
      return token.tokens?.length ? <span key={key}>{renderInline(token.tokens)}</span> : decodeEntities(token.text as string);
    case 'code': {
      const code = token as Tokens.Code;
      if (/^mermaid\b/i.test(code.lang ?? '')) return <MermaidDiagram key={key} code={code.text} inProgress={inProgress} />;
      return <CodeBlock key={key} code={code.text} language={code.lang ?? ''} inProgress={inProgress} />;
    }
    case 'blockquote':
      return (
        <blockquote key={key} className="my-2 border-s-4 border-line ps-3 text-muted">
          {renderBlocks(token.tokens)}
        </blockquote>
      );
    case 'list':
      return renderList(token as Tokens.List, key);
    case 'table':
      return <MarkdownTable key={key} token={token as Tokens.Table} />;
    case 'math':
      return <MathFormula key={key} tex={(token as MathToken).text} display />;
    case 'hr':
      return <hr key={key} className="my-4 border-0 border-t border-line" />;
    case 'checkbox':
      return <TaskCheckbox key={key} checked={(token as Tokens.Checkbox).checked} />;
    case 'overBudget':
      return <OverBudgetText key={key} text={token.raw} block />;
    default:
      // Raw HTML blocks and anything unknown: the source text, shown as written.
      return (
        <p key={key} className="my-2 whitespace-pre-wrap">
          {token.raw.replace(/\n+$/, '')}
        </p>
      );
  }
};

const renderList = (list: Tokens.List, key: number): ReactNode => {
  const items = list.items.map((item, index) => (
    <li key={index} className={item.task ? '-ms-5 list-none' : 'ps-1'}>
      {renderBlocks(item.tokens)}
    </li>
  ));
  const spacing = list.loose ? 'space-y-2' : 'space-y-0.5';
  if (list.ordered) {
    const start = typeof list.start === 'number' && list.start !== 1 ? list.start : undefined;
    return (
      <ol key={key} start={start} className={`my-2 list-decimal ps-6 ${spacing}`}>
        {items}
      </ol>
    );
  }
  return (
    <ul key={key} className={`my-2 list-disc ps-6 ${spacing}`}>
      {items}
    </ul>
  );
};
