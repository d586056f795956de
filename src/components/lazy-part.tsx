import { Suspense, type ComponentProps, type ComponentType, type ReactNode } from 'react';
import { lazyScreen, ScreenBoundary } from '../app/lazy-screen';

/**
 * A part of the page whose code is a chunk of its own, outside any page (the toaster, a header
 * menu, the keyboard shortcuts), loaded as a page is (`lazyScreen`). When it fails, as when its
 * chunk cannot be fetched while the server restarts, the part shows its fallback instead of
 * taking the whole page down with it, and code that did not arrive is fetched again a little
 * later (`ScreenBoundary`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, its props kept
export const lazyPart = <C extends ComponentType<any>>(load: () => Promise<{ default: C }>, fallback: () => ReactNode = () => null) => {
  const Loaded = lazyScreen(load as () => Promise<{ default: ComponentType<ComponentProps<C>> }>, { translations: 'shell' });
  const Part = (props: ComponentProps<C>) => (
    <ScreenBoundary page="" fallback={fallback()}>
      <Suspense fallback={fallback()}>
        <Loaded {...props} />
      </Suspense>
    </ScreenBoundary>
  );
  return Part;
};
