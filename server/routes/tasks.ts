import type { Hono } from 'hono';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import { ownerOf } from '../http/caller';
import { unauthorized } from '../http/errors';
import { defineRoute, type AppEnv } from '../http/route';
import { startDrafting } from '../services/tasks-drafting';
import { createTask, deleteTask, getTask, listTasks, transitionTask, updateTask } from '../services/tasks';

const operator = (caller: Caller) => {
  if (caller.kind !== 'user') throw unauthorized();
  return caller.user;
};

/** The operations area: the session check and every task call, each limited to the operator's own tasks. */
export function taskRoutes(app: Hono<AppEnv>, services: Services) {
  const { db, clock, publishing } = services;
  defineRoute(app, services, 'operationsSession', async ({ caller }) => {
    const user = operator(caller);
    return { userId: user.id, nickname: user.nickname || user.username, publishing: publishing.modes };
  });
  defineRoute(app, services, 'taskList', ({ input, caller }) => listTasks(db, ownerOf(caller), input));
  defineRoute(app, services, 'taskDetail', ({ input, caller }) => getTask(db, ownerOf(caller), input.id));
  defineRoute(app, services, 'taskCreate', ({ input, caller }) => createTask(db, clock, ownerOf(caller), input));
  defineRoute(app, services, 'taskUpdate', ({ input, caller }) => updateTask(db, clock, ownerOf(caller), input));
  defineRoute(app, services, 'taskTransition', async ({ input, caller }) => {
    const task = await transitionTask(db, clock, ownerOf(caller), input);
    if (task.status === 'scheduled' && task.scheduledAt && Date.parse(task.scheduledAt) <= clock.now().getTime()) publishing.kick();
    return task;
  });
  defineRoute(app, services, 'taskDelete', async ({ input, caller }) => {
    await deleteTask(db, ownerOf(caller), input.id);
    return null;
  });
  defineRoute(app, services, 'taskDrafting', ({ input, caller }) => startDrafting(db, clock, caller, ownerOf(caller), input));
}
