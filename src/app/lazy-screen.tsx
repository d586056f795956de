import { Component, lazy, type ComponentType, type JSX, type LazyExoticComponent, type ReactNode } from 'react';
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

/** Pages whose code failed to load, each with the way to try it afresh. */
const failedScreens = new Set<() => void>();

/** The pages (and parts) that failed to load will fetch their code again the next time they are shown. */
export const forgetFailedLoads = () => {
  for (const renew of failedScreens) renew();
  failedScreens.clear();
};

/**
 * A lazily loaded page: its own chunk, with a time-out, failing as a load-failed error. Unless it
 * is the first page (`shell`), the rest of the active language loads alongside it. React keeps a
 * lazy component's failure for good, so once the boundary below starts afresh (another page, or
 * "Try again") a failed page is given a fresh lazy component, which fetches its code again.
 */
export const lazyScreen = <P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  { translations = 'complete' }: { translations?: 'shell' | 'complete' } = {},
) => {
  const attempt = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      withTimeout(
        Promise.all([load(), translations === 'complete' ? ensureCompleteTranslations() : null]).then(([module]) => module),
        CHUNK_TIMEOUT_MS,
      ).catch((error: unknown) => {
        failedScreens.add(() => (current = attempt()));
        throw new ChunkLoadError(error);
      }),
    );
  let current = attempt();
  const Screen = (props: P) => {
    const Current = current;
    return <Current {...(props as P & JSX.IntrinsicAttributes)} />;
  };
  return Screen;
};

const LoadFailed = ({ onRetry }: { onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto max-w-md p-8 text-center">
      <p className="mb-4">{t('errors.loadFailed')}</p>
      <button type="button" className="btn-primary" onClick={onRetry}>
        {t('errors.retry')}
      </button>
    </div>
  );
};

/** After a part's code failed to arrive, it is fetched again this long after. */
export const PART_RETRY_MS = 5_000;

type BoundaryProps = {
  children: ReactNode;
  /** The page shown: another page starts afresh. */
  page: string;
  /**
   * For a part of the page rather than a page (`lazyPart`): shown instead of the message when it
   * fails, and a part whose code did not arrive fetches it again by itself a little later.
   */
  fallback?: ReactNode;
};
type BoundaryState = { failed: boolean; page: string };

/**
 * Shows the load-failed message when a page's chunk (or the page itself) throws, for that page
 * only: going to another page shows it, and "Try again" loads the failed one again.
 */
export class ScreenBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { failed: false, page: this.props.page };
  private timer: ReturnType<typeof setTimeout> | undefined;
  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    if (props.page === state.page) return null;
    forgetFailedLoads();
    return { failed: false, page: props.page };
  }
  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }
  componentDidCatch(error: unknown) {
    if (this.props.fallback !== undefined && error instanceof ChunkLoadError) this.timer = setTimeout(this.retry, PART_RETRY_MS);
  }
  componentWillUnmount() {
    clearTimeout(this.timer);
  }
  private readonly retry = () => {
    forgetFailedLoads();
    this.setState({ failed: false });
  };
  render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback === undefined ? <LoadFailed onRetry={this.retry} /> : this.props.fallback;
  }
}
