import { assertEvent, assign, enqueueActions, setup, stopChild, type ActorRefFrom } from 'xstate';
import { MESSAGE_FILES_MAX } from '../contract/constants';
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../contract/constants';
import type { FileRef } from '../contract/media';
import { uploadMachine, type UploadDone } from './upload.machine';

export type QueuedUpload = { id: string; ref: ActorRefFrom<typeof uploadMachine> };

export type UploadQueueContext = {
  items: QueuedUpload[];
  seq: number;
  /** Files left out of the last pick because a message holds at most `maxFiles`. */
  leftOut: number;
  limitBytes: number;
  maxFiles: number;
};

export type UploadQueueEvent =
  /** `attached`: how many files the message already holds. */
  | { type: 'files.add'; files: File[]; attached: number }
  | { type: 'file.remove'; id: string }
  | { type: 'clear' }
  | UploadDone;

export type UploadQueueInput = { limitBytes?: number; maxFiles?: number };

/**
 * The files being attached to the next message: each uploads on its own (see upload.machine),
 * and as soon as one is stored it leaves the queue through `fileUploaded`, to join the message.
 * What stays here is still uploading, failed or refused, until it finishes or is removed.
 */
export const uploadQueueMachine = setup({
  types: {
    context: {} as UploadQueueContext,
    events: {} as UploadQueueEvent,
    input: {} as UploadQueueInput,
  },
  actors: { upload: uploadMachine },
  actions: {
    /** A file is stored: it belongs to the message now. */
    fileUploaded: (_, _params: { file: FileRef }) => undefined,
    addFiles: assign(({ context, event, spawn }) => {
      assertEvent(event, 'files.add');
      const room = Math.max(0, context.maxFiles - event.attached - context.items.length);
      const taken = event.files.slice(0, room);
      const added = taken.map((file, index): QueuedUpload => {
        const id = `upload-${context.seq + index}`;
        return { id, ref: spawn('upload', { id, input: { id, file, limitBytes: context.limitBytes } }) };
      });
      return { items: [...context.items, ...added], seq: context.seq + taken.length, leftOut: event.files.length - taken.length };
    }),
    stopItem: stopChild((_, params: { id: string }) => params.id),
    dropItem: assign(({ context }, params: { id: string }) => ({ items: context.items.filter((item) => item.id !== params.id) })),
    clearAll: enqueueActions(({ context, enqueue }) => {
      for (const item of context.items) enqueue.stopChild(item.ref);
      enqueue.assign({ items: [], leftOut: 0 });
    }),
  },
}).createMachine({
  id: 'uploadQueue',
  context: ({ input }) => ({
    items: [],
    seq: 1,
    leftOut: 0,
    limitBytes: input.limitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES,
    maxFiles: input.maxFiles ?? MESSAGE_FILES_MAX,
  }),
  on: {
    clear: { actions: 'clearAll' },
    'files.add': { actions: 'addFiles' },
    'file.remove': {
      actions: [
        { type: 'stopItem', params: ({ event }) => ({ id: event.id }) },
        { type: 'dropItem', params: ({ event }) => ({ id: event.id }) },
      ],
    },
    'upload.done': {
      actions: [
        { type: 'fileUploaded', params: ({ event }) => ({ file: event.file }) },
        { type: 'dropItem', params: ({ event }) => ({ id: event.id }) },
      ],
    },
  },
});
