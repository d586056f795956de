import mermaid from 'mermaid';
import { diagramConfig } from './mermaid-config';

let count = 0;

/**
 * A sequence diagram's actor menus (`link A: …`, `links A: {…}`) are dead in an image, and Mermaid
 * draws them with an inline click handler of its own while it measures the diagram in the page;
 * they are left out.
 */
export const withoutActorMenus = (source: string): string =>
  /^\s*(?:%%.*\n\s*)*sequenceDiagram\b/.test(source) ? source.replace(/^[ \t]*links?[ \t]+[^\n:]+:.*$/gm, '') : source;

/**
 * The diagram as an SVG document, or null when the source is not a valid diagram. The page only
 * ever shows it as an image (see `MermaidDiagram`), where nothing in it can run or load.
 */
export const renderDiagram = async (source: string, dark: boolean): Promise<string | null> => {
  mermaid.initialize(diagramConfig(dark));
  const drawn = withoutActorMenus(source);
  if (!(await mermaid.parse(drawn, { suppressErrors: true }))) return null;
  count += 1;
  try {
    const { svg } = await mermaid.render(`answer-diagram-${count}`, drawn);
    return svg;
  } catch {
    return null;
  }
};
