import { describe, expect, it } from 'vitest';
import { createActor, setup } from 'xstate';
import type { FileRef } from '../contract/media';
import type { TransferReport } from './upload.machine';
import { createTransferActor, type UploadTransport } from './upload-transfer.actor';

const file = new File([new Uint8Array(10)], 'a.png', { type: 'image/png' });
const stored: FileRef = { fileId: 'f1', name: 'a.png', url: '/api/media/file/f1', kind: 'image', mimeType: 'image/png', size: 10 };

/** The transfer invoked by a parent that keeps every report it receives, as the upload machine would. */
const runTransfer = (transport: UploadTransport) => {
  const reports: TransferReport[] = [];
  const parent = createActor(
    setup({ actors: { transfer: createTransferActor(transport) } }).createMachine({
      initial: 'sending',
      // Kept in every state: a report sent after the transfer was stopped would show here too.
      on: { '*': { actions: ({ event }) => void reports.push(event as TransferReport) } },
      states: {
        sending: { invoke: { src: 'transfer', input: { file } }, on: { stop: 'stopped' } },
        stopped: {},
      },
    }),
  ).start();
  return { reports, stop: () => parent.send({ type: 'stop' }) };
};
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the transfer actor', () => {
  it.each<[string, unknown, Partial<TransferReport>]>([
    ['a refusal with its status, message and wait', Object.assign(new Error('x'), { status: 429, description: 'Too many uploads', retryAfterSeconds: 30 }), { status: 429, message: 'Too many uploads', retryAfterSeconds: 30 }],
    ['an error without a description, by its message', new Error('Network down'), { status: undefined, message: 'Network down' }],
    ['a wait that is not a number, without it', { status: 503, description: 'Busy', retryAfterSeconds: '30' }, { status: 503, message: 'Busy' }],
    ['a description that is not text, as text', { description: 42 }, { status: undefined, message: '[object Object]' }],
    ['something thrown that is not an error, as text', 'offline', { status: undefined, message: 'offline' }],
    ['nothing thrown at all', null, { status: undefined, message: 'null' }],
  ])('reports %s', async (_what, error, expected) => {
    const { reports } = runTransfer(() => Promise.reject(error));
    await settled();
    expect(reports).toEqual([{ type: 'transfer.failed', ...expected }]);
  });

  it('reports progress, then the stored file', async () => {
    const { reports } = runTransfer(async (_file, { onProgress }) => {
      onProgress(4, 10);
      return stored;
    });
    await settled();
    expect(reports).toEqual([
      { type: 'transfer.progress', loaded: 4, total: 10 },
      { type: 'transfer.done', file: stored },
    ]);
  });

  it('aborts when stopped, and reports nothing that arrives after', async () => {
    let signal: AbortSignal | undefined;
    let finish!: (file: FileRef) => void;
    let progress!: (loaded: number, total: number) => void;
    const { reports, stop } = runTransfer((_file, options) => {
      signal = options.signal;
      progress = options.onProgress;
      return new Promise<FileRef>((resolve) => (finish = resolve));
    });
    stop();
    expect(signal?.aborted).toBe(true);
    progress(5, 10);
    finish(stored);
    await settled();
    expect(reports).toEqual([]);
  });
});
