import { useSelector } from '@xstate/react';
import { useEffect, useRef, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Redirect, useLocation, useSearch } from 'wouter';
import { adminConsoleLogic } from '../../app/admin-actors';
import { useRuntime } from '../../app/runtime-context';
import { useScreenActor } from '../../app/use-screen-actor';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { ADMIN_LOGIN_URL, ADMIN_PANELS, adminAccess, type AdminPanel } from '../../machines/admin-console.machine';
import { AuditPanel } from './audit-panel';
import { ConnectorsPanel } from './connectors-panel';
import { InvitationsPanel } from './invitations-panel';
import { ModelsPanel } from './models-panel';
import { OrganisationsPanel } from './organisations-panel';
import { ReviewsPanel } from './reviews-panel';
import { UsagePanel } from './usage-panel';
import { UsersPanel } from './users-panel';

const PANELS: Record<AdminPanel, { icon: string; Panel: ComponentType }> = {
  users: { icon: 'i-lucide-users', Panel: UsersPanel },
  organisations: { icon: 'i-lucide-building-2', Panel: OrganisationsPanel },
  invitations: { icon: 'i-lucide-mail-plus', Panel: InvitationsPanel },
  connectors: { icon: 'i-lucide-plug', Panel: ConnectorsPanel },
  models: { icon: 'i-lucide-cpu', Panel: ModelsPanel },
  reviews: { icon: 'i-lucide-clipboard-check', Panel: ReviewsPanel },
  usage: { icon: 'i-lucide-chart-column', Panel: UsagePanel },
  audit: { icon: 'i-lucide-scroll-text', Panel: AuditPanel },
};

const Refused = () => {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-4 p-8 text-center">
      <span className="i-lucide-shield-x text-4xl text-muted" aria-hidden="true" />
      <h1 className="m-0 text-xl font-semibold">{t('admin.refused')}</h1>
      <p className="m-0 text-muted">{t('admin.refusedHint')}</p>
      <Link href="/" className="btn-primary">
        <span className="i-lucide-house" aria-hidden="true" />
        {t('admin.home')}
      </Link>
    </div>
  );
};

/** The panels of the console: a list beside the panel on a desktop, a row of tabs above it on a phone. */
const Console = () => {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const [logic] = useState(() => adminConsoleLogic({ navigate }));
  const adminConsole = useScreenActor(logic, { input: { panel: new URLSearchParams(search).get('panel') } });
  const panel = useSelector(adminConsole, (state) => state.context.panel);
  const { Panel } = PANELS[panel];
  const nav = useRef<HTMLElement>(null);
  // On a phone the panels are a row wider than the screen: the open one is brought into it.
  useEffect(() => {
    nav.current?.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [panel]);
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6 md:flex-row md:gap-6">
      <nav ref={nav} aria-label={t('admin.panelsLabel')} className="shrink-0 md:w-52">
        <ul className="m-0 flex list-none gap-1 overflow-x-auto p-0 md:flex-col">
          {ADMIN_PANELS.map((name) => (
            <li key={name} className="shrink-0">
              <button
                type="button"
                aria-current={panel === name ? 'page' : undefined}
                className={`w-full justify-start whitespace-nowrap ${panel === name ? 'btn bg-raised text-fg' : 'btn-ghost text-muted'}`}
                onClick={() => adminConsole.send({ type: 'open', panel: name })}
              >
                <span className={PANELS[name].icon} aria-hidden="true" />
                {t(`admin.panels.${name}`)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <section className="min-w-0 flex-1" aria-labelledby="admin-panel-title">
        <h2 id="admin-panel-title" className="mb-4 mt-0 text-xl font-semibold">
          {t(`admin.panels.${panel}`)}
        </h2>
        <Panel key={panel} />
      </section>
    </div>
  );
};

/** The admin console at /admin: a visitor is sent to log in, anyone but an admin is told no. */
const AdminScreen = () => {
  const { t } = useTranslation();
  useDocumentTitle(t('admin.title'));
  const { app } = useRuntime();
  const access = useSelector(app, (state) => adminAccess(state.context.user));
  if (access === 'visitor') return <Redirect to={ADMIN_LOGIN_URL} replace />;
  return (
    <div className="min-h-0 flex-1 overflow-y-auto">
      {access === 'refused' ? (
        <Refused />
      ) : (
        <>
          <header className="mx-auto w-full max-w-6xl px-4 pt-4 sm:px-6 sm:pt-6">
            <h1 className="m-0 text-2xl font-semibold">{t('admin.title')}</h1>
            <p className="m-0 mt-1 text-muted">{t('admin.subtitle')}</p>
          </header>
          <Console />
        </>
      )}
    </div>
  );
};

export default AdminScreen;
