import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PLATFORMS, type Platform } from '../../contract/tasks';
import { TaskEditorScreen } from './task-editor-screen';

/**
 * The three task addresses (new Xiaohongshu, new LinkedIn, edit by id) share one editor. A task
 * created here moves to its edit address without starting over, so a stream of drafts and what
 * was typed survive the move; any other change of address opens a fresh editor.
 */
export const TaskRoute = ({ params }: { params: { id?: string; platform?: string } }) => {
  const { t } = useTranslation();
  const [adopted, setAdopted] = useState<{ taskId: string; key: string } | null>(null);
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
  const key = params.id ? (adopted?.taskId === params.id ? adopted.key : `task-${params.id}`) : `new-${params.platform}`;
  return (
    <TaskEditorScreen
      key={key}
      taskId={params.id ?? null}
      platform={(params.platform as Platform | undefined) ?? 'xiaohongshu'}
      onCreated={(taskId) => {
        setAdopted({ taskId, key });
      }}
    />
  );
};
