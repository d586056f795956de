import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedUser } from '../../tests/msw/db';
import { renderWithRuntime } from '../../tests/spa/harness';
import { UserMenu, useUserMenu, userMenuItemClass } from './user-menu';

const ThemeItem = () => {
  const { close } = useUserMenu();
  return (
    <button type="button" role="menuitemradio" aria-checked="false" tabIndex={-1} className={userMenuItemClass} onClick={close}>
      Dark theme
    </button>
  );
};

const openMenu = async (children?: React.ReactNode) => {
  const { user } = seedUser({ username: 'ada@example.com', nickname: 'Ada', avatar: '/media/ada.png' });
  const view = await renderWithRuntime(<UserMenu>{children}</UserMenu>, { url: '/chat', signedInAs: user });
  const button = await screen.findByRole('button', { name: 'User menu: Ada' });
  return { ...view, button };
};

const focusedName = () => document.activeElement?.textContent?.trim();

describe('user menu', () => {
  it('shows who is signed in, the account, studio and download links, and log out', async () => {
    const { user, button } = await openMenu();
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByTestId('user-menu-account')).toHaveTextContent('Ada');
    expect(screen.getByTestId('user-menu-account')).toHaveTextContent('ada@example.com');
    expect(screen.getByRole('menu')).toHaveAccessibleName('User menu: Ada');
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Account', 'Agent studio', 'Download the app', 'Log out']);
    expect(screen.getByRole('menuitem', { name: 'Account' })).toHaveAttribute('href', '/account');
    expect(screen.getByRole('menuitem', { name: 'Agent studio' })).toHaveAttribute('href', '/studio');
    expect(screen.getByRole('menuitem', { name: 'Account' })).toHaveFocus();
  });

  it('shows the picture, and the placeholder when the picture cannot be shown', async () => {
    const { button } = await openMenu();
    const picture = button.querySelector('img')!;
    expect(picture).toHaveAttribute('src', '/media/ada.png');
    expect(screen.queryByTestId('avatar-placeholder')).toBeNull();
    fireEvent.error(picture);
    expect(button.querySelector('img')).toBeNull();
    expect(screen.getByTestId('avatar-placeholder')).toBeInTheDocument();
  });

  it('moves with the arrow keys, Home and End, wrapping around', async () => {
    const { user, button } = await openMenu();
    button.focus();
    await user.keyboard('{ArrowDown}');
    expect(focusedName()).toBe('Account');
    await user.keyboard('{ArrowDown}');
    expect(focusedName()).toBe('Agent studio');
    await user.keyboard('{ArrowDown}');
    expect(focusedName()).toBe('Download the app');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(focusedName()).toBe('Account');
    await user.keyboard('{ArrowUp}');
    expect(focusedName()).toBe('Log out');
    await user.keyboard('{Home}');
    expect(focusedName()).toBe('Account');
    await user.keyboard('{End}');
    expect(focusedName()).toBe('Log out');
    await user.keyboard('d');
    expect(focusedName()).toBe('Download the app');
  });

  it('opens on its last item with ArrowUp, and Escape closes it with focus back on the button', async () => {
    const { user, button } = await openMenu();
    button.focus();
    await user.keyboard('{ArrowUp}');
    expect(focusedName()).toBe('Log out');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });

  it('opens with Enter and closes on a click outside', async () => {
    const { user, button } = await openMenu();
    button.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('logs out', async () => {
    const { user, button, runtime } = await openMenu();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Log out' }));
    await waitFor(() => expect(runtime.app.getSnapshot().context.user).toBeNull());
    expect(screen.queryByRole('button', { name: /User menu/ })).toBeNull();
  });

  it('takes settings items in its slot, reachable with the arrows, able to close the menu', async () => {
    const { user, button } = await openMenu(<ThemeItem />);
    await user.click(button);
    expect(screen.getByRole('group', { name: 'Settings' })).toContainElement(screen.getByRole('menuitemradio', { name: 'Dark theme' }));
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(focusedName()).toBe('Dark theme');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();
  });
});
