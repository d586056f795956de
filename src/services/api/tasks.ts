import type { CreateTaskRequest, DraftingRequest, TaskListRequest, TransitionRequest, UpdateTaskRequest } from '../../contract/tasks';
import { call, type CallOptions } from '../http';

export const verifyOperationsSession = (options?: CallOptions) => call('operationsSession', undefined, options);

export const listTasks = (request: TaskListRequest, options?: CallOptions) => call('taskList', request, options);

export const getTask = (id: string, options?: CallOptions) => call('taskDetail', { id }, options);

export const createTask = (request: CreateTaskRequest, options?: CallOptions) => call('taskCreate', request, options);

export const updateTask = (request: UpdateTaskRequest, options?: CallOptions) => call('taskUpdate', request, options);

export const transitionTask = (request: TransitionRequest, options?: CallOptions) => call('taskTransition', request, options);

export const deleteTask = (id: string, options?: CallOptions) => call('taskDelete', { id }, options);

export const startDrafting = (request: DraftingRequest, options?: CallOptions) => call('taskDrafting', request, options);
