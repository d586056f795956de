import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, type SnapshotFrom } from 'xstate';
import type { FileRef } from '../../../src/contract/media';
import { uploadQueueMachine } from '../../../src/machines/upload-queue.machine';
import { uploadMachine, type TransferReport, type UploadProblem } from '../../../src/machines/upload.machine';
import { describeEvents, productionPaths, type ModelEvent } from './production-paths';

/**
 * One file's upload, its paths generated from the machine that ships: the transfer's reports
 * (progress, stored, refused with each status) and the person's retry are the events. Each path is
 * played on the real machine inside the real upload queue (its parent), the transfer driven by hand,
 * and checked against what the product says: nothing over the limit is sent, a failure says why and
 * can be tried again, and a stored file joins the message and leaves the queue.
 */
type Snapshot = SnapshotFrom<typeof uploadMachine>;
const LIMIT = 1000;
const small = new File([new Uint8Array(400)], 'cat.png', { type: 'image/png' });
const large = new File([new Uint8Array(LIMIT + 1)], 'huge.png', { type: 'image/png' });
const stored: FileRef = { fileId: 'f-1', name: 'cat.png', url: '/api/media/file/f-1', kind: 'image', mimeType: 'image/png', size: 400 };

const REPORTS: (TransferReport & ModelEvent)[] = [
  { type: 'transfer.progress', loaded: 100, total: 400 },
  { type: 'transfer.done', file: stored },
  { type: 'transfer.failed', status: 413, message: 'too large' },
  { type: 'transfer.failed', status: 429, message: 'slow down', retryAfterSeconds: 30 },
  { type: 'transfer.failed', status: 500, message: 'broken' },
  { type: 'transfer.failed', message: 'offline' },
];
const EVENTS: ModelEvent[] = [...REPORTS, { type: 'retry' }];

/** The traversal has no parent to tell; the actor played below tells the real queue. */
const traversed = uploadMachine.provide({ actions: { tellParent: () => undefined } });
const serializeState = (state: Snapshot) => `${JSON.stringify(state.value)}${state.context.loaded ? '+progress' : ''}`;
const generated = [small, large].map((file) => ({
  file,
  ...productionPaths(traversed, { events: EVENTS, input: { id: 'upload-1', file, limitBytes: LIMIT }, serializeState }),
}));

/** What the person must see of the file after what last happened: from the product, not the machine. */
type Expected = { state: 'uploading' | 'failed' | 'rejected' | 'done'; problem: UploadProblem | null; loaded: number; transfers: number; attached: boolean };

const EXPECTED_AFTER = (before: Expected, event: ModelEvent & Partial<Record<string, unknown>>): Expected => {
  switch (event.type) {
    case 'transfer.progress':
      return { ...before, loaded: event.loaded as number };
    case 'transfer.done':
      return { ...before, state: 'done', attached: true };
    case 'transfer.failed': {
      const status = event.status as number | undefined;
      const message = event.message as string;
      const problem: UploadProblem =
        status === 413
          ? { kind: 'tooLarge', message }
          : status === 429
            ? { kind: 'rateLimited', message, retryAfterSeconds: event.retryAfterSeconds as number }
            : status === undefined
              ? { kind: 'network', message }
              : { kind: 'refused', message };
      return { ...before, state: 'failed', problem };
    }
    // Trying again sends the file again, from zero.
    case 'retry':
      return { ...before, state: 'uploading', problem: null, loaded: 0, transfers: before.transfers + 1 };
    default:
      throw new Error(`no rule for ${event.type}`);
  }
};

const play = (file: File, events: ModelEvent[]) => {
  const transfers: { report: (event: TransferReport) => void; stopped: boolean }[] = [];
  const transfer = fromCallback<{ type: 'noop' }, { file: File }>(({ sendBack }) => {
    const entry = { report: (event: TransferReport) => sendBack(event), stopped: false };
    transfers.push(entry);
    return () => {
      entry.stopped = true;
    };
  });
  const fileUploaded = vi.fn();
  const queue = createActor(
    uploadQueueMachine.provide({ actors: { upload: uploadMachine.provide({ actors: { transfer } }) }, actions: { fileUploaded: (_, { file: ref }) => fileUploaded(ref) } }),
    { input: { limitBytes: LIMIT, maxFiles: 3 } },
  ).start();
  queue.send({ type: 'files.add', files: [file], attached: 0 });
  const upload = queue.getSnapshot().context.items[0]!.ref;

  const check = (expected: Expected, after: string) => {
    expect(fileUploaded, after).toHaveBeenCalledTimes(expected.attached ? 1 : 0);
    expect(transfers, `${after}: transfers started`).toHaveLength(expected.transfers);
    if (expected.attached) {
      expect(fileUploaded, after).toHaveBeenCalledWith(stored);
      expect(queue.getSnapshot().context.items, `${after}: a stored file leaves the queue`).toEqual([]);
      return;
    }
    const state = upload.getSnapshot();
    expect(state.value, after).toBe(expected.state);
    expect(state.context.problem, after).toEqual(expected.problem);
    expect(state.context.loaded, after).toBe(expected.loaded);
    expect(queue.getSnapshot().context.items.map((item) => item.id), after).toEqual(['upload-1']);
    // only the transfer of the state in force runs
    expect(transfers.filter((entry) => !entry.stopped), after).toHaveLength(expected.state === 'uploading' ? 1 : 0);
  };

  let expected: Expected =
    file.size > LIMIT
      ? { state: 'rejected', problem: { kind: 'tooLarge', message: '' }, loaded: 0, transfers: 0, attached: false }
      : { state: 'uploading', problem: null, loaded: 0, transfers: 1, attached: false };
  check(expected, 'start');
  for (const event of events) {
    if (event.type.startsWith('transfer.')) transfers.at(-1)!.report(event as TransferReport);
    else upload.send(event as never);
    expected = EXPECTED_AFTER(expected, event);
    check(expected, event.type);
  }
  queue.stop();
};

describe('one upload, paths generated from the production machine', () => {
  it('reaches every state of an upload and takes every transition', () => {
    const reached = new Set(generated.flatMap(({ reachedStates }) => [...reachedStates]));
    expect([...reached].sort()).toEqual(Object.keys(uploadMachine.root.states).filter((state) => state !== 'checking').map((state) => JSON.stringify(state)).sort());
    // uploading and failed, each with and without progress shown: 6 reports, or retry. Over the limit: none.
    expect(generated.map(({ transitionCount }) => transitionCount)).toEqual([14, 0]);
  });

  it('never sends a file over the limit', () => {
    play(large, []);
  });

  it.each(generated[0]!.paths.map((path) => [describeEvents(path.events), path] as const))('%s', (_description, path) => {
    play(small, path.events);
  });
});
