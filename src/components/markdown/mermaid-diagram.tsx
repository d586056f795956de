import { useEffect, useState } from 'react';
import { importOnce } from './import-once';
import { useMarkdownWords } from './markdown-words';
import { CodeBlock } from './code-block';
import { diagramOverBudget } from './render-budgets';

type Drawn = { source: string; url: string; width: number | undefined; height: number | undefined };

/** The SVG's own size from its viewBox, so the image keeps its proportions. */
const sizeOf = (svg: string): Pick<Drawn, 'width' | 'height'> => {
  const box = /viewBox="[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)"/.exec(svg);
  return box ? { width: Math.ceil(Number(box[1])), height: Math.ceil(Number(box[2])) } : { width: undefined, height: undefined };
};

type Outcome = Drawn | { source: string; invalid: true };

const loadMermaid = importOnce(() => import('./mermaid-render'));

/**
 * The diagram a finished ```mermaid block describes. Mermaid (its own large chunk) is fetched the
 * first time an answer holds one; until then, while the block is still being written, and when
 * the source is not a valid diagram, the block shows as code. The drawing is shown as an image
 * from a `blob:` address: an SVG in an image can neither run script nor load anything, whatever
 * the diagram says. A changed source keeps the previous drawing until the new one is ready. A
 * diagram past its budget (see render-budgets.ts) is never given to Mermaid: it stays code, with a
 * note.
 */
export const MermaidDiagram = ({ code, inProgress }: { code: string; inProgress: boolean }) => {
  const words = useMarkdownWords();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [showCode, setShowCode] = useState(false);
  const tooLarge = !inProgress && diagramOverBudget(code);

  useEffect(() => {
    if (inProgress || tooLarge) return;
    let current = true;
    const dark = document.documentElement.classList.contains('dark');
    loadMermaid()
      .then(({ renderDiagram }) => renderDiagram(code, dark))
      .then((svg) => {
        if (!current) return;
        if (svg === null) {
          setOutcome({ source: code, invalid: true });
          return;
        }
        const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
        setOutcome({ source: code, url, ...sizeOf(svg) });
      })
      // Drawing is a bonus: if Mermaid cannot be fetched, the code stays.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [code, inProgress, tooLarge]);

  const url = outcome && 'url' in outcome ? outcome.url : null;
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);

  if (tooLarge) {
    return (
      <div data-over-budget="">
        <CodeBlock code={code} language="mermaid" inProgress={false} />
        <p className="-mt-2 mb-3 text-xs text-muted">{words.diagramOverBudget}</p>
      </div>
    );
  }
  if (!outcome || !('url' in outcome) || (outcome.source !== code && inProgress)) {
    return <CodeBlock code={code} language="mermaid" inProgress={inProgress} />;
  }
  return (
    <figure className="my-3 overflow-hidden rounded-lg border border-line bg-raised" data-diagram="">
      <figcaption className="flex items-center justify-between gap-2 border-b border-line px-3 py-1 text-xs text-muted">
        <span>{words.diagram}</span>
        <button type="button" className="btn-ghost h-7 px-2 text-xs" aria-pressed={showCode} onClick={() => setShowCode((shown) => !shown)}>
          {words.showDiagramCode}
        </button>
      </figcaption>
      {showCode ? (
        <pre className="m-0 overflow-x-auto p-3 text-sm leading-relaxed">
          <code className="font-mono">{code}</code>
        </pre>
      ) : (
        <div className="overflow-x-auto p-3">
          <img src={outcome.url} alt={words.diagramAlt} width={outcome.width} height={outcome.height} className="mx-auto block h-auto max-w-full" />
        </div>
      )}
    </figure>
  );
};
