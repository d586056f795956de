import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUsageLogic } from '../../app/admin-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { LoadingStatus } from '../../components/loading-status';
import type { Usage } from '../../contract/admin';
import { formatDateTime, formatNumber } from '../../i18n/format';
import { busiestDay, USAGE_WINDOWS, type UsageWindow } from '../../machines/admin-usage.machine';
import { Cell, LoadFailed, Table } from './admin-widgets';

const dayLabel = (day: string, locale: string) => formatDateTime(`${day}T12:00:00.000Z`, locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** Questions per day as bars of plain divs, each named for a screen reader. */
const DayChart = ({ usage }: { usage: Usage }) => {
  const { t, i18n } = useTranslation();
  const top = busiestDay(usage);
  const first = usage.days[0];
  const last = usage.days.at(-1);
  return (
    <figure className="m-0 flex flex-col gap-2 rounded-xl border border-line bg-surface p-4">
      <figcaption className="text-sm font-medium">{t('admin.usage.questionsPerDay')}</figcaption>
      <ol
        className="m-0 flex h-40 list-none items-end gap-px p-0"
        aria-label={first && last ? t('admin.usage.chartLabel', { from: dayLabel(first.day, i18n.language), to: dayLabel(last.day, i18n.language) }) : undefined}
        data-testid="usage-chart"
      >
        {usage.days.map((day) => {
          const label = t('admin.usage.dayBar', {
            day: dayLabel(day.day, i18n.language),
            questions: formatNumber(day.questions, i18n.language),
            tokens: formatNumber(day.tokens, i18n.language),
          });
          return (
            <li key={day.day} className="flex h-full min-w-0 flex-1 items-end" title={label} aria-label={label}>
              <span className="block w-full rounded-t-sm bg-accent" style={{ height: `${(day.questions / top) * 100}%`, minHeight: day.questions > 0 ? 2 : 0 }} />
            </li>
          );
        })}
      </ol>
      {first && last && (
        <div className="flex justify-between text-xs text-muted" aria-hidden="true">
          <span>{dayLabel(first.day, i18n.language)}</span>
          <span>{dayLabel(last.day, i18n.language)}</span>
        </div>
      )}
    </figure>
  );
};

const FiguresTable = ({ label, rows }: { label: string; rows: { id: string; name: string; questions: number; tokens: number }[] }) => {
  const { t, i18n } = useTranslation();
  return (
    <section className="flex min-w-0 flex-1 flex-col gap-2">
      <h3 className="m-0 text-base font-semibold">{label}</h3>
      {rows.length === 0 ? (
        <p className="m-0 text-sm text-muted">{t('admin.usage.empty')}</p>
      ) : (
        <Table label={label} head={[t('admin.usage.name'), t('admin.usage.questions'), t('admin.usage.tokens')]}>
          {rows.map((row) => (
            <tr key={row.id} className="border-t border-line">
              <Cell>
                <span dir="auto">{row.name}</span>
              </Cell>
              <Cell className="tabular-nums">{formatNumber(row.questions, i18n.language)}</Cell>
              <Cell className="tabular-nums">{formatNumber(row.tokens, i18n.language)}</Cell>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
};

/** Questions and tokens over the last days: a bar per day, then per account and per agent. */
export const UsagePanel = () => {
  const { t, i18n } = useTranslation();
  const [logic] = useState(() => adminUsageLogic());
  const actor = useScreenActor(logic);
  const { days, usage, failure } = useSelector(actor, (state) => state.context);
  const loading = useSelector(actor, (state) => state.matches('loading'));
  const failed = useSelector(actor, (state) => state.matches('failed'));
  const total = (key: 'questions' | 'tokens') => formatNumber(usage?.days.reduce((sum, day) => sum + day[key], 0) ?? 0, i18n.language);

  return (
    <div className="flex flex-col gap-4">
      <label className="flex flex-col gap-1 text-sm sm:max-w-60">
        {t('admin.usage.window')}
        <select className="field" value={days} onChange={(event) => actor.send({ type: 'days.pick', days: Number(event.target.value) as UsageWindow })}>
          {USAGE_WINDOWS.map((window) => (
            <option key={window} value={window}>
              {t('admin.usage.lastDays', { days: window })}
            </option>
          ))}
        </select>
      </label>
      {failed ? (
        <LoadFailed failure={failure} onRetry={() => actor.send({ type: 'retry' })} />
      ) : !usage ? (
        <LoadingStatus>{t('admin.usage.loading')}</LoadingStatus>
      ) : (
        <div className="flex flex-col gap-4" aria-busy={loading || undefined}>
          <dl className="m-0 grid grid-cols-2 gap-3">
            <div className="rounded-xl border border-line bg-surface p-4">
              <dt className="text-sm text-muted">{t('admin.usage.questions')}</dt>
              <dd className="m-0 text-2xl font-semibold tabular-nums" data-testid="usage-questions">{total('questions')}</dd>
            </div>
            <div className="rounded-xl border border-line bg-surface p-4">
              <dt className="text-sm text-muted">{t('admin.usage.tokens')}</dt>
              <dd className="m-0 text-2xl font-semibold tabular-nums">{total('tokens')}</dd>
            </div>
          </dl>
          <DayChart usage={usage} />
          <div className="flex flex-col gap-4 lg:flex-row">
            <FiguresTable label={t('admin.usage.perUser')} rows={usage.users.map(({ userId, ...row }) => ({ id: userId, ...row }))} />
            <FiguresTable label={t('admin.usage.perAgent')} rows={usage.agents.map(({ agentId, ...row }) => ({ id: agentId, ...row }))} />
          </div>
        </div>
      )}
    </div>
  );
};
