import type { Hono } from 'hono';
import type { Services } from '../deps';
import type { Caller } from '../http/caller';
import { forbidden } from '../http/errors';
import { defineRoute, mayOperate, OPERATIONS_FORBIDDEN, type AppEnv } from '../http/route';
import { actorOf, audit } from '../services/audit';
import { startDrafting } from '../services/tasks-drafting';
import { createTask, deleteTask, getTask, listTasks, transitionTask, updateTask, type Operator } from '../services/tasks';

/** The operator's company scope; the routes' `operator` access rule has already checked the role. */
const operatorOf = (caller: Caller): Operator & { caller: Extract<Caller, { kind: 'user' }> } => {
  if (!mayOperate(caller)) throw forbidden(OPERATIONS_FORBIDDEN);
  return { userId: caller.user.id, companyId: caller.user.companyId!, caller };
};

/**
 * The operations area: the session check and every task call, for operators and admins of a
 * company, each limited to that company's tasks. Every change is written to the audit log.
 */
export function taskRoutes(app: Hono<AppEnv>, services: Services) {
  const { db, clock, publishing } = services;
  const record = (operator: ReturnType<typeof operatorOf>, action: string, taskId: string, details: Record<string, string> = {}) =>
    audit(db, clock.now(), actorOf(operator.caller), action, taskId, details);

  defineRoute(app, services, 'operationsSession', async ({ caller }) => {
    const { caller: signedIn, companyId } = operatorOf(caller);
    const user = signedIn.user;
    return { userId: user.id, nickname: user.nickname || user.username, publishing: await publishing.modesFor(companyId) };
  });
  defineRoute(app, services, 'taskList', ({ input, caller }) => listTasks(db, operatorOf(caller), input));
  defineRoute(app, services, 'taskDetail', ({ input, caller }) => getTask(db, operatorOf(caller), input.id));
  defineRoute(app, services, 'taskCreate', async ({ input, caller }) => {
    const operator = operatorOf(caller);
    const task = await createTask(db, clock, operator, input);
    await record(operator, 'task.create', task.id, { platform: task.platform });
    return task;
  });
  defineRoute(app, services, 'taskUpdate', async ({ input, caller }) => {
    const operator = operatorOf(caller);
    const task = await updateTask(db, clock, operator, input);
    await record(operator, 'task.update', task.id);
    return task;
  });
  defineRoute(app, services, 'taskTransition', async ({ input, caller }) => {
    const operator = operatorOf(caller);
    const task = await transitionTask(db, clock, operator, input);
    await record(operator, `task.${input.action}`, task.id, {
      platform: task.platform,
      ...(input.action === 'schedule' ? { scheduledAt: input.scheduledAt } : {}),
    });
    if (task.status === 'scheduled' && task.scheduledAt && Date.parse(task.scheduledAt) <= clock.now().getTime()) publishing.kick();
    return task;
  });
  defineRoute(app, services, 'taskDelete', async ({ input, caller }) => {
    const operator = operatorOf(caller);
    await deleteTask(db, operator, input.id);
    await record(operator, 'task.delete', input.id);
    return null;
  });
  defineRoute(app, services, 'taskDrafting', ({ input, caller }) => {
    const operator = operatorOf(caller);
    return startDrafting(db, clock, operator.caller, { userId: operator.userId }, input);
  });
}
