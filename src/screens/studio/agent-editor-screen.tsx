import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useRuntime } from '../../app/runtime-context';
import { agentStudioLogic } from '../../app/studio-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { BusyButton } from '../../components/busy-button';
import { LoadingStatus } from '../../components/loading-status';
import { SubmitForm } from '../../components/submit-form';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../../contract/media';
import { mayAdminister } from '../../contract/roles';
import { formatDateTime } from '../../i18n/format';
import { FIELD_OF_REASON, type StudioFailure } from '../../machines/agent-studio-form';
import { agentStudioView, type AgentStanding, type agentStudioMachine } from '../../machines/agent-studio.machine';
import type { ActorRefFrom } from 'xstate';
import { StandingBadges } from './agent-badges';
import { IdentitySection } from './identity-section';
import { StartersSection, TranslationsSection } from './languages-section';
import { InstructionsSection, ModelSection } from './model-section';
import { ConfirmDialogs, LeaveGuard } from './studio-dialogs';
import { FailureNote } from './studio-failure';
import { VersionsPanel } from './versions-panel';
import { VisibilitySection } from './visibility-section';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

const BackLink = () => {
  const { t } = useTranslation();
  return (
    <Link href="/studio" className="btn-ghost shrink-0 px-2" aria-label={t('studio.editor.back')}>
      <span className="i-lucide-arrow-left rtl:-scale-x-100" aria-hidden="true" />
    </Link>
  );
};

/** Where the agent stands: live or not, a draft beside it, an approval waiting or refused, its last change. */
const StandingCard = ({ agent, isAdmin }: { agent: AgentStanding | null; isAdmin: boolean }) => {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="studio-standing-title" className="flex flex-col gap-2 rounded-xl border border-line bg-surface p-4" data-testid="agent-standing">
      <h2 id="studio-standing-title" className="m-0 text-base font-semibold">
        {t('studio.standing.title')}
      </h2>
      {agent === null ? (
        <p className="m-0 text-sm text-muted">{t('studio.standing.notSaved')}</p>
      ) : (
        <>
          <StandingBadges agent={agent} />
          <p className="m-0 text-sm">
            {agent.retired ? t('studio.standing.retired') : agent.published ? t('studio.standing.live') : t('studio.standing.neverPublished')}
          </p>
          {!agent.retired && agent.published && agent.hasDraft && <p className="m-0 text-sm">{t('studio.standing.draftBeside')}</p>}
          {agent.approval === 'pending' && <p className="m-0 text-sm text-warn">{t('studio.standing.pending')}</p>}
          {agent.approval === 'rejected' && (
            <p className="m-0 break-words text-sm text-danger" data-testid="reject-reason">
              {agent.rejectReason ? t('studio.rejectedBecause', { reason: agent.rejectReason }) : t('studio.standing.rejected')}
            </p>
          )}
          <p className="m-0 text-xs text-muted">{t('studio.changed', { when: formatDateTime(agent.updatedAt, i18n.language) })}</p>
          {isAdmin && <p className="m-0 text-xs text-muted">{t('studio.standing.author', { name: agent.createByName || '—' })}</p>}
        </>
      )}
    </section>
  );
};

/** Export and retire: what is done with the agent as a whole. */
const AgentActions = ({ editor }: { editor: Editor }) => {
  const { t } = useTranslation();
  const canExport = useSelector(editor, (state) => state.can({ type: 'export' }));
  const canRetire = useSelector(editor, (state) => state.can({ type: 'retire' }));
  const exporting = useSelector(editor, (state) => state.matches({ export: 'exporting' }));
  const retiring = useSelector(editor, (state) => state.matches({ agent: { editing: 'retiring' } }));
  const retired = useSelector(editor, (state) => state.matches({ agent: 'retired' }));
  const failure = useSelector(editor, (state) => state.context.failure);
  return (
    <section aria-labelledby="studio-actions-title" className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-4">
      <h2 id="studio-actions-title" className="sr-only">
        {t('studio.editor.moreActions')}
      </h2>
      <div className="flex flex-col gap-1">
        <BusyButton
          className="btn-outline self-start"
          disabled={!canExport || exporting}
          busy={exporting}
          icon="i-lucide-download"
          label={t('studio.editor.export')}
          busyLabel={t('studio.editor.exporting')}
          aria-describedby="studio-export-hint"
          onClick={() => editor.send({ type: 'export' })}
        />
        <p id="studio-export-hint" className="m-0 text-xs text-muted">
          {canExport || exporting ? t('studio.editor.exportHint') : t('studio.editor.saveFirst')}
        </p>
        {failure?.action === 'export' && <FailureNote failure={failure} action="export" />}
      </div>
      {!retired && (
        <div className="flex flex-col gap-1 border-t border-line pt-3">
          <BusyButton
            className="btn-outline self-start text-danger"
            disabled={!canRetire || retiring}
            busy={retiring}
            icon="i-lucide-archive"
            label={t('studio.editor.retire')}
            busyLabel={t('studio.editor.retiring')}
            aria-describedby="studio-retire-hint"
            onClick={() => editor.send({ type: 'retire' })}
          />
          <p id="studio-retire-hint" className="m-0 text-xs text-muted">
            {t('studio.editor.retireHint')}
          </p>
          {failure?.action === 'retire' && <FailureNote failure={failure} action="retire" />}
        </div>
      )}
    </section>
  );
};

/** Save draft, Try it and Publish, with what publishing will do and anything refused. */
const ActionBar = ({ editor }: { editor: Editor }) => {
  const { t } = useTranslation();
  const canSave = useSelector(editor, (state) => state.can({ type: 'save' }));
  const canPublish = useSelector(editor, (state) => state.can({ type: 'publish' }));
  const canPreview = useSelector(editor, (state) => state.can({ type: 'preview' }));
  const busy = useSelector(editor, agentStudioView.busy);
  const unsaved = useSelector(editor, agentStudioView.unsaved);
  const awaitsApproval = useSelector(editor, agentStudioView.awaitsApproval);
  const failure = useSelector(editor, (state) => state.context.failure);
  const shownHere = failure && ['save', 'publish', 'preview'].includes(failure.action) && !(failure.reason && FIELD_OF_REASON[failure.reason]) ? failure : null;
  const blocked = busy !== null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <BusyButton type="submit" className="btn-outline" disabled={!canSave || blocked} busy={busy === 'save'} icon="i-lucide-save" label={t('studio.editor.save')} busyLabel={t('studio.editor.saving')} />
        <BusyButton
          className="btn-outline"
          disabled={!canPreview || blocked}
          busy={busy === 'preview'}
          icon="i-lucide-message-square-text"
          label={t('studio.editor.preview')}
          busyLabel={t('studio.editor.previewing')}
          aria-describedby="studio-preview-hint"
          onClick={() => editor.send({ type: 'preview' })}
        />
        <BusyButton
          className="btn-primary"
          disabled={!canPublish || blocked}
          busy={busy === 'publish'}
          icon={awaitsApproval ? 'i-lucide-send' : 'i-lucide-rocket'}
          label={awaitsApproval ? t('studio.editor.publishForApproval') : t('studio.editor.publish')}
          busyLabel={t('studio.editor.publishing')}
          aria-describedby="studio-publish-hint"
          onClick={() => editor.send({ type: 'publish' })}
        />
        {unsaved && (
          <span className="text-xs text-warn" data-testid="unsaved">
            {t('studio.editor.unsaved')}
          </span>
        )}
      </div>
      <p id="studio-publish-hint" className="m-0 text-xs text-muted">
        {!canPublish && !blocked ? t('studio.editor.nothingToPublish') : awaitsApproval ? t('studio.editor.publishHintApproval') : t('studio.editor.publishHintLive')}
      </p>
      <p id="studio-preview-hint" className="m-0 text-xs text-muted">
        {t('studio.editor.previewHint')}
      </p>
      {shownHere && <FailureNote failure={shownHere} action={shownHere.action} />}
    </div>
  );
};

type AgentEditorScreenProps = { agentId: string | null; onCreated: (agentId: string) => void };

/** One agent in the studio: its content on the left, where it stands, its versions and what is done with it beside. */
export const AgentEditorScreen = ({ agentId, onCreated }: AgentEditorScreenProps) => {
  const { t } = useTranslation();
  const { app, toast } = useRuntime();
  const [, navigate] = useLocation();
  const user = useSelector(app, (state) => state.context.user);
  const [logic] = useState(() => agentStudioLogic({ navigate, toast, onCreated }));
  const editor = useScreenActor(logic, {
    input: { agentId, companyId: user?.companyId ?? null, isAdmin: user !== null && mayAdminister(user), uploadLimitBytes: DEFAULT_UPLOAD_LIMIT_BYTES },
  });
  const phase = useSelector(editor, (state) => (['loading', 'loadFailed', 'notFound', 'retired', 'editing'] as const).find((place) => state.matches({ agent: place })) ?? 'loading');
  const agent = useSelector(editor, (state) => state.context.agent);
  const name = useSelector(editor, (state) => state.context.baseline.name);
  const isAdmin = useSelector(editor, (state) => state.context.isAdmin);
  const loadFailure = useSelector(editor, (state) => state.context.loadFailure);
  const failure = useSelector(editor, (state) => state.context.failure);
  const editable = phase === 'editing';
  const refusalFor = (field: string): StudioFailure | null => (failure?.reason && FIELD_OF_REASON[failure.reason] === field ? failure : null);

  if (phase === 'loading') return <LoadingStatus className="p-8 text-center">{t('studio.editor.loading')}</LoadingStatus>;
  if (phase === 'notFound') {
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center">
        <h1 className="mb-2 text-xl font-semibold">{t('studio.editor.notFoundTitle')}</h1>
        <p className="mb-4 text-muted">{t('studio.editor.notFound')}</p>
        <Link href="/studio" className="btn-primary">
          {t('studio.editor.back')}
        </Link>
      </div>
    );
  }
  if (phase === 'loadFailed') {
    return (
      <div className="mx-auto flex max-w-md flex-col items-center gap-3 p-8 text-center">
        {loadFailure && <FailureNote failure={loadFailure} action="list" />}
        <button type="button" className="btn-primary" onClick={() => editor.send({ type: 'retry' })}>
          {t('studio.retry')}
        </button>
      </div>
    );
  }

  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 p-4 sm:p-6">
      <LeaveGuard editor={editor} />
      <ConfirmDialogs editor={editor} />
      <SubmitForm noValidate aria-labelledby="studio-editor-title" className="flex flex-col gap-4" onSubmit={() => editor.send({ type: 'save' })}>
        <header className="flex flex-col gap-3">
          <div className="flex min-w-0 items-center gap-2">
            <BackLink />
            <h1 id="studio-editor-title" className="m-0 min-w-0 break-words text-2xl font-semibold">
              {agentId === null && agent === null ? t('studio.editor.newTitle') : name || t('studio.editor.untitled')}
            </h1>
          </div>
          {phase === 'retired' ? (
            <p role="status" className="m-0 rounded-lg border border-line bg-raised px-3 py-2 text-sm">
              {t('studio.editor.retiredNotice')}
            </p>
          ) : (
            <ActionBar editor={editor} />
          )}
        </header>
        <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
          <div className="flex min-w-0 flex-col gap-4">
            <IdentitySection editor={editor} editable={editable} refusal={refusalFor('avatar')} />
            <InstructionsSection editor={editor} editable={editable} />
            <ModelSection editor={editor} editable={editable} refusals={{ modelId: refusalFor('modelId'), parameters: refusalFor('parameters') }} />
            <StartersSection editor={editor} editable={editable} />
            <TranslationsSection editor={editor} editable={editable} />
            <VisibilitySection editor={editor} editable={editable} refusal={refusalFor('visibility')} />
          </div>
          <aside className="flex min-w-0 flex-col gap-4" aria-label={t('studio.editor.aside')}>
            <StandingCard agent={agent} isAdmin={isAdmin} />
            <VersionsPanel editor={editor} />
            <AgentActions editor={editor} />
          </aside>
        </div>
      </SubmitForm>
    </div>
  );
};
