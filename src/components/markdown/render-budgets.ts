/**
 * How much work one answer may ask of the page. Each budget is checked by counting, in one pass
 * over the text, before marked, KaTeX or Mermaid sees it: past a budget the block is shown as its
 * source, so no answer (live or on a share page) can hold the main thread. The figures were set in
 * Chromium on a busy two-core machine, each the largest case that stayed well under a 200 ms task.
 */

/**
 * `*`, `_` and `~` in one run of inline text (a paragraph, a heading, a table cell). marked pairs
 * emphasis delimiters in time that grows with their square: `_a` × 25,000 took 6.4 s. Five
 * hundred is two hundred bold phrases in one paragraph.
 */
export const MAX_INLINE_DELIMITERS = 500;

/** Blocks inside blocks (quotes, list items): marked recurses per level, and `> ` × 2,000 overflows its stack. */
export const MAX_BLOCK_NESTING = 16;

/** A formula's source: a 2 kB matrix took 185 ms to typeset, a 60 kB one 27 s. */
export const MAX_TEX_CHARS = 2_000;
/** Groups inside groups (`\sqrt{\sqrt{…}}`): 200 levels crashed the tab. */
export const MAX_TEX_DEPTH = 24;

/** A code block coloured by the highlighter, which does a block in one go. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

/** A diagram's source, whatever its kind. */
export const MAX_DIAGRAM_CHARS = 6_000;
/** Its statements (lines that are neither blank nor comments). */
export const MAX_DIAGRAM_STATEMENTS = 150;
/** Its links (`-->`, `->>`, `<|--`, `-.-`, `==>`…): a flowchart's layout grows faster than its edges. */
export const MAX_DIAGRAM_EDGES = 100;
/** A mind map's nodes: its force layout took 1 s for 100 children and 18 s for 300. */
export const MAX_MINDMAP_NODES = 50;

/** Whether a run of inline text holds more emphasis delimiters than marked can pair quickly. */
export const tooManyDelimiters = (text: string): boolean => {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // `*`, `_`, `~`
    if (code === 42 || code === 95 || code === 126) {
      count += 1;
      if (count > MAX_INLINE_DELIMITERS) return true;
    }
  }
  return false;
};

/** What typesetting a formula would cost, counted: its length and how deep its groups nest. */
export const measureTex = (tex: string): { chars: number; depth: number } => {
  let depth = 0;
  let deepest = 0;
  for (let index = 0; index < tex.length; index += 1) {
    const char = tex[index];
    if (char === '\\') index += 1;
    else if (char === '{') deepest = Math.max(deepest, (depth += 1));
    else if (char === '}') depth = Math.max(0, depth - 1);
  }
  return { chars: tex.length, depth: deepest };
};

export const texOverBudget = (tex: string): boolean => {
  if (tex.length > MAX_TEX_CHARS) return true;
  return measureTex(tex).depth > MAX_TEX_DEPTH;
};

export type DiagramMeasure = { kind: string; chars: number; statements: number; edges: number };

const EDGE = /<?[-=.]{2,}[>x)o|]?|<?\|[-=.]{2,}|-[-.]?>>?|[*o]--|--[*o]/g;

/** What drawing a diagram would cost, counted in one pass over its lines. */
export const measureDiagram = (source: string): DiagramMeasure => {
  let kind = '';
  let statements = 0;
  let edges = 0;
  for (const line of source.split('\n')) {
    const text = line.trim();
    if (!text || text.startsWith('%%')) continue;
    if (!kind) {
      kind = text.split(/\s/, 1)[0]?.toLowerCase() ?? '';
      continue;
    }
    statements += 1;
    edges += text.match(EDGE)?.length ?? 0;
  }
  return { kind, chars: source.length, statements, edges };
};

/** Whether a diagram is too large or too complex to draw without holding the page. */
export const diagramOverBudget = (source: string): boolean => {
  if (source.length > MAX_DIAGRAM_CHARS) return true;
  const { kind, statements, edges } = measureDiagram(source);
  if (kind === 'mindmap' && statements > MAX_MINDMAP_NODES) return true;
  return statements > MAX_DIAGRAM_STATEMENTS || edges > MAX_DIAGRAM_EDGES;
};
