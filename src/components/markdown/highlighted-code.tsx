import type { ReactNode } from 'react';
import type { ElementContent, Root } from 'hast';

/**
 * Colours per highlight.js scope, as utility classes (GitHub's palette, light and dark). The
 * tree comes from lowlight and is mapped to spans here: no HTML string is ever produced.
 */
const SCOPE_CLASSES: Record<string, string> = {
  'hljs-keyword': 'text-[#cf222e] dark:text-[#ff7b72]',
  'hljs-built_in': 'text-[#953800] dark:text-[#ffa657]',
  'hljs-type': 'text-[#953800] dark:text-[#ffa657]',
  'hljs-literal': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-number': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-string': 'text-[#0a3069] dark:text-[#a5d6ff]',
  'hljs-regexp': 'text-[#0a3069] dark:text-[#a5d6ff]',
  'hljs-comment': 'italic text-[#57606a] dark:text-[#8b949e]',
  'hljs-doctag': 'text-[#cf222e] dark:text-[#ff7b72]',
  'hljs-meta': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-title': 'text-[#8250df] dark:text-[#d2a8ff]',
  'hljs-attr': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-attribute': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-variable': 'text-[#953800] dark:text-[#ffa657]',
  'hljs-params': 'text-[#24292f] dark:text-[#c9d1d9]',
  'hljs-property': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-name': 'text-[#116329] dark:text-[#7ee787]',
  'hljs-tag': 'text-[#116329] dark:text-[#7ee787]',
  'hljs-selector-tag': 'text-[#116329] dark:text-[#7ee787]',
  'hljs-selector-class': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-symbol': 'text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-bullet': 'text-[#953800] dark:text-[#ffa657]',
  'hljs-section': 'font-semibold text-[#0550ae] dark:text-[#79c0ff]',
  'hljs-addition': 'bg-[#dafbe1] text-[#116329] dark:bg-[#033a16] dark:text-[#aff5b4]',
  'hljs-deletion': 'bg-[#ffebe9] text-[#82071e] dark:bg-[#67060c] dark:text-[#ffdcd7]',
  'hljs-emphasis': 'italic',
  'hljs-strong': 'font-semibold',
};

const classesOf = (className: unknown): string | undefined => {
  if (!Array.isArray(className)) return undefined;
  const classes = className.map((name) => SCOPE_CLASSES[String(name)]).filter(Boolean);
  return classes.length ? classes.join(' ') : undefined;
};

const renderNodes = (nodes: ElementContent[]): ReactNode[] =>
  nodes.map((node, index) => {
    if (node.type === 'text') return node.value;
    if (node.type !== 'element') return null;
    return (
      <span key={index} className={classesOf(node.properties.className)}>
        {renderNodes(node.children)}
      </span>
    );
  });

export const HighlightedCode = ({ tree }: { tree: Root }) => <>{renderNodes(tree.children as ElementContent[])}</>;
