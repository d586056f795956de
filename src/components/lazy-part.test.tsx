import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PART_RETRY_MS } from '../app/lazy-screen';
import { lazyPart } from './lazy-part';

const Menu = ({ label }: { label: string }) => <button type="button">{label}</button>;

/** A chunk that fails to arrive `failures` times, then arrives. */
const flakyChunk = (failures: number) => {
  const load = vi.fn(async () => {
    if (load.mock.calls.length <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return { default: Menu };
  });
  return load;
};

class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <p>The page broke</p> : this.props.children;
  }
}

const page = (part: ReactNode) => (
  <PageBoundary>
    <h1>The page</h1>
    {part}
  </PageBoundary>
);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('a part of the page whose code is its own chunk', () => {
  it('shows its fallback, not a broken page, while its chunk cannot be fetched, and fetches it again a little later', async () => {
    // Only the test moves the clock: a busy machine spending real time here cannot fire the retry early
    vi.useFakeTimers();
    const settle = () => act(() => vi.advanceTimersByTimeAsync(0));
    // React reports the failure it caught: then the part has failed, and waits to try again
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = flakyChunk(1);
    const Part = lazyPart(load, () => <span>placeholder</span>);
    render(page(<Part label="Menu" />));

    await settle();
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(reported).toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(PART_RETRY_MS - 1));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.getByText('placeholder')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle();
    expect(screen.getByRole('button', { name: 'Menu' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
    expect(screen.queryByText('The page broke')).toBeNull();
  });

  it('passes its props on', async () => {
    const Part = lazyPart(async () => ({ default: Menu }));
    render(page(<Part label="Settings" />));
    expect(await screen.findByRole('button', { name: 'Settings' })).toBeInTheDocument();
  });

  it('leaves out a part that breaks, with the page whole, and does not fetch it again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn(async () => ({
      default: () => {
        throw new Error('a bug in the part');
      },
    }));
    const Broken = lazyPart(load, () => <span>placeholder</span>);
    render(page(<Broken />));
    expect(await screen.findByText('placeholder')).toBeInTheDocument();
    await vi.waitFor(() => expect(console.error).toHaveBeenCalled());
    await act(async () => vi.advanceTimersByTime(PART_RETRY_MS * 2));
    expect(load).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();
  });
});
