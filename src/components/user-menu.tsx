import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useRuntime } from '../app/runtime-context';

/** The signed-in user's menu: who is signed in, the account page, and log out. */
export const UserMenu = () => {
  const { t } = useTranslation();
  const { app } = useRuntime();
  const user = useSelector(app, (state) => state.context.user);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  if (!user) return null;
  const name = user.nickname || user.username;
  return (
    <div className="relative" onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
      <button
        type="button"
        className="btn-ghost"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('userMenu.label')}
        onClick={() => setOpen((value) => !value)}
      >
        {user.avatar ? (
          <img src={user.avatar} alt="" width={24} height={24} className="rounded-full" />
        ) : (
          <span className="i-lucide-circle-user text-lg" aria-hidden="true" />
        )}
        <span data-testid="user-name">{name}</span>
      </button>
      {open && (
        <div id={menuId} role="menu" className="absolute end-0 z-20 mt-1 min-w-44 rounded-lg border border-line bg-surface p-1 shadow-lg">
          <Link href="/account" role="menuitem" className="block rounded px-3 py-2 text-sm text-fg no-underline hover:bg-raised" onClick={() => setOpen(false)}>
            {t('userMenu.account')}
          </Link>
          <button
            type="button"
            role="menuitem"
            className="block w-full rounded px-3 py-2 text-start text-sm hover:bg-raised"
            onClick={() => {
              setOpen(false);
              app.send({ type: 'session.signOut' });
            }}
          >
            {t('userMenu.logout')}
          </button>
        </div>
      )}
    </div>
  );
};
