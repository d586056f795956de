import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { isSignedIn } from '../../machines/app.machine';
import { db, seedConversation, seedUser, userOwner } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { getToken } from '../../services/cookies';
import AccountScreen from './account-screen';

/** What the browser was handed to save: the file's name and its text. */
const watchDownloads = () => {
  const saved: { name: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:download-${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
  });
  return saved;
};

const openAccount = async (role?: 'member' | 'admin') => {
  const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada', ...(role ? { role } : {}) });
  const view = await renderWithRuntime(
    <Switch>
      <Route path="/account" component={AccountScreen} />
      <Route>
        <p>the home page</p>
      </Route>
    </Switch>,
    { url: '/account', signedInAs: user },
  );
  await screen.findByLabelText('Nickname');
  return { ...view, account: user };
};

const panel = () => within(screen.getByRole('region', { name: 'Your data' }));
const dialog = () => within(screen.getByRole('dialog', { name: 'Delete your account' }));

describe('the account’s data', () => {
  it('downloads everything the account holds as one JSON file', async () => {
    const saved = watchDownloads();
    const view = await openAccount();
    seedConversation({ owner: userOwner(view.account.id), title: 'Bread recipes', messages: [{ role: 'user', content: 'Sourdough?' }] });

    await view.user.click(panel().getByRole('button', { name: 'Download my data' }));

    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.name).toMatch(/^kraken-ai-ada_example\.com-\d{4}-\d{2}-\d{2}\.json$/);
    const document = JSON.parse(await saved[0]!.text) as { user: { username: string }; conversations: { title: string }[] };
    expect(document.user.username).toBe('ada@example.com');
    expect(document.conversations.map((conversation) => conversation.title)).toEqual(['Bread recipes']);
  });

  it('says so when the download fails', async () => {
    const view = await openAccount();
    server.use(http.get(endpoints.accountExport.path, () => HttpResponse.json(failBody('disk full'), { status: 500 }), { once: true }));
    await view.user.click(panel().getByRole('button', { name: 'Download my data' }));
    const alert = await panel().findByRole('alert');
    expect(alert).toHaveTextContent('Your data could not be downloaded.');
    expect(alert).toHaveTextContent('Something went wrong on the server. Please try again.');
  });

  it('asks for the account name typed again, offering the download first, and deletes nothing on a slip', async () => {
    const saved = watchDownloads();
    const view = await openAccount();
    const deletions = recordRequests(endpoints.accountDelete.path);

    await view.user.click(panel().getByRole('button', { name: 'Delete account' }));
    expect(dialog().getByText(/Download your data first/)).toBeInTheDocument();
    await view.user.click(dialog().getByRole('button', { name: 'Download my data' }));
    await expect.poll(() => saved.length).toBe(1);

    await view.user.type(dialog().getByLabelText('To confirm, type your account name: ada@example.com'), 'ada@example.org');
    await view.user.click(dialog().getByRole('button', { name: 'Delete forever' }));
    expect(screen.getByTestId('delete-confirm-error')).toHaveTextContent('This is not your account name.');
    expect(deletions).toHaveLength(0);

    await view.user.click(dialog().getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Delete your account' })).toBeNull();
    expect(db.users.has(view.account.id)).toBe(true);
  });

  it('deletes the account, signs out and goes home', async () => {
    const view = await openAccount();
    await view.user.click(panel().getByRole('button', { name: 'Delete account' }));
    await view.user.type(dialog().getByLabelText('To confirm, type your account name: ada@example.com'), ' ada@example.com ');
    await view.user.click(dialog().getByRole('button', { name: 'Delete forever' }));

    expect(await screen.findByText('the home page')).toBeInTheDocument();
    expect(view.url()).toBe('/');
    expect(await screen.findByText('Your account was deleted.')).toBeInTheDocument();
    expect(db.users.has(view.account.id)).toBe(false);
    await expect.poll(() => isSignedIn(view.runtime.app.getSnapshot())).toBe(false);
    expect(getToken()).toBeNull();
  });

  it('tells the last admin they cannot leave, and keeps them signed in', async () => {
    const view = await openAccount('admin');
    await view.user.click(panel().getByRole('button', { name: 'Delete account' }));
    await view.user.type(dialog().getByLabelText('To confirm, type your account name: ada@example.com'), 'ada@example.com');
    await view.user.click(dialog().getByRole('button', { name: 'Delete forever' }));

    expect(await screen.findByTestId('delete-confirm-error')).toHaveTextContent(
      'You are the last admin: make someone else an admin before deleting your account.',
    );
    expect(dialog().getByLabelText('To confirm, type your account name: ada@example.com')).toHaveValue('ada@example.com');
    expect(isSignedIn(view.runtime.app.getSnapshot())).toBe(true);
    expect(view.url()).toBe('/account');
  });
});
