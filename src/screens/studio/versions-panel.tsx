import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { LoadingStatus } from '../../components/loading-status';
import type { AgentVersion } from '../../contract/studio';
import { formatDateTime } from '../../i18n/format';
import { VERSIONS_PAGE_SIZE, type agentStudioMachine } from '../../machines/agent-studio.machine';
import { FailureNote } from './studio-failure';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

const STATUS_TONE: Record<AgentVersion['status'], string> = {
  published: 'bg-raised text-muted',
  pending: 'bg-warn/15 text-warn',
  rejected: 'bg-danger/10 text-danger',
  withdrawn: 'bg-raised text-muted',
};

const VersionRow = ({ editor, version }: { editor: Editor; version: AgentVersion }) => {
  const { t, i18n } = useTranslation();
  const restorable = useSelector(editor, (state) => state.can({ type: 'restore', versionId: version.versionId }));
  const when = formatDateTime(version.createdAt, i18n.language);
  return (
    <li className="flex flex-col gap-1 border-b border-line py-2 last:border-b-0" data-testid="agent-version">
      <div className="flex flex-wrap items-center gap-1">
        {version.live && (
          <span data-badge className="inline-flex items-center rounded-full bg-success/15 px-2 py-0.5 text-xs font-medium text-success">
            {t('studio.versions.live')}
          </span>
        )}
        <span data-badge className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_TONE[version.status]}`}>
          {t(`studio.versions.status.${version.status}`)}
        </span>
      </div>
      <p className="m-0 text-sm">{t('studio.versions.made', { when, name: version.createdByName })}</p>
      {version.status === 'rejected' && version.reviewNote && <p className="m-0 break-words text-sm text-danger">{t('studio.versions.reviewNote', { note: version.reviewNote })}</p>}
      {restorable && (
        <button
          type="button"
          className="btn-outline self-start px-2 py-1 text-xs"
          aria-label={t('studio.versions.restoreLabel', { when })}
          onClick={() => editor.send({ type: 'restore', versionId: version.versionId })}
        >
          <span className="i-lucide-history" aria-hidden="true" />
          {t('studio.versions.restore')}
        </button>
      )}
    </li>
  );
};

/** The agent's versions, newest first: when, by whom, in what state; any of them restored into the draft. */
export const VersionsPanel = ({ editor }: { editor: Editor }) => {
  const { t } = useTranslation();
  const phase = useSelector(editor, (state) => (state.value as { versions: 'closed' | 'loading' | 'shown' | 'failed' }).versions);
  const canOpen = useSelector(editor, (state) => state.can({ type: 'versions.open' }));
  const { list, total, current } = useSelector(editor, (state) => state.context.versions);
  const failure = useSelector(editor, (state) => state.context.versionsFailure);
  const restoreFailure = useSelector(editor, (state) => (state.context.failure?.action === 'restore' ? state.context.failure : null));
  const pages = Math.max(1, Math.ceil(total / VERSIONS_PAGE_SIZE));
  const open = phase !== 'closed';
  return (
    <section aria-labelledby="studio-versions-title" className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4">
      <div className="flex items-center justify-between gap-2">
        <h2 id="studio-versions-title" className="m-0 text-base font-semibold">
          {t('studio.versions.title')}
        </h2>
        <button
          type="button"
          className="btn-ghost px-2 py-1 text-sm"
          aria-expanded={open}
          aria-controls="studio-versions-list"
          disabled={!open && !canOpen}
          onClick={() => editor.send({ type: open ? 'versions.close' : 'versions.open' })}
        >
          {open ? t('studio.versions.hide') : t('studio.versions.show')}
        </button>
      </div>
      {!open && !canOpen && <p className="m-0 text-sm text-muted">{t('studio.versions.saveFirst')}</p>}
      <div id="studio-versions-list">
        {phase === 'loading' && <LoadingStatus className="m-0 text-sm">{t('studio.versions.loading')}</LoadingStatus>}
        {phase === 'failed' && failure && (
          <div className="flex flex-col items-start gap-2">
            <FailureNote failure={failure} action="versions" />
            <button type="button" className="btn-outline px-2 py-1 text-sm" onClick={() => editor.send({ type: 'retry' })}>
              {t('studio.retry')}
            </button>
          </div>
        )}
        {phase === 'shown' && list.length === 0 && <p className="m-0 text-sm text-muted">{t('studio.versions.empty')}</p>}
        {phase === 'shown' && list.length > 0 && (
          <ul className="m-0 list-none p-0" aria-label={t('studio.versions.title')}>
            {list.map((version) => (
              <VersionRow key={version.versionId} editor={editor} version={version} />
            ))}
          </ul>
        )}
        {phase === 'shown' && pages > 1 && (
          <nav aria-label={t('studio.versions.pages')} className="flex items-center justify-between gap-2 pt-2">
            <button type="button" className="btn-outline px-2 py-1 text-xs" disabled={current <= 1} onClick={() => editor.send({ type: 'versions.page', current: current - 1 })}>
              {t('studio.previous')}
            </button>
            <span className="text-xs text-muted">{t('studio.pageOf', { current, pages })}</span>
            <button type="button" className="btn-outline px-2 py-1 text-xs" disabled={current >= pages} onClick={() => editor.send({ type: 'versions.page', current: current + 1 })}>
              {t('studio.next')}
            </button>
          </nav>
        )}
      </div>
      {restoreFailure && <FailureNote failure={restoreFailure} action="restore" />}
    </section>
  );
};
