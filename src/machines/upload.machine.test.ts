import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import type { FileRef } from '../contract/media';
import { uploadQueueMachine } from './upload-queue.machine';
import { uploadMachine, type TransferReport } from './upload.machine';
import { createTransferActor, type UploadTransport } from './upload-transfer.actor';

const fileOf = (name: string, size: number, type = 'image/png') => new File([new Uint8Array(size)], name, { type });
const refOf = (file: File, id = `id-${file.name}`): FileRef => ({
  fileId: id,
  name: file.name,
  url: `/api/media/file/${id}`,
  kind: file.type.startsWith('image/') ? 'image' : 'other',
  mimeType: file.type,
  size: file.size,
});

/** A transfer the test drives by hand: each started transfer's `report` and whether it was stopped. */
const manualTransfers = () => {
  const started: Array<{ file: File; report: (event: TransferReport) => void; stopped: boolean }> = [];
  const transfer = fromCallback<{ type: 'noop' }, { file: File }>(({ input, sendBack }) => {
    const entry = { file: input.file, report: (event: TransferReport) => sendBack(event), stopped: false };
    started.push(entry);
    return () => {
      entry.stopped = true;
    };
  });
  return { started, transfer };
};

const startQueue = (limitBytes = 1000, maxFiles = 3) => {
  const { started, transfer } = manualTransfers();
  const fileUploaded = vi.fn();
  const queue = createActor(
    uploadQueueMachine.provide({
      actors: { upload: uploadMachine.provide({ actors: { transfer } }) },
      actions: { fileUploaded: (_, { file }) => fileUploaded(file) },
    }),
    { input: { limitBytes, maxFiles } },
  ).start();
  const item = (index: number) => queue.getSnapshot().context.items[index]!.ref;
  return { queue, started, fileUploaded, item };
};

describe('one upload', () => {
  it('shows progress, then is stored and leaves the queue for the message', async () => {
    const { queue, started, fileUploaded, item } = startQueue();
    const cat = fileOf('cat.png', 400);
    queue.send({ type: 'files.add', files: [cat], attached: 0 });
    expect(item(0).getSnapshot().value).toBe('uploading');
    started[0]!.report({ type: 'transfer.progress', loaded: 100, total: 400 });
    expect(item(0).getSnapshot().context).toMatchObject({ loaded: 100, total: 400 });

    started[0]!.report({ type: 'transfer.done', file: refOf(cat) });
    expect(fileUploaded).toHaveBeenCalledWith(refOf(cat));
    expect(queue.getSnapshot().context.items).toEqual([]);
  });

  it('refuses a file over the limit without sending it', () => {
    const { queue, started, item } = startQueue(100);
    queue.send({ type: 'files.add', files: [fileOf('huge.png', 101)], attached: 0 });
    expect(item(0).getSnapshot().value).toBe('rejected');
    expect(item(0).getSnapshot().context.problem).toEqual({ kind: 'tooLarge', message: '' });
    expect(started).toHaveLength(0);
  });

  it.each([
    [413, 'The file is too large: the limit is 20 MB.', 'tooLarge'],
    [400, 'Invalid request: the file is empty.', 'refused'],
    [undefined, 'Network error', 'network'],
  ] as const)('names a failure with status %s as %s… and tries again on retry', (status, message, kind) => {
    const { queue, started, item } = startQueue();
    queue.send({ type: 'files.add', files: [fileOf('a.pdf', 10, 'application/pdf')], attached: 0 });
    started[0]!.report({ type: 'transfer.failed', status, message });
    expect(item(0).getSnapshot().value).toBe('failed');
    expect(item(0).getSnapshot().context.problem).toEqual({ kind, message });

    item(0).send({ type: 'retry' });
    expect(item(0).getSnapshot().value).toBe('uploading');
    expect(item(0).getSnapshot().context.problem).toBeNull();
    expect(started).toHaveLength(2);
  });
});

describe('the queue', () => {
  it('uploads several files at once, each on its own', () => {
    const { queue, started, fileUploaded } = startQueue();
    const [a, b] = [fileOf('a.png', 10), fileOf('b.png', 20)];
    queue.send({ type: 'files.add', files: [a, b], attached: 0 });
    expect(started.map((entry) => entry.file.name)).toEqual(['a.png', 'b.png']);
    started[1]!.report({ type: 'transfer.done', file: refOf(b) });
    expect(fileUploaded).toHaveBeenCalledWith(refOf(b));
    expect(queue.getSnapshot().context.items.map((item) => item.id)).toEqual(['upload-1']);
  });

  it('removing a file stops its upload, and it never joins the message', () => {
    const { queue, started, fileUploaded } = startQueue();
    queue.send({ type: 'files.add', files: [fileOf('a.png', 10)], attached: 0 });
    queue.send({ type: 'file.remove', id: 'upload-1' });
    expect(started[0]!.stopped).toBe(true);
    expect(queue.getSnapshot().context.items).toEqual([]);
    started[0]!.report({ type: 'transfer.done', file: refOf(fileOf('a.png', 10)) });
    expect(fileUploaded).not.toHaveBeenCalled();
  });

  it('takes no more files than a message holds, counting those already attached, and says how many were left out', () => {
    const { queue } = startQueue(1000, 3);
    queue.send({ type: 'files.add', files: [fileOf('a.png', 1), fileOf('b.png', 1), fileOf('c.png', 1)], attached: 1 });
    expect(queue.getSnapshot().context.items).toHaveLength(2);
    expect(queue.getSnapshot().context.leftOut).toBe(1);
    queue.send({ type: 'files.add', files: [fileOf('d.png', 1)], attached: 1 });
    expect(queue.getSnapshot().context.items).toHaveLength(2);
    expect(queue.getSnapshot().context.leftOut).toBe(1);
  });

  it('clears every pending upload at once', () => {
    const { queue, started } = startQueue();
    queue.send({ type: 'files.add', files: [fileOf('a.png', 1), fileOf('b.png', 1)], attached: 0 });
    queue.send({ type: 'clear' });
    expect(queue.getSnapshot().context.items).toEqual([]);
    expect(started.every((entry) => entry.stopped)).toBe(true);
  });
});

describe('the transfer actor', () => {
  const runTransfer = (transport: UploadTransport) => {
    const fileUploaded = vi.fn();
    const queue = createActor(
      uploadQueueMachine.provide({
        actors: { upload: uploadMachine.provide({ actors: { transfer: createTransferActor(transport) } }) },
        actions: { fileUploaded: (_, { file }) => fileUploaded(file) },
      }),
      { input: { limitBytes: 100 } },
    ).start();
    queue.send({ type: 'files.add', files: [fileOf('a.png', 10)], attached: 0 });
    return { queue, fileUploaded, item: queue.getSnapshot().context.items[0]!.ref };
  };

  it('reports progress and the stored file', async () => {
    let finish!: () => void;
    const { item, fileUploaded } = runTransfer(async (file, { onProgress }) => {
      onProgress(5, 10);
      await new Promise<void>((resolve) => (finish = resolve));
      return refOf(file);
    });
    expect(item.getSnapshot().context.loaded).toBe(5);
    finish();
    await vi.waitFor(() => expect(fileUploaded).toHaveBeenCalledWith(refOf(fileOf('a.png', 10))));
  });

  it('reports a refusal with its status and message', async () => {
    const { item } = runTransfer(async () => Promise.reject(Object.assign(new Error('x'), { status: 415, description: 'Not allowed' })));
    await waitFor(item, (state) => state.matches('failed'));
    expect(item.getSnapshot().context.problem).toEqual({ kind: 'refused', message: 'Not allowed' });
  });

  it('aborts the transfer when the file is removed', () => {
    let signal: AbortSignal | undefined;
    const { queue } = runTransfer((_file, options) => {
      signal = options.signal;
      return new Promise(() => undefined);
    });
    queue.send({ type: 'file.remove', id: 'upload-1' });
    expect(signal?.aborted).toBe(true);
  });
});
