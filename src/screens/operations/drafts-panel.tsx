import { useTranslation } from 'react-i18next';
import type { Draft, Platform } from '../../contract/tasks';
import type { DraftingState } from '../../machines/task-editor.machine';
import { describeAgentFailure } from '../../components/describe-failure';
import { BriefForm, DraftCountField } from './brief-form';
import type { Brief } from '../../contract/tasks';

export type DraftingPhase = 'idle' | 'starting' | 'streaming' | 'done' | 'cut' | 'failed';

type DraftsPanelProps = {
  platform: Platform;
  brief: Brief;
  drafts: Draft[];
  chosenDraft: number | null;
  drafting: DraftingState;
  phase: DraftingPhase;
  count: number;
  canGenerate: boolean;
  canRetry: boolean;
  /** The brief, the number of drafts and the choice of one can change (the machine's `briefOpen`). */
  briefOpen: boolean;
  send: (event: { type: 'drafts.generate' } | { type: 'drafts.stop' } | { type: 'drafts.retry' } | { type: 'drafts.pick'; index: number } | { type: 'drafts.count'; count: number } | { type: 'brief.change'; patch: Partial<Brief> }) => void;
};

/** The brief, the writer agent's drafts as they stream in, and the choice of one of them. */
export const DraftsPanel = ({ platform, brief, drafts, chosenDraft, drafting, phase, count, canGenerate, canRetry, briefOpen, send }: DraftsPanelProps) => {
  const { t } = useTranslation();
  const busy = phase === 'starting' || phase === 'streaming';
  const failureText =
    drafting.failure?.kind === 'start'
      ? t('operations.drafts.startFailed', { message: drafting.failure.message })
      : drafting.failure?.kind === 'agent-error'
        ? t('operations.drafts.agentError', { message: describeAgentFailure(t, drafting.failure.message) })
        : drafting.failure?.kind === 'rejected' && drafting.failure.message
          ? t('operations.drafts.rejected', { message: drafting.failure.message })
          : drafting.failure
            ? t('operations.drafts.interrupted')
            : null;

  return (
    <section aria-labelledby="drafts-title" className="flex flex-col gap-3 rounded-xl border border-line p-4">
      <BriefForm brief={brief} disabled={!briefOpen} onChange={(patch) => send({ type: 'brief.change', patch })} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="drafts-title" className="me-auto text-base font-semibold">
          {t('operations.drafts.title')}
        </h2>
        <DraftCountField count={count} disabled={!briefOpen} onChange={(value) => send({ type: 'drafts.count', count: value })} />
        {busy ? (
          <button type="button" className="btn-outline" onClick={() => send({ type: 'drafts.stop' })}>
            <span className="i-lucide-square" aria-hidden="true" />
            {t('operations.drafts.stop')}
          </button>
        ) : (
          <button type="button" className="btn-primary" disabled={!canGenerate} onClick={() => send({ type: 'drafts.generate' })}>
            <span className="i-lucide-sparkles" aria-hidden="true" />
            {t('operations.drafts.generate')}
          </button>
        )}
        {canRetry && !busy && (
          <button type="button" className="btn-outline" onClick={() => send({ type: 'drafts.retry' })}>
            <span className="i-lucide-rotate-ccw" aria-hidden="true" />
            {t('operations.drafts.retry')}
          </button>
        )}
      </div>
      {!brief.topic.trim() && <p className="text-xs text-muted">{t('operations.drafts.needTopic')}</p>}
      {drafting.session && (
        <p className="text-xs text-muted" data-testid="drafting-status" data-phase={phase}>
          {phase === 'streaming' || phase === 'starting'
            ? t('operations.drafts.writing', { agent: drafting.session.agentName })
            : phase === 'done'
              ? t('operations.drafts.written', { agent: drafting.session.agentName, count: drafts.length })
              : phase === 'cut'
                ? t('operations.drafts.cut')
                : ''}
        </p>
      )}
      {failureText && (
        <p role="alert" className="text-sm text-danger">
          {failureText}
        </p>
      )}
      {drafts.length > 0 && (
        <ol className="grid gap-3 md:grid-cols-2" aria-label={t('operations.drafts.list')}>
          {drafts.map((draft, index) => {
            const partial = drafting.lastDraftPartial && index === drafts.length - 1 && (busy || phase === 'cut');
            return (
              <li
                key={index}
                data-testid="draft"
                data-partial={partial || undefined}
                className={`flex flex-col gap-2 rounded-lg border p-3 text-sm ${chosenDraft === index ? 'border-accent ring-1 ring-accent' : 'border-line'}`}
              >
                <div className="flex items-center justify-between gap-2">
                  <span className="font-medium">{t('operations.drafts.number', { number: index + 1 })}</span>
                  {partial && <span className="text-xs text-warn">{busy ? t('operations.drafts.streaming') : t('operations.drafts.unfinished')}</span>}
                </div>
                {platform === 'xiaohongshu' && draft.title && <p className="font-semibold">{draft.title}</p>}
                <p className="max-h-48 overflow-y-auto whitespace-pre-wrap text-muted">{draft.body}</p>
                <button
                  type="button"
                  className="btn-outline self-start"
                  disabled={!briefOpen}
                  aria-label={t('operations.drafts.useNumber', { number: index + 1 })}
                  onClick={() => send({ type: 'drafts.pick', index })}
                >
                  {chosenDraft === index ? t('operations.drafts.chosen') : t('operations.drafts.use')}
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
};
