import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useEditorIdentity } from '../../app/use-editor-identity';
import { PLATFORMS, type Platform } from '../../contract/tasks';
import { TaskEditorScreen } from './task-editor-screen';

/** The three task addresses (new Xiaohongshu, new LinkedIn, edit by id) share one editor. */
export const TaskRoute = ({ params }: { params: { id?: string; platform?: string } }) => {
  const { t } = useTranslation();
  const editor = useEditorIdentity(params.id, params.platform);
  if (!params.id && !PLATFORMS.includes(params.platform as Platform)) {
    return (
      <div role="alert" className="mx-auto max-w-md p-8 text-center">
        <p className="mb-4">{t('operations.editor.notFound')}</p>
        <Link href="/kraken-operation" className="btn-primary">
          {t('operations.backToOverview')}
        </Link>
      </div>
    );
  }
  return (
    <TaskEditorScreen
      key={editor.key}
      taskId={params.id ?? null}
      platform={(params.platform as Platform | undefined) ?? 'xiaohongshu'}
      onCreated={editor.adopt}
    />
  );
};
