import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { taskEditorLogic } from '../../app/operations-actors';
import { useRuntime } from '../../app/runtime-context';
import { POST_LANGUAGES, type Platform, type PostLanguage } from '../../contract/tasks';
import { formIssues, taskEditorView } from '../../machines/task-editor.machine';
import { Composer } from './composer';
import { DraftsPanel, type DraftingPhase } from './drafts-panel';
import { LeaveGuard } from './leave-guard';
import { LinkedInPreview, XiaohongshuPreview } from './post-previews';
import { usePublishModes } from './publish-modes';
import { PublishPanel } from './publish-panel';
import { useScreenActor } from '../../app/use-screen-actor';

const postLanguageOf = (locale: string): PostLanguage | undefined => POST_LANGUAGES.find((one) => one === locale);

type TaskEditorScreenProps = { taskId: string | null; platform: Platform; onCreated: (taskId: string) => void };

/** Writing one task: brief and drafts on the left, the composer, the live preview and publishing beside it. */
export const TaskEditorScreen = ({ taskId, platform, onCreated }: TaskEditorScreenProps) => {
  const { t, i18n } = useTranslation();
  const { app, toast } = useRuntime();
  const [, navigate] = useLocation();
  const modes = usePublishModes();
  const author = useSelector(app, (state) => state.context.user?.nickname || state.context.user?.username || '');

  const editor = useScreenActor(taskEditorLogic({ navigate, toast, onCreated }), {
    // A new task's posts are written in the interface's language until the operator picks another.
    input: { taskId, platform, language: postLanguageOf(i18n.language) },
  });

  const context = useSelector(editor, (state) => state.context);
  const phase = useSelector(editor, (state) => (state.value as { drafting: DraftingPhase }).drafting);
  const loading = useSelector(editor, (state) => state.matches({ task: 'loading' }) || state.matches({ task: 'choosing' }));
  const loadFailed = useSelector(editor, (state) => state.matches({ task: 'loadFailed' }));
  const notFound = useSelector(editor, (state) => state.matches({ task: 'notFound' }));
  const saving = useSelector(editor, (state) => state.matches({ task: { editing: 'saving' } }));
  const uploading = useSelector(editor, (state) => state.matches({ uploads: 'uploading' }));
  const canSave = useSelector(editor, (state) => state.can({ type: 'save' }));
  const canGenerate = useSelector(editor, (state) => state.can({ type: 'drafts.generate' }));
  const canRetry = useSelector(editor, (state) => state.can({ type: 'drafts.retry' }));
  const unsaved = useSelector(editor, taskEditorView.unsaved);
  const editable = useSelector(editor, taskEditorView.editable);
  const briefOpen = useSelector(editor, taskEditorView.briefOpen);
  const issues = formIssues(context);
  const { form } = context;

  if (notFound) {
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center">
        <h1 className="mb-2 text-xl font-semibold">{t('operations.editor.notFoundTitle')}</h1>
        <p className="mb-4 text-muted">{t('operations.editor.notFound')}</p>
        <Link href="/kraken-operation" className="btn-primary">{t('operations.backToOverview')}</Link>
      </div>
    );
  }
  if (loadFailed) {
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center">
        <p className="mb-2">{t('operations.editor.loadFailed')}</p>
        {context.failure && <p className="mb-4 text-sm text-muted">{context.failure.message}</p>}
        <button type="button" className="btn-primary" onClick={() => editor.send({ type: 'reload' })}>{t('errors.reload')}</button>
      </div>
    );
  }
  if (loading) {
    return <p role="status" className="p-8 text-center text-muted">{t('operations.editor.loading')}</p>;
  }

  const kind = context.platform;
  const heading = taskId ? t(`operations.editor.editHeading.${kind}`) : t(`operations.${kind}`);
  const exportText = kind === 'xiaohongshu' ? [form.title.trim(), form.body].filter(Boolean).join('\n\n') : form.body;

  return (
    <div className="flex flex-col gap-4">
      <LeaveGuard editor={editor} />
      <header className="flex flex-wrap items-center gap-3">
        <Link href="/kraken-operation" className="btn-ghost" aria-label={t('operations.backToOverview')}>
          <span className="i-lucide-arrow-left rtl:-scale-x-100" aria-hidden="true" />
        </Link>
        <h1 className="me-auto text-2xl font-semibold">{heading}</h1>
        {unsaved && <span className="text-xs text-warn" data-testid="unsaved">{t('operations.editor.unsaved')}</span>}
        <button type="button" className="btn-primary" disabled={!canSave} onClick={() => editor.send({ type: 'save' })}>
          <span className={saving ? 'i-lucide-loader-circle animate-spin' : 'i-lucide-save'} aria-hidden="true" />
          {saving ? t('operations.editor.saving') : t('operations.editor.save')}
        </button>
      </header>

      {context.failure && context.failure.kind !== 'load' && (
        <div role="alert" className="flex items-start justify-between gap-3 rounded-lg border border-danger/40 bg-danger/10 p-3 text-sm text-danger">
          <p>
            {t(`operations.editor.failure.${context.failure.kind}`)} {context.failure.message}
          </p>
          <button type="button" className="btn-ghost h-7 px-2 py-0" aria-label={t('operations.editor.dismiss')} onClick={() => editor.send({ type: 'dismissFailure' })}>
            <span className="i-lucide-x" aria-hidden="true" />
          </button>
        </div>
      )}

      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <DraftsPanel
            platform={kind}
            brief={form.brief}
            drafts={form.drafts}
            chosenDraft={form.chosenDraft}
            drafting={context.drafting}
            phase={phase}
            count={context.draftCount}
            canGenerate={canGenerate}
            canRetry={canRetry}
            briefOpen={briefOpen}
            send={(event) => editor.send(event)}
          />
          <Composer
            platform={kind}
            title={form.title}
            body={form.body}
            images={form.images}
            issues={issues}
            editable={editable}
            uploading={uploading}
            onChange={(patch) => editor.send({ type: 'form.change', patch })}
            onAddImages={(files) => editor.send({ type: 'images.add', files })}
            onRemoveImage={(fileId) => editor.send({ type: 'images.remove', fileId })}
            onMoveImage={(fileId, by) => editor.send({ type: 'images.move', fileId, by })}
          />
        </div>
        <aside className="flex flex-col gap-4" aria-label={t('operations.preview.title')}>
          <h2 className="sr-only">{t('operations.preview.title')}</h2>
          {kind === 'xiaohongshu' ? (
            <XiaohongshuPreview title={form.title} body={form.body} images={form.images} author={author} />
          ) : (
            <LinkedInPreview title={form.title} body={form.body} images={form.images} author={author} />
          )}
          <PublishPanel editor={editor} mode={modes[kind]} exportText={exportText} />
        </aside>
      </div>
    </div>
  );
};
