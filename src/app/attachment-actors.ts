import { useSelector } from '@xstate/react';
import { useState } from 'react';
import type { ComposerAttachments } from '../components/attachment-tray';
import { uploadQueueMachine } from '../machines/upload-queue.machine';
import { uploadMachine } from '../machines/upload.machine';
import { createTransferActor } from '../machines/upload-transfer.actor';
import { uploadFileWithProgress } from '../services/api/media';
import type { Runtime } from './runtime';
import { useScreenActor } from './use-screen-actor';

/** Real uploads with progress; a test passes its own logic. */
export const uploadQueueLogic = uploadQueueMachine.provide({
  actors: { upload: uploadMachine.provide({ actors: { transfer: createTransferActor(uploadFileWithProgress) } }) },
});

/** Attachments of the chat's next message: uploads run in a queue, stored files join the chat's draft. */
export const useChatAttachments = (chat: Runtime['chat'], logic = uploadQueueLogic): ComposerAttachments => {
  const files = useSelector(chat, (state) => state.context.attachments);
  const [queueLogic] = useState(() =>
    logic.provide({
      actions: {
        fileUploaded: (_, { file }) =>
          chat.send({ type: 'attachments.change', files: [...chat.getSnapshot().context.attachments, file] }),
      },
    }),
  );
  const queue = useScreenActor(queueLogic, { input: {} });
  return {
    files,
    queue,
    onRemoveFile: (fileId) =>
      chat.send({ type: 'attachments.change', files: chat.getSnapshot().context.attachments.filter((file) => file.fileId !== fileId) }),
  };
};
