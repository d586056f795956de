import { screen } from '@testing-library/react';
import { Suspense, type JSX } from 'react';
import { describe, expect, it } from 'vitest';
import { Link, Route, Switch, useLocation } from 'wouter';
import { renderWithRuntime } from '../../tests/spa/harness';
import { lazyScreen, ScreenBoundary } from './lazy-screen';

/** A page whose code arrives or fails as the test says, counting how often it is asked for. */
const controlledPage = (name: string) => {
  const loads: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const Page = lazyScreen(
    () =>
      new Promise<{ default: () => JSX.Element }>((resolve, reject) =>
        loads.push({ resolve: () => resolve({ default: () => <h1>{name}</h1> }), reject }),
      ),
    { translations: 'shell' },
  );
  return { Page, loads };
};

const Pages = ({ pages }: { pages: Record<string, ReturnType<typeof controlledPage>['Page']> }) => {
  const [page] = useLocation();
  return (
    <>
      <nav>
        {Object.keys(pages).map((path) => (
          <Link key={path} href={path}>
            {`go ${path}`}
          </Link>
        ))}
      </nav>
      <ScreenBoundary page={page}>
        <Suspense fallback={<p>loading page</p>}>
          <Switch>
            {Object.entries(pages).map(([path, Page]) => (
              <Route key={path} path={path} component={Page} />
            ))}
          </Switch>
        </Suspense>
      </ScreenBoundary>
    </>
  );
};

describe('lazily loaded pages', () => {
  it('keep loading other pages after one fails, and load the failed one again on "Try again"', async () => {
    const account = controlledPage('Account');
    const download = controlledPage('Download');
    const view = await renderWithRuntime(<Pages pages={{ '/account': account.Page, '/download': download.Page }} />, { url: '/account' });

    expect(await screen.findByText('loading page')).toBeInTheDocument();
    account.loads[0]!.reject(new TypeError('Failed to fetch dynamically imported module'));
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded.');

    // Another page shows, its code loaded as usual.
    await view.user.click(screen.getByRole('link', { name: 'go /download' }));
    download.loads[0]!.resolve();
    expect(await screen.findByRole('heading', { name: 'Download' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();

    // Back on the failed page: its code is asked for again, not the old failure shown.
    await view.user.click(screen.getByRole('link', { name: 'go /account' }));
    expect(account.loads).toHaveLength(2);
    account.loads[1]!.reject(new TypeError('Failed to fetch dynamically imported module'));
    await view.user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(account.loads).toHaveLength(3);
    account.loads[2]!.resolve();
    expect(await screen.findByRole('heading', { name: 'Account' })).toBeInTheDocument();
  });
});
