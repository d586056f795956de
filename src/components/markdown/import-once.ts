/**
 * A chunk the answer's blocks load on demand (highlighter, KaTeX, Mermaid), imported once for all
 * of them: a burst of dozens of blocks otherwise runs the bundler's import helper once per block,
 * in one task (seen in a Chromium trace of a burst). A failed import is tried again by the next
 * block that asks.
 */
export const importOnce = <T>(load: () => Promise<T>): (() => Promise<T>) => {
  let pending: Promise<T> | null = null;
  return () =>
    (pending ??= load().catch((error: unknown) => {
      pending = null;
      throw error;
    }));
};
