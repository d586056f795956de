import { useSelector } from '@xstate/react';
import { createContext, useContext, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRuntime } from '../app/runtime-context';
import { RoundPicture } from './round-picture';

const ITEMS = '[role="menuitem"]:not([aria-disabled="true"]),[role="menuitemradio"]:not([aria-disabled="true"]),[role="menuitemcheckbox"]:not([aria-disabled="true"])';

type UserMenuControls = {
  /** Closes the menu and gives focus back to its button. */
  close: () => void;
};

const UserMenuContext = createContext<UserMenuControls | null>(null);

/** For items placed in the menu's slot: close the menu after acting, like the built-in items. */
export const useUserMenu = (): UserMenuControls => {
  const controls = useContext(UserMenuContext);
  if (!controls) throw new Error('useUserMenu is for items inside <UserMenu>');
  return controls;
};

/** Shared look of the menu's items (links, buttons, radios), for items added through the slot. */
export const userMenuItemClass =
  'flex w-full items-center gap-2 rounded px-3 py-2 text-start text-sm text-fg no-underline hover:bg-raised focus:bg-raised focus:outline-none';

/** The user's picture, or a placeholder when there is none or it cannot be shown. */
const Avatar = ({ src, size }: { src: string; size: number }) => (
  <RoundPicture
    src={src}
    size={size}
    fallback={
      <span
        className="i-lucide-circle-user shrink-0 text-muted"
        style={{ fontSize: size, width: size, height: size }}
        aria-hidden="true"
        data-testid="avatar-placeholder"
      />
    }
  />
);

type UserMenuProps = {
  /**
   * More items (theme, language...), shown in a "Settings" group between the links and log out.
   * Give each a menu role (`menuitem`, `menuitemradio`, `menuitemcheckbox`) and `tabIndex={-1}`:
   * the arrow keys then reach them; call `useUserMenu().close()` after acting when it should close.
   */
  children?: ReactNode;
};

/**
 * The signed-in user's menu, a WAI-ARIA menu button: who is signed in, the account and download
 * pages, any settings given as children, and log out. Enter, Space or the arrow keys open it on
 * its first (or last) item; arrows, Home and End move; Escape closes and focus returns to the
 * button; Tab or a click outside closes it.
 */
export const UserMenu = ({ children }: UserMenuProps) => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const user = useSelector(app, (state) => state.context.user);
  const [open, setOpen] = useState(false);
  /** Which item takes focus when the menu opens: the first, the last, or none (opened by pointer). */
  const [initialFocus, setInitialFocus] = useState<'first' | 'last'>('first');
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();

  const items = () => Array.from(menuRef.current?.querySelectorAll<HTMLElement>(ITEMS) ?? []);

  const close = (returnFocus = true) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    const list = items();
    (initialFocus === 'last' ? list.at(-1) : list[0])?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, initialFocus]);

  if (!user) return null;
  const name = user.nickname || user.username;

  const openAt = (where: 'first' | 'last') => {
    setInitialFocus(where);
    setOpen(true);
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const index = list.indexOf(document.activeElement as HTMLElement);
    const moveTo = (next: number) => {
      event.preventDefault();
      list[(next + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return moveTo(index + 1);
      case 'ArrowUp':
        return moveTo(index < 0 ? list.length - 1 : index - 1);
      case 'Home':
        return moveTo(0);
      case 'End':
        return moveTo(list.length - 1);
      case 'Escape':
        event.preventDefault();
        return close();
      case 'Tab':
        return close(false);
      default:
        // Type-ahead: the next item starting with the typed letter.
        if (event.key.length === 1 && /\S/.test(event.key)) {
          const letter = event.key.toLowerCase();
          const order = [...list.slice(index + 1), ...list.slice(0, index + 1)];
          const match = order.find((item) => item.textContent?.trim().toLowerCase().startsWith(letter));
          if (match) {
            event.preventDefault();
            match.focus();
          }
        }
    }
  };

  return (
    <UserMenuContext.Provider value={{ close }}>
      <div ref={rootRef} className="relative">
        <button
          ref={buttonRef}
          id={buttonId}
          type="button"
          className="btn-ghost max-w-48 px-2"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          aria-label={`${t('userMenu.label')}: ${name}`}
          onClick={() => (open ? close() : openAt('first'))}
          onKeyDown={onButtonKeyDown}
        >
          <Avatar src={user.avatar} size={24} />
          <span data-testid="user-name" className="hidden truncate sm:inline">
            {name}
          </span>
          <span className="i-lucide-chevron-down text-muted" aria-hidden="true" />
        </button>
        {open && (
          <div className="absolute end-0 z-30 mt-1 w-64 rounded-xl border border-line bg-surface p-1 shadow-lg" data-testid="user-menu-popup">
            <div className="flex items-center gap-3 border-b border-line px-3 py-3" data-testid="user-menu-account">
              <Avatar src={user.avatar} size={40} />
              <div className="min-w-0">
                <p className="m-0 truncate font-medium">{name}</p>
                <p className="m-0 truncate text-xs text-muted">
                  <span className="sr-only">{t('userMenu.signedInAs')} </span>
                  {user.username}
                </p>
              </div>
            </div>
            <div ref={menuRef} id={menuId} role="menu" aria-labelledby={buttonId} className="flex flex-col gap-0.5 pt-1" onKeyDown={onMenuKeyDown}>
              <Link href="/account" role="menuitem" tabIndex={-1} className={userMenuItemClass} onClick={() => close(false)}>
                <span className="i-lucide-user text-muted" aria-hidden="true" />
                {t('userMenu.account')}
              </Link>
              <Link href="/studio" role="menuitem" tabIndex={-1} className={userMenuItemClass} onClick={() => close(false)}>
                <span className="i-lucide-bot text-muted" aria-hidden="true" />
                {t('nav.studio')}
              </Link>
              <Link href="/download" role="menuitem" tabIndex={-1} className={userMenuItemClass} onClick={() => close(false)}>
                <span className="i-lucide-download text-muted" aria-hidden="true" />
                {t('userMenu.download')}
              </Link>
              {children && (
                <div role="group" aria-label={t('userMenu.settings')} className="flex flex-col gap-0.5 border-t border-line pt-1" data-testid="user-menu-settings">
                  {children}
                </div>
              )}
              <div role="separator" className="my-0.5 border-t border-line" />
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={userMenuItemClass}
                onClick={() => {
                  close();
                  app.send({ type: 'session.signOut' });
                }}
              >
                <span className="i-lucide-log-out text-muted" aria-hidden="true" />
                {t('userMenu.logout')}
              </button>
            </div>
          </div>
        )}
      </div>
    </UserMenuContext.Provider>
  );
};
