import type { LanguageFn } from 'highlight.js';
import type { Root } from 'hast';
import { createLowlight } from 'lowlight';
import { nextTask } from '../next-task';

/**
 * Loaded on demand by `useHighlight`. Each grammar is its own chunk and is fetched the first
 * time a block in that language is shown.
 */
type Loader = () => Promise<{ default: LanguageFn }>;

const GRAMMARS: Record<string, Loader> = {
  bash: () => import('highlight.js/lib/languages/bash'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  css: () => import('highlight.js/lib/languages/css'),
  diff: () => import('highlight.js/lib/languages/diff'),
  go: () => import('highlight.js/lib/languages/go'),
  java: () => import('highlight.js/lib/languages/java'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  php: () => import('highlight.js/lib/languages/php'),
  python: () => import('highlight.js/lib/languages/python'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  rust: () => import('highlight.js/lib/languages/rust'),
  scss: () => import('highlight.js/lib/languages/scss'),
  shell: () => import('highlight.js/lib/languages/shell'),
  sql: () => import('highlight.js/lib/languages/sql'),
  swift: () => import('highlight.js/lib/languages/swift'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  xml: () => import('highlight.js/lib/languages/xml'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
};

const ALIASES: Record<string, string> = {
  sh: 'bash', zsh: 'bash', console: 'shell', 'c++': 'cpp', cc: 'cpp', h: 'c', hpp: 'cpp', cs: 'csharp', 'c#': 'csharp',
  golang: 'go', js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', jsonc: 'json',
  kt: 'kotlin', md: 'markdown', py: 'python', python3: 'python', rb: 'ruby', rs: 'rust', ts: 'typescript',
  tsx: 'typescript', mts: 'typescript', html: 'xml', htm: 'xml', svg: 'xml', vue: 'xml', yml: 'yaml',
};

const lowlight = createLowlight();

/** Highlighting done in one task before the page gets the thread back. */
export const HIGHLIGHT_SLICE_MS = 8;

const waiting: Array<() => void> = [];
let scheduled = false;

const runSlice = () => {
  const started = performance.now();
  do waiting.shift()?.();
  while (waiting.length > 0 && performance.now() - started < HIGHLIGHT_SLICE_MS);
  scheduled = waiting.length > 0;
  if (scheduled) nextTask(runSlice);
};

/**
 * Runs `work` in turn with the other blocks' highlighting, a few blocks a task: an answer that
 * arrives with dozens of code blocks never highlights them all in one long task.
 */
const inTurn = <T>(work: () => T): Promise<T> =>
  new Promise((resolve, reject) => {
    waiting.push(() => {
      try {
        resolve(work());
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    if (!scheduled) {
      scheduled = true;
      nextTask(runSlice);
    }
  });

/** The highlighted tree of `code`, or null when we have no grammar for `language`. */
export const highlight = async (code: string, language: string): Promise<Root | null> => {
  const key = language.toLowerCase();
  const name = ALIASES[key] ?? key;
  const load = GRAMMARS[name];
  if (!load) return null;
  if (!lowlight.registered(name)) lowlight.register(name, (await load()).default);
  return inTurn(() => lowlight.highlight(name, code));
};
