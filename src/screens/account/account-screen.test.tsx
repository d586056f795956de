import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { UserMenu } from '../../components/user-menu';
import { failBody } from '../../../tests/msw/handlers';
import { db, seedUser } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import AccountScreen from './account-screen';

const openAccount = async (options: { wechatId?: string } = {}) => {
  const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada', wechatId: options.wechatId });
  const view = await renderWithRuntime(
    <>
      <UserMenu />
      <AccountScreen />
    </>,
    { url: '/account', signedInAs: user },
  );
  await screen.findByLabelText('Nickname');
  return { ...view, userId: user.id };
};

const nickname = () => screen.getByLabelText('Nickname');
const wechatId = () => screen.getByLabelText('WeChat ID');
const save = () => screen.getByRole('button', { name: 'Save' });

describe('account page', () => {
  it('sends a visitor to the login page, to come back here afterwards', async () => {
    const view = await renderWithRuntime(<AccountScreen />, { url: '/account' });
    await waitFor(() => expect(view.url()).toBe('/login?redirect_url=%2Faccount'));
  });

  it('loads the account, then shows the username read-only beside the editable fields', async () => {
    const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada', wechatId: 'ada_lovelace' });
    server.use(http.get(endpoints.userInfo.path, async () => delay(50).then(() => undefined)));
    await renderWithRuntime(<AccountScreen />, { url: '/account', signedInAs: user });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading your account…');
    server.resetHandlers();
    await screen.findByLabelText('Nickname');
    expect(screen.getByLabelText('Username')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(nickname()).toHaveValue('Ada');
    expect(wechatId()).toHaveValue('ada_lovelace');
  });

  it('says the account could not be loaded, and loads it again', async () => {
    const { user } = seedUser();
    let calls = 0;
    // The first call is the session check at start; the page's own load is the second.
    server.use(
      http.get(endpoints.userInfo.path, () => {
        calls += 1;
        return calls === 2 ? HttpResponse.json(failBody('Database unavailable'), { status: 500 }) : undefined;
      }),
    );
    const view = await renderWithRuntime(<AccountScreen />, { url: '/account', signedInAs: user });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your account details could not be loaded.');
    await view.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Nickname')).toBeInTheDocument();
  });

  it('shows each broken rule beside its field, focuses the first, and sends nothing', async () => {
    const view = await openAccount();
    const updates = recordRequests(endpoints.userUpdate.path);
    await view.user.clear(nickname());
    await view.user.type(wechatId(), '1bad');
    await view.user.click(save());

    expect(screen.getByTestId('account-nickname-error')).toHaveTextContent('Enter a nickname.');
    expect(screen.getByTestId('account-wechatId-error')).toHaveTextContent(
      'A WeChat ID has 6 to 20 characters, starts with a letter and uses only letters, digits, _ or -.',
    );
    expect(nickname()).toHaveAttribute('aria-invalid', 'true');
    expect(wechatId()).toHaveAccessibleDescription(expect.stringContaining('A WeChat ID has 6 to 20 characters'));
    expect(nickname()).toHaveFocus();
    expect(updates).toHaveLength(0);

    await view.user.type(nickname(), 'x'.repeat(33));
    expect(screen.queryByTestId('account-nickname-error')).toBeNull();
    await view.user.click(save());
    expect(screen.getByTestId('account-nickname-error')).toHaveTextContent('A nickname has at most 32 characters.');
  });

  it('keeps everything typed when the save fails, and says why', async () => {
    const view = await openAccount();
    server.use(http.post(endpoints.userUpdate.path, () => HttpResponse.json(failBody('Nickname already taken'), { status: 409 }), { once: true }));
    await view.user.clear(nickname());
    await view.user.type(nickname(), 'Countess');
    await view.user.type(wechatId(), 'countess_ada');
    await view.user.click(save());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your changes could not be saved. Everything you typed is still here; try again.');
    expect(alert).toHaveTextContent('Nickname already taken');
    expect(nickname()).toHaveValue('Countess');
    expect(wechatId()).toHaveValue('countess_ada');
    expect(screen.getByTestId('user-name')).toHaveTextContent('Ada');

    await view.user.click(save());
    await waitFor(() => expect(screen.getByTestId('user-name')).toHaveTextContent('Countess'));
  });

  it('saves, says so, and the user menu shows the new nickname at once', async () => {
    const view = await openAccount();
    await view.user.clear(nickname());
    await view.user.type(nickname(), '  Countess ');
    await view.user.type(wechatId(), 'countess_ada');
    await view.user.click(save());

    expect(await screen.findByText('Your account details were saved', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByTestId('user-name')).toHaveTextContent('Countess');
    expect(nickname()).toHaveValue('Countess');
    expect(db.users.get(view.userId)).toMatchObject({ nickname: 'Countess', wechatId: 'countess_ada' });
    expect(view.runtime.app.getSnapshot().context.user?.nickname).toBe('Countess');
  });

  it('uploads an avatar, previews it, and saves it with the rest', async () => {
    const view = await openAccount();
    const picture = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'me.png', { type: 'image/png' });
    await view.user.upload(screen.getByTestId('avatar-input'), picture);
    const preview = await screen.findByTestId('avatar-preview', {}, { timeout: 5000 });
    expect(preview.getAttribute('src')).toMatch(/^\/media\/file-/);
    expect(screen.getByText('Your new avatar (applied when you save)')).toBeInTheDocument();

    await view.user.click(save());
    await screen.findByText('Your account details were saved', {}, { timeout: 5000 });
    expect(db.users.get(view.userId)?.avatar).toBe(preview.getAttribute('src'));
  });

  it('refuses a picture that is not an image or too large, before uploading it', async () => {
    await openAccount();
    const uploads = recordRequests(endpoints.upload.path);
    const input = screen.getByTestId('avatar-input');
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose a PNG, JPEG, GIF or WebP picture.');
    const huge = new File([new Uint8Array(8)], 'huge.png', { type: 'image/png' });
    Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
    fireEvent.change(input, { target: { files: [huge] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This picture is too large: the limit is 20 MB.');
    expect(uploads).toHaveLength(0);
  });
});
