import { Fragment, type ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { decodeEntities } from './entities';
import { MarkdownImage } from './markdown-image';
import { MarkdownLink } from './markdown-link';
import { MathFormula } from './math-formula';
import { OverBudgetText } from './over-budget-text';
import type { MathToken } from './math-syntax';
import { TaskCheckbox } from './task-checkbox';

/** Inline tokens as React elements. Raw HTML is shown as the text it is, never parsed. */
export const renderInline = (tokens: Token[] | undefined): ReactNode[] => (tokens ?? []).map(renderInlineToken);

const renderInlineToken = (token: Token, key: number): ReactNode => {
  switch (token.type) {
    case 'text':
      return 'tokens' in token && token.tokens?.length ? (
        <Fragment key={key}>{renderInline(token.tokens)}</Fragment>
      ) : (
        decodeEntities(token.text as string)
      );
    case 'escape':
      return token.text as string;
    case 'strong':
      return <strong key={key} className="font-semibold">{renderInline(token.tokens)}</strong>;
    case 'em':
      return <em key={key}>{renderInline(token.tokens)}</em>;
    case 'del':
      return <del key={key}>{renderInline(token.tokens)}</del>;
    case 'codespan':
      return (
        <code key={key} className="rounded bg-raised px-1 py-0.5 font-mono text-[0.9em]">
          {token.text as string}
        </code>
      );
    case 'br':
      return <br key={key} />;
    case 'link':
      return <MarkdownLink key={key} token={token as Tokens.Link}>{renderInline(token.tokens)}</MarkdownLink>;
    case 'image':
      return <MarkdownImage key={key} token={token as Tokens.Image} />;
    case 'checkbox':
      return <TaskCheckbox key={key} checked={(token as Tokens.Checkbox).checked} />;
    case 'math':
      return <MathFormula key={key} tex={(token as MathToken).text} display={(token as MathToken).display} />;
    case 'overBudget':
      return <OverBudgetText key={key} text={token.raw} block={false} />;
    default:
      // Raw HTML (`html`) and anything unknown: literal source text.
      return token.raw;
  }
};
