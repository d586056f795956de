import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SubmitForm } from '../../components/submit-form';
import { useCopyText } from '../../components/use-copy-text';
import { ROLES } from '../../contract/users';
import type { AdminFailure } from '../../machines/admin-console.machine';
import { refusalKey } from '../../i18n/refusal';
import { formatDateTime } from '../../i18n/format';

/**
 * A refused or failed call, said for its status: what did not happen, then why. A panel gives its
 * own sentence for the refusals its server call is known for (`said`, by status); any other
 * status has the product's sentence.
 */
export const RefusalAlert = ({ failure, what, said = {} }: { failure: AdminFailure; what: string; said?: Partial<Record<number, string>> }) => {
  const { t } = useTranslation();
  const own = failure.status === undefined ? undefined : said[failure.status];
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 px-3 py-2 text-sm">
      <p className="m-0 flex items-center gap-1 text-danger">
        <span className="i-lucide-triangle-alert shrink-0" aria-hidden="true" />
        {what}
      </p>
      <p className="m-0 mt-1">{own ?? t(refusalKey(failure))}</p>
    </div>
  );
};

/** A panel whose data could not be read, with the way to read it again. */
export const LoadFailed = ({ failure, onRetry }: { failure: AdminFailure | null; onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <div role="alert" className="rounded-lg border border-danger/40 p-4">
      <p className="m-0 text-danger">{t('admin.loadFailed')}</p>
      {failure && <p className="m-0 mt-1 text-sm">{t(refusalKey(failure))}</p>}
      <button type="button" className="btn-outline mt-3" onClick={onRetry}>
        {t('admin.retry')}
      </button>
    </div>
  );
};

/** A link the server answers once (a reset link, an invitation): the whole address, a copy button, and a way to hide it. */
export const OneTimeLink = ({ title, path, expiresAt, onDismiss }: { title: string; path: string; expiresAt: string; onDismiss: () => void }) => {
  const { t, i18n } = useTranslation();
  const url = new URL(path, location.origin).href;
  const { state, copy } = useCopyText(url);
  const label = { idle: t('admin.copyLink'), copied: t('admin.copied'), failed: t('admin.copyFailed') }[state];
  return (
    <section role="status" aria-label={title} className="flex flex-col gap-2 rounded-lg border border-accent/50 bg-accent/5 p-3" data-testid="one-time-link">
      <p className="m-0 font-medium">{title}</p>
      <p className="m-0 text-sm text-muted">
        {t('admin.shownOnce')} {t('admin.linkExpires', { when: formatDateTime(expiresAt, i18n.language) })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <input className="field min-w-0 flex-1 font-mono text-xs" value={url} readOnly aria-label={title} onFocus={(event) => event.target.select()} />
        <button type="button" className="btn-primary" onClick={() => void copy()}>
          <span className={state === 'copied' ? 'i-lucide-check' : state === 'failed' ? 'i-lucide-circle-alert' : 'i-lucide-copy'} aria-hidden="true" />
          <span aria-live="polite">{label}</span>
        </button>
        <button type="button" className="btn-ghost" onClick={onDismiss}>
          {t('admin.dismiss')}
        </button>
      </div>
    </section>
  );
};

/** Previous / "page 2 of 5" / next, when there is more than one page. */
export const Pager = ({ current, pages, onPage }: { current: number; pages: number; onPage: (page: number) => void }) => {
  const { t } = useTranslation();
  if (pages <= 1) return null;
  return (
    <nav aria-label={t('admin.pages')} className="flex items-center justify-center gap-3">
      <button type="button" className="btn-outline" disabled={current <= 1} onClick={() => onPage(current - 1)}>
        {t('admin.previous')}
      </button>
      <span className="text-sm text-muted">{t('admin.pageOf', { current, pages })}</span>
      <button type="button" className="btn-outline" disabled={current >= pages} onClick={() => onPage(current + 1)}>
        {t('admin.next')}
      </button>
    </nav>
  );
};

/** A table that scrolls sideways on a phone rather than squeezing its columns. */
export const Table = ({ head, children, busy, label }: { head: string[]; children: ReactNode; busy?: boolean; label: string }) => (
  <div className="overflow-x-auto rounded-lg border border-line" aria-busy={busy || undefined}>
    <table className="w-full text-start text-sm" aria-label={label}>
      <thead className="bg-raised text-muted [&_th]:text-start">
        <tr>
          {head.map((title) => (
            <th key={title} scope="col" className="whitespace-nowrap px-3 py-2 font-medium">
              {title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  </div>
);

export const Cell = ({ children, className = '' }: { children: ReactNode; className?: string }) => <td className={`px-3 py-2 align-top ${className}`}>{children}</td>;

type SearchFormProps = { onSearch: () => void; button: { label: string; icon: string; disabled: boolean }; children: ReactNode };

/** The search and filters above a list, then the button that runs it; searching is the actor's, not a page load. */
export const SearchForm = ({ onSearch, button, children }: SearchFormProps) => (
  <SubmitForm role="search" className="flex flex-wrap items-end gap-3" onSubmit={onSearch}>
    {children}
    <button type="submit" className="btn-primary" disabled={button.disabled}>
      <span className={button.icon} aria-hidden="true" />
      {button.label}
    </button>
  </SubmitForm>
);

/** The card above a list that adds to it, under its title. */
export const CreateForm = ({ title, onCreate, children }: { title: string; onCreate: () => void; children: ReactNode }) => (
  <SubmitForm className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4" onSubmit={onCreate}>
    <h3 className="m-0 text-base font-semibold">{title}</h3>
    {children}
  </SubmitForm>
);

/** A control with its label above it; `className` sizes it in its row. */
export const Labelled = ({ label, className, children }: { label: string; className?: string; children: ReactNode }) => (
  <label className={className ? `flex flex-col gap-1 text-sm ${className}` : 'flex flex-col gap-1 text-sm'}>
    {label}
    {children}
  </label>
);

/** The organisations as the options of a select, by name. */
export const OrganisationOptions = ({ organisations }: { organisations: readonly { id: string; name: string }[] }) =>
  organisations.map((organisation) => (
    <option key={organisation.id} value={organisation.id}>
      {organisation.name}
    </option>
  ));

/** The roles as the options of a select, in the person's language. */
export const RoleOptions = () => {
  const { t } = useTranslation();
  return ROLES.map((role) => (
    <option key={role} value={role}>
      {t(`admin.roles.${role}`)}
    </option>
  ));
};

/** What a panel says where its list has nothing in it. */
export const EmptyNote = ({ children }: { children: ReactNode }) => <p className="m-0 rounded-lg border border-dashed border-line p-6 text-center text-muted">{children}</p>;
