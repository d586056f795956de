import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearch } from 'wouter';
import { filtersFromQuery, overviewLogic } from '../../app/operations-actors';
import { PLATFORMS, TASK_STATUSES, type Platform } from '../../contract/tasks';
import { formatDateTime, formatRelativeTime } from '../../i18n/format';
import { PLATFORM_ICON } from './task-labels';
import { StatusBadge } from './status-badge';
import { TaskCards } from './task-cards';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { useScreenActor } from '../../app/use-screen-actor';

/** The operator's tasks: counts per status, filters, search and pages, and the way to start new ones. */
export const OverviewScreen = () => {
  const { t, i18n } = useTranslation();
  const [, navigate] = useLocation();
  const search = useSearch();
  const overview = useScreenActor(overviewLogic({ navigate }), { input: { filters: filtersFromQuery(search) } });
  const { filters, items, total, counts, pageSize, error, typed } = useSelector(overview, (state) => state.context);
  const loading = useSelector(overview, (state) => state.matches({ list: 'loading' }));
  const failed = useSelector(overview, (state) => state.matches({ list: 'failed' }));
  const narrow = useMediaQuery(MOBILE_QUERY);

  const pages = Math.max(1, Math.ceil(total / pageSize));
  const allCount = TASK_STATUSES.reduce((sum, status) => sum + counts[status], 0);

  return (
    <section aria-labelledby="overview-title" className="flex flex-col gap-4">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="overview-title" className="text-2xl font-semibold">
          {t('operations.title')}
        </h1>
        <div className="flex flex-wrap gap-2">
          <Link href="/kraken-operation/task/xiaohongshu" className="btn-primary">
            <span className="i-lucide-plus" aria-hidden="true" />
            {t('operations.newXiaohongshu')}
          </Link>
          <Link href="/kraken-operation/task/linkedin" className="btn-outline">
            <span className="i-lucide-plus" aria-hidden="true" />
            {t('operations.newLinkedin')}
          </Link>
        </div>
      </header>

      <nav aria-label={t('operations.overview.statusFilter')} className="flex flex-wrap gap-2">
        <button type="button" aria-pressed={filters.status === null} className={filters.status === null ? 'btn-primary' : 'btn-outline'} onClick={() => overview.send({ type: 'filter.status', status: null })}>
          {t('operations.overview.all')} <span className="tabular-nums opacity-80">{allCount}</span>
        </button>
        {TASK_STATUSES.map((status) => (
          <button
            key={status}
            type="button"
            aria-pressed={filters.status === status}
            data-testid={`count-${status}`}
            className={filters.status === status ? 'btn-primary' : 'btn-outline'}
            onClick={() => overview.send({ type: 'filter.status', status })}
          >
            {t(`operations.status.${status}`)} <span className="tabular-nums opacity-80">{counts[status]}</span>
          </button>
        ))}
      </nav>

      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1 text-sm">
          {t('operations.overview.platform')}
          <select
            className="field w-auto min-w-48 max-w-full"
            value={filters.platform ?? ''}
            onChange={(event) => overview.send({ type: 'filter.platform', platform: (event.target.value || null) as Platform | null })}
          >
            <option value="">{t('operations.overview.allPlatforms')}</option>
            {PLATFORMS.map((platform) => (
              <option key={platform} value={platform}>
                {t(`operations.platform.${platform}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex min-w-60 flex-1 flex-col gap-1 text-sm">
          {t('operations.overview.search')}
          <input type="search" className="field" value={typed} placeholder={t('operations.overview.searchPlaceholder')} onChange={(event) => overview.send({ type: 'search.typed', keyword: event.target.value })} />
        </label>
      </div>

      {failed ? (
        <div role="alert" className="rounded-lg border border-danger/40 p-4 text-danger">
          <p>{t('operations.overview.loadFailed')}</p>
          {error && <p className="text-sm opacity-80">{error}</p>}
          <button type="button" className="btn-outline mt-2" onClick={() => overview.send({ type: 'reload' })}>
            {t('errors.reload')}
          </button>
        </div>
      ) : items.length === 0 && !loading ? (
        <p className="rounded-lg border border-dashed border-line p-8 text-center text-muted">
          {filters.status || filters.platform || filters.keyword ? t('operations.overview.noMatch') : t('operations.overview.empty')}
        </p>
      ) : narrow ? (
        <TaskCards items={items} busy={loading} />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-line" aria-busy={loading}>
          <table className="w-full text-start text-sm">
            <thead className="bg-raised text-muted [&_th]:text-start">
              <tr>
                <th scope="col" className="px-3 py-2">{t('operations.overview.columns.platform')}</th>
                <th scope="col" className="px-3 py-2">{t('operations.overview.columns.title')}</th>
                <th scope="col" className="px-3 py-2">{t('operations.overview.columns.status')}</th>
                <th scope="col" className="px-3 py-2">{t('operations.overview.columns.scheduled')}</th>
                <th scope="col" className="px-3 py-2">{t('operations.overview.columns.updated')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((task) => (
                <tr key={task.id} data-testid="task-row" className="border-t border-line align-top">
                  <td className="px-3 py-2 whitespace-nowrap">
                    <span className={PLATFORM_ICON[task.platform]} aria-hidden="true" /> {t(`operations.platform.${task.platform}`)}
                  </td>
                  <td className="px-3 py-2">
                    <Link href={`/kraken-operation/task/edit/${task.id}`} className="font-medium text-accent hover:underline">
                      {task.title || t('operations.untitled')}
                    </Link>
                    {task.excerpt && <p className="line-clamp-1 text-xs text-muted">{task.excerpt}</p>}
                    {task.status === 'failed' && task.failureReason && <p className="text-xs text-danger">{task.failureReason}</p>}
                  </td>
                  <td className="px-3 py-2">
                    <StatusBadge status={task.status} />
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{task.scheduledAt ? formatDateTime(task.scheduledAt, i18n.language) : '—'}</td>
                  <td className="px-3 py-2 whitespace-nowrap" title={formatDateTime(task.updatedAt, i18n.language)}>
                    {formatRelativeTime(task.updatedAt, i18n.language)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {pages > 1 && (
        <nav aria-label={t('operations.overview.pages')} className="flex items-center justify-center gap-3">
          <button type="button" className="btn-outline" disabled={filters.current <= 1} onClick={() => overview.send({ type: 'page', current: filters.current - 1 })}>
            {t('operations.overview.previous')}
          </button>
          <span className="text-sm text-muted">{t('operations.overview.pageOf', { current: filters.current, pages })}</span>
          <button type="button" className="btn-outline" disabled={filters.current >= pages} onClick={() => overview.send({ type: 'page', current: filters.current + 1 })}>
            {t('operations.overview.next')}
          </button>
        </nav>
      )}
    </section>
  );
};
