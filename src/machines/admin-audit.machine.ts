import { assign, fromPromise, setup } from 'xstate';
import type { AuditEntry } from '../contract/admin';
import type { EndpointInput } from '../contract/endpoints';
import type { Page } from '../contract/paging';
import { failureOf, type AdminFailure } from './admin-console.machine';

export type AdminAuditContext = {
  /** The action searched for ('' for every action) and the page shown. */
  filters: { action: string; current: number };
  /** What is in the action box; applied when the admin submits it. */
  typed: string;
  pageSize: number;
  entries: AuditEntry[];
  total: number;
  failure: AdminFailure | null;
};

export type AdminAuditEvent = { type: 'action.typed'; action: string } | { type: 'filter' } | { type: 'page'; current: number } | { type: 'retry' };

export const AUDIT_PAGE_SIZE = 25;
type AuditRequest = EndpointInput<'adminAuditList'>;

export const auditRequestOf = ({ filters, pageSize }: Pick<AdminAuditContext, 'filters' | 'pageSize'>): AuditRequest => ({
  current: filters.current,
  pageSize,
  ...(filters.action ? { action: filters.action } : {}),
});

export const auditPages = ({ total, pageSize }: Pick<AdminAuditContext, 'total' | 'pageSize'>): number => Math.max(1, Math.ceil(total / pageSize));

/** The audit log, newest first, paged, filtered by action; a new filter starts at page 1. */
export const adminAuditMachine = setup({
  types: { context: {} as AdminAuditContext, events: {} as AdminAuditEvent },
  actors: {
    listAudit: fromPromise<Page<AuditEntry>, AuditRequest>(async () => {
      throw new Error('listAudit is provided where the app starts');
    }),
  },
  actions: {
    setPage: assign((_, params: { page: Page<AuditEntry> }) => ({ entries: params.page.list, total: params.page.total, failure: null })),
    setTyped: assign((_, params: { action: string }) => ({ typed: params.action })),
    applyFilter: assign(({ context }) => ({ filters: { action: context.typed.trim(), current: 1 } })),
    applyPage: assign(({ context }, params: { current: number }) => ({ filters: { ...context.filters, current: params.current } })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: failureOf(params.error) })),
  },
  guards: {
    isPageInRange: ({ context }, params: { current: number }) =>
      params.current >= 1 && params.current <= auditPages(context) && params.current !== context.filters.current,
  },
}).createMachine({
  id: 'adminAudit',
  context: { filters: { action: '', current: 1 }, typed: '', pageSize: AUDIT_PAGE_SIZE, entries: [], total: 0, failure: null },
  on: { 'action.typed': { actions: { type: 'setTyped', params: ({ event }) => event } } },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'listAudit',
        input: ({ context }) => auditRequestOf(context),
        onDone: { target: 'loaded', actions: { type: 'setPage', params: ({ event }) => ({ page: event.output }) } },
        onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loaded: {
      on: {
        filter: { target: 'loading', actions: 'applyFilter' },
        page: { guard: { type: 'isPageInRange', params: ({ event }) => event }, target: 'loading', actions: { type: 'applyPage', params: ({ event }) => event } },
      },
    },
    failed: {
      on: {
        retry: 'loading',
        filter: { target: 'loading', actions: 'applyFilter' },
      },
    },
  },
});
