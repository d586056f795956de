import { useState } from 'react';

/**
 * Which task editor an address shows, as a React key: a task created in an editor moves to its
 * edit address and keeps that editor (so a stream of drafts and what was typed survive the
 * move); any other change of address opens a fresh editor.
 */
export const useEditorIdentity = (taskId: string | undefined, platform: string | undefined) => {
  const [adopted, setAdopted] = useState<{ taskId: string; key: string } | null>(null);
  const key = taskId ? (adopted?.taskId === taskId ? adopted.key : `task-${taskId}`) : `new-${platform}`;
  /** The editor shown under `key` created the task `createdId`: it stays when the address follows. */
  const adopt = (createdId: string) => setAdopted({ taskId: createdId, key });
  return { key, adopt };
};
