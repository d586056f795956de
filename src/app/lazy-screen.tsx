import { Component, lazy, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ensureCompleteTranslations } from '../i18n';

/** A page chunk that has not arrived after this long counts as failed to load. */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('load-failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

export const withTimeout = <T,>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * A lazily loaded page: its own chunk, with a time-out, failing as a load-failed error. Unless it
 * is the first page (`shell`), the rest of the active language loads alongside it.
 */
export const lazyScreen = <P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  { translations = 'complete' }: { translations?: 'shell' | 'complete' } = {},
) =>
  lazy(() =>
    withTimeout(
      Promise.all([load(), translations === 'complete' ? ensureCompleteTranslations() : null]).then(([module]) => module),
      CHUNK_TIMEOUT_MS,
    ).catch((error: unknown) => {
      throw new ChunkLoadError(error);
    }),
  );

const LoadFailed = () => {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto max-w-md p-8 text-center">
      <p className="mb-4">{t('errors.loadFailed')}</p>
      <button type="button" className="btn-primary" onClick={() => location.reload()}>
        {t('errors.reload')}
      </button>
    </div>
  );
};

type BoundaryState = { failed: boolean };

/** Shows the load-failed message when a page's chunk (or the page itself) throws. */
export class ScreenBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = { failed: false };
  static getDerivedStateFromError(): BoundaryState {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}
