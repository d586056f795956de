import { fromCallback } from 'xstate';
import type { FileRef } from '../contract/media';
import type { TransferReport } from './upload.machine';
import { statusOf } from './error-status';

export type UploadTransport = (
  file: File,
  options: { signal: AbortSignal; onProgress: (loaded: number, total: number) => void },
) => Promise<FileRef>;

const messageOf = (error: unknown): string => {
  if (typeof error === 'object' && error !== null && 'description' in error && typeof error.description === 'string') return error.description;
  return error instanceof Error ? error.message : String(error);
};

const retryAfterOf = (error: unknown): { retryAfterSeconds?: number } =>
  typeof error === 'object' && error !== null && 'retryAfterSeconds' in error && typeof error.retryAfterSeconds === 'number'
    ? { retryAfterSeconds: error.retryAfterSeconds }
    : {};

/** Runs one upload through the transport and reports to the upload machine; stopping it aborts. */
export const createTransferActor = (transport: UploadTransport) =>
  fromCallback<{ type: 'noop' }, { file: File }>(({ input, sendBack }) => {
    const controller = new AbortController();
    // Once stopped, what the transport still reports goes nowhere: XState drops what a stopped
    // callback actor sends back.
    const report = (event: TransferReport) => sendBack(event);
    transport(input.file, {
      signal: controller.signal,
      onProgress: (loaded, total) => report({ type: 'transfer.progress', loaded, total }),
    }).then(
      (file) => report({ type: 'transfer.done', file }),
      (error: unknown) => report({ type: 'transfer.failed', status: statusOf(error), message: messageOf(error), ...retryAfterOf(error) }),
    );
    return () => controller.abort();
  });
