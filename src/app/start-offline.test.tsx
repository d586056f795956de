import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endpoints } from '../contract/endpoints';
import { setToken } from '../services/cookies';
import { issueToken, seedUser } from '../../tests/msw/db';
import { server } from '../../tests/msw/server';
import { switchToEnglish } from '../../tests/spa/harness';
import { App } from './app';
import { createRuntime } from './runtime';

afterEach(() => {
  vi.restoreAllMocks();
  history.replaceState(null, '', '/');
});

/** The app as main.tsx starts it, for someone signed in whose session check cannot reach the server. */
async function startWithoutNetwork() {
  await switchToEnglish();
  const { user } = seedUser();
  setToken(issueToken(user.id));
  server.use(http.get(endpoints.userInfo.path, () => HttpResponse.error()));
  const runtime = createRuntime({ navigate: (to) => history.pushState(null, '', to), leavePage: () => undefined });
  runtime.start();
  render(<App runtime={runtime} />);
  return { runtime, user };
}

describe('starting without the network', () => {
  it('says plainly that the device is offline, and starts by itself when the network is back', async () => {
    const offline = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { runtime } = await startWithoutNetwork();
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByText('Kraken AI needs the network to start. It starts by itself as soon as the connection is back.')).toBeInTheDocument();
    expect(screen.queryByText('The app could not start')).toBeNull();

    server.resetHandlers();
    offline.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(runtime.app.getSnapshot().value).toEqual({ loaded: 'signedIn' }));
    expect(screen.queryByRole('heading', { name: 'You are offline' })).toBeNull();
    runtime.stop();
  });

  it('online, a start that failed says so with the reason and starts again on Try again', async () => {
    const { runtime } = await startWithoutNetwork();
    expect(await screen.findByRole('heading', { name: 'The app could not start' })).toBeInTheDocument();
    // Online, the reason is the request's own, translated.
    expect(screen.getByText('The server cannot be reached. Check your connection and try again.')).toBeInTheDocument();
    server.resetHandlers();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(runtime.app.getSnapshot().value).toEqual({ loaded: 'signedIn' }));
    runtime.stop();
  });
});
