import { useSelector } from '@xstate/react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { agentStudioListLogic } from '../../app/studio-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { AgentAvatar } from '../../components/agent-avatar';
import { LoadingStatus } from '../../components/loading-status';
import type { StudioAgentSummary } from '../../contract/studio';
import { formatDateTime } from '../../i18n/format';
import { studioPages, type StudioScope } from '../../machines/agent-studio-list.machine';
import { StandingBadges, VisibilityLabel } from './agent-badges';
import { FailureNote } from './studio-failure';

const AgentRow = ({ agent, showAuthor }: { agent: StudioAgentSummary; showAuthor: boolean }) => {
  const { t, i18n } = useTranslation();
  return (
    <li className="flex items-start gap-3 border-b border-line px-1 py-3 last:border-b-0" data-testid="studio-agent">
      <AgentAvatar src={agent.avatar} name={agent.name} size={44} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <Link href={`/studio/${encodeURIComponent(agent.agentId)}`} className="min-w-0 break-words font-medium text-fg underline-offset-2 hover:underline">
          {agent.name}
        </Link>
        {agent.intro && <p className="m-0 line-clamp-2 break-words text-sm text-muted">{agent.intro}</p>}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <StandingBadges agent={agent} />
          <VisibilityLabel visibility={agent.visibility} />
        </div>
        {agent.approval === 'rejected' && agent.rejectReason && (
          <p className="m-0 break-words text-sm text-danger" data-testid="reject-reason">
            {t('studio.rejectedBecause', { reason: agent.rejectReason })}
          </p>
        )}
        <p className="m-0 text-xs text-muted">
          {showAuthor ? t('studio.changedBy', { when: formatDateTime(agent.updatedAt, i18n.language), name: agent.createByName }) : t('studio.changed', { when: formatDateTime(agent.updatedAt, i18n.language) })}
        </p>
      </div>
    </li>
  );
};

/** The studio's first page: the author's agents, a new one, or one imported from a file. */
export const StudioListScreen = ({ mayListAll }: { mayListAll: boolean }) => {
  const { t } = useTranslation();
  const { toast } = useRuntime();
  const [, navigate] = useLocation();
  const [logic] = useState(() => agentStudioListLogic({ navigate, toast }));
  const list = useScreenActor(logic, { input: { mayListAll } });
  const { agents, total, current, scope, failure, importFailure } = useSelector(list, (state) => state.context);
  const phase = useSelector(list, (state) => (state.matches({ list: 'failed' }) ? 'failed' : state.matches({ list: 'loaded' }) ? 'loaded' : 'loading'));
  const importing = useSelector(list, (state) => state.matches({ import: 'importing' }));
  const file = useRef<HTMLInputElement>(null);
  const pages = studioPages({ total });

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4 sm:p-6" aria-labelledby="studio-title">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 id="studio-title" className="m-0 text-2xl font-semibold">
            {t('studio.title')}
          </h1>
          <p className="m-0 mt-1 text-muted">{t('studio.subtitle')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <input
            ref={file}
            type="file"
            accept=".json,application/json"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="import-input"
            onChange={(event) => {
              const picked = event.target.files?.[0];
              if (picked) list.send({ type: 'import', file: picked });
              event.target.value = '';
            }}
          />
          <button type="button" className="btn-outline" disabled={importing} aria-busy={importing || undefined} title={t('studio.importHint')} onClick={() => file.current?.click()}>
            <span className={importing ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-upload'} aria-hidden="true" />
            {importing ? t('studio.importing') : t('studio.import')}
          </button>
          <Link href="/studio/new" className="btn-primary">
            <span className="i-lucide-plus" aria-hidden="true" />
            {t('studio.newAgent')}
          </Link>
        </div>
      </header>

      {importFailure && <FailureNote failure={importFailure} action="import" />}

      {mayListAll && (
        <div role="radiogroup" aria-label={t('studio.scope.label')} className="flex w-fit gap-1 rounded-lg border border-line p-1">
          {(['mine', 'all'] as StudioScope[]).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={scope === value}
              className={`btn px-3 py-1 ${scope === value ? 'bg-raised font-semibold' : 'text-muted hover:bg-raised'}`}
              onClick={() => list.send({ type: 'scope', scope: value })}
            >
              {t(`studio.scope.${value}`)}
            </button>
          ))}
        </div>
      )}

      {phase === 'loading' && <LoadingStatus>{t('studio.loading')}</LoadingStatus>}
      {phase === 'failed' && failure && (
        <div className="flex flex-col items-start gap-3">
          <FailureNote failure={failure} action="list" />
          <button type="button" className="btn-outline" onClick={() => list.send({ type: 'retry' })}>
            {t('studio.retry')}
          </button>
        </div>
      )}
      {phase === 'loaded' && agents.length === 0 && (
        <div className="rounded-xl border border-dashed border-line p-6 text-center">
          <p className="m-0 font-medium">{t('studio.empty')}</p>
          <p className="m-0 mt-1 text-sm text-muted">{t('studio.emptyHint')}</p>
        </div>
      )}
      {phase === 'loaded' && agents.length > 0 && (
        <ul aria-label={t(scope === 'all' ? 'studio.scope.all' : 'studio.scope.mine')} className="m-0 list-none rounded-xl border border-line bg-surface px-3 py-0">
          {agents.map((agent) => (
            <AgentRow key={agent.agentId} agent={agent} showAuthor={scope === 'all'} />
          ))}
        </ul>
      )}
      {phase === 'loaded' && pages > 1 && (
        <nav aria-label={t('studio.pages')} className="flex items-center justify-center gap-3">
          <button type="button" className="btn-outline" disabled={current <= 1} onClick={() => list.send({ type: 'page', current: current - 1 })}>
            {t('studio.previous')}
          </button>
          <span className="text-sm text-muted">{t('studio.pageOf', { current, pages })}</span>
          <button type="button" className="btn-outline" disabled={current >= pages} onClick={() => list.send({ type: 'page', current: current + 1 })}>
            {t('studio.next')}
          </button>
        </nav>
      )}
    </section>
  );
};
