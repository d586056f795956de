import { assign, fromCallback, sendParent, setup } from 'xstate';
import type { FileRef } from '../contract/media';

/**
 * Why a file is not attached: over the limit (here or at the server), a used-up upload quota
 * (with when to try again, if the server said), refused, or unreachable server.
 */
export type UploadProblem = { kind: 'tooLarge' | 'rateLimited' | 'refused' | 'network'; message: string; retryAfterSeconds?: number };

/** What a transfer reports while it runs. */
export type TransferReport =
  | { type: 'transfer.progress'; loaded: number; total: number }
  | { type: 'transfer.done'; file: FileRef }
  | { type: 'transfer.failed'; status?: number; message: string; retryAfterSeconds?: number };

export type UploadInput = { id: string; file: File; limitBytes: number };

export type UploadContext = {
  id: string;
  file: File;
  limitBytes: number;
  loaded: number;
  total: number;
  problem: UploadProblem | null;
};

/** Sent to the parent when the file is stored. */
export type UploadDone = { type: 'upload.done'; id: string; file: FileRef };

const problemOf = (report: Extract<TransferReport, { type: 'transfer.failed' }>): UploadProblem => {
  if (report.status === 413) return { kind: 'tooLarge', message: report.message };
  if (report.status === 429) {
    return { kind: 'rateLimited', message: report.message, ...(report.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: report.retryAfterSeconds }) };
  }
  if (report.status === undefined) return { kind: 'network', message: report.message };
  return { kind: 'refused', message: report.message };
};

/**
 * One file on its way to the server: a file over the limit is refused before a byte is sent;
 * otherwise it uploads with progress, and ends stored (the parent hears `upload.done`) or failed
 * with the reason, from where it can be tried again. Stopping the actor stops the transfer.
 */
export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as TransferReport | { type: 'retry' },
    input: {} as UploadInput,
  },
  actors: {
    transfer: fromCallback<{ type: 'noop' }, { file: File }>(() => () => undefined),
  },
  actions: {
    refuseAsTooLarge: assign({ problem: () => ({ kind: 'tooLarge' as const, message: '' }) }),
    startProgress: assign(({ context }) => ({ loaded: 0, total: context.file.size, problem: null })),
    recordProgress: assign((_, params: { loaded: number; total: number }) => ({ loaded: params.loaded, total: params.total })),
    recordProblem: assign((_, params: { problem: UploadProblem }) => ({ problem: params.problem })),
    tellParent: sendParent(({ context }, params: { file: FileRef }) => ({ type: 'upload.done', id: context.id, file: params.file }) satisfies UploadDone),
  },
  guards: {
    isOverLimit: ({ context }) => context.file.size > context.limitBytes,
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({ ...input, loaded: 0, total: input.file.size, problem: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isOverLimit', target: 'rejected', actions: 'refuseAsTooLarge' }, { target: 'uploading' }],
    },
    uploading: {
      entry: 'startProgress',
      invoke: { src: 'transfer', input: ({ context }) => ({ file: context.file }) },
      on: {
        'transfer.progress': { actions: { type: 'recordProgress', params: ({ event }) => event } },
        'transfer.done': { target: 'done', actions: { type: 'tellParent', params: ({ event }) => ({ file: event.file }) } },
        'transfer.failed': { target: 'failed', actions: { type: 'recordProblem', params: ({ event }) => ({ problem: problemOf(event) }) } },
      },
    },
    failed: {
      on: { retry: 'uploading' },
    },
    rejected: {},
    done: { type: 'final' },
  },
});
