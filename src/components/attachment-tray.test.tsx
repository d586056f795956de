import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback } from 'xstate';
import { uploadQueueLogic, useChatAttachments } from '../app/attachment-actors';
import { useChatActor } from '../app/use-chat-actor';
import { endpoints } from '../contract/endpoints';
import { uploadQueueMachine } from '../machines/upload-queue.machine';
import { uploadMachine, type TransferReport } from '../machines/upload.machine';
import { failBody } from '../../tests/msw/handlers';
import { recordRequests, server } from '../../tests/msw/server';
import { renderWithRuntime } from '../../tests/spa/harness';
import { ChatComposer } from './chat-composer';

/** The composer wired as the chat screen wires it: draft and attachments live in the chat machine. */
const Composer = ({ logic = uploadQueueLogic }: { logic?: typeof uploadQueueLogic }) => {
  const chat = useChatActor();
  const attachments = useChatAttachments(chat, logic);
  return (
    <ChatComposer
      value=""
      label="Message"
      onChange={(text) => chat.send({ type: 'draft.change', text })}
      onSend={() => chat.send({ type: 'send' })}
      attachments={attachments}
    />
  );
};

const png = (name = 'cat.png', size = 8) => new File([new Uint8Array(size)], name, { type: 'image/png' });
const pdf = (name = 'notes.pdf') => new File(['%PDF-1.7'], name, { type: 'application/pdf' });

/** Transfers the test drives by hand. */
const manual = () => {
  const started: Array<(event: TransferReport) => void> = [];
  const logic = uploadQueueMachine.provide({
    actors: {
      upload: uploadMachine.provide({
        actors: {
          transfer: fromCallback<{ type: 'noop' }, { file: File }>(({ sendBack }) => {
            started.push(sendBack);
            return () => undefined;
          }),
        },
      }),
    },
  });
  return { started, logic };
};

const attach = (...files: File[]) => fireEvent.change(screen.getByTestId('attach-input'), { target: { files } });
const sendButton = () => screen.getByRole('button', { name: 'Send' });

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:local-preview');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('composer attachments', () => {
  it('previews an image while it uploads, with its progress, and blocks sending until it is stored', async () => {
    const { started, logic } = manual();
    await renderWithRuntime(<Composer logic={logic} />, { url: '/chat' });
    attach(png());
    const item = await screen.findByTestId('attachment');
    expect(within(item).getByTestId('attachment-thumbnail')).toHaveAttribute('src', 'blob:local-preview');
    expect(item).toHaveTextContent('cat.png');

    started[0]!({ type: 'transfer.progress', loaded: 2, total: 8 });
    const bar = await screen.findByRole('progressbar', { name: 'Uploading cat.png: 25%' });
    expect(bar).toHaveAttribute('aria-valuenow', '25');
    expect(sendButton()).toBeDisabled();
    expect(sendButton()).toHaveAttribute('title', 'Wait for the uploads to finish, or remove the ones that failed');
  });

  it('stores the file through the API, shows it with its name and size, and the message may be sent with it alone', async () => {
    const view = await renderWithRuntime(<Composer />, { url: '/chat' });
    attach(pdf());
    await waitFor(() => expect(view.runtime.chat.getSnapshot().context.attachments).toHaveLength(1));
    const item = screen.getByTestId('attachment');
    expect(item).toHaveAttribute('data-state', 'done');
    expect(within(item).queryByTestId('attachment-thumbnail')).toBeNull();
    expect(sendButton()).toBeEnabled();
  });

  it('removes a stored file before sending', async () => {
    const view = await renderWithRuntime(<Composer />, { url: '/chat' });
    attach(png('a.png'));
    await waitFor(() => expect(view.runtime.chat.getSnapshot().context.attachments).toHaveLength(1));
    const name = view.runtime.chat.getSnapshot().context.attachments[0]!.name;
    await view.user.click(screen.getByRole('button', { name: `Remove ${name}` }));
    expect(view.runtime.chat.getSnapshot().context.attachments).toEqual([]);
    expect(screen.queryByTestId('attachment')).toBeNull();
    expect(sendButton()).toBeDisabled();
  });

  it('refuses a file over the limit before sending a byte, says so, and lets it be removed', async () => {
    const uploads = recordRequests(endpoints.upload.path);
    const view = await renderWithRuntime(<Composer />, { url: '/chat' });
    const huge = png('huge.png');
    Object.defineProperty(huge, 'size', { value: 25 * 1024 * 1024 });
    attach(huge);
    expect(await screen.findByRole('alert')).toHaveTextContent('huge.png is too large: the limit is 20 MB.');
    expect(uploads).toHaveLength(0);
    await view.user.click(screen.getByRole('button', { name: 'Remove huge.png' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says why the server refused a file, and tries it again on request", async () => {
    server.use(http.post(endpoints.upload.path, () => HttpResponse.json(failBody('Executables are not accepted'), { status: 415 }), { once: true }));
    const view = await renderWithRuntime(<Composer />, { url: '/chat' });
    attach(pdf('setup.pdf'));
    expect(await screen.findByRole('alert')).toHaveTextContent('setup.pdf was refused: Executables are not accepted');
    expect(screen.getByTestId('attachment')).toHaveAttribute('data-state', 'failed');
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(view.runtime.chat.getSnapshot().context.attachments).toHaveLength(1));
  });

  it('names a file the server found too large in the reader’s language', async () => {
    server.use(http.post(endpoints.upload.path, () => HttpResponse.json(failBody('The file is too large: the limit is 5 MB.'), { status: 413 })));
    await renderWithRuntime(<Composer />, { url: '/chat' });
    attach(png('big.png'));
    expect(await screen.findByRole('alert')).toHaveTextContent('big.png is larger than the server accepts.');
  });

  it('attaches a pasted image', async () => {
    const { started, logic } = manual();
    await renderWithRuntime(<Composer logic={logic} />, { url: '/chat' });
    fireEvent.paste(screen.getByRole('textbox', { name: 'Message' }), { clipboardData: { files: [png('pasted.png')], types: ['Files'] } });
    expect(await screen.findByTestId('attachment')).toHaveTextContent('pasted.png');
    expect(started).toHaveLength(1);
  });

  it('attaches dropped files', async () => {
    const { started, logic } = manual();
    await renderWithRuntime(<Composer logic={logic} />, { url: '/chat' });
    const form = screen.getByRole('textbox', { name: 'Message' }).closest('form')!;
    const dataTransfer = { files: [png('one.png'), pdf('two.pdf')], types: ['Files'] };
    fireEvent.dragOver(form, { dataTransfer });
    expect(screen.getByText('Drop files to attach them')).toBeInTheDocument();
    fireEvent.drop(form, { dataTransfer });
    expect(await screen.findAllByTestId('attachment')).toHaveLength(2);
    expect(screen.queryByText('Drop files to attach them')).toBeNull();
    expect(started).toHaveLength(2);
  });

  it('takes at most nine files for one message and says how many were left out', async () => {
    const { logic } = manual();
    await renderWithRuntime(<Composer logic={logic} />, { url: '/chat' });
    attach(...Array.from({ length: 11 }, (_, index) => png(`p${index}.png`)));
    expect(await screen.findAllByTestId('attachment')).toHaveLength(9);
    expect(screen.getByRole('status')).toHaveTextContent('A message holds at most 9 files; 2 were not added.');
  });
});

describe('attachments on the sent message', () => {
  it('shows images as thumbnails and other files as download links on the question', async () => {
    const { default: ChatScreen } = await import('../screens/chat/chat-screen');
    const view = await renderWithRuntime(<ChatScreen />, { url: '/chat' });
    attach(png('cat.png'), pdf('notes.pdf'));
    await waitFor(() => expect(view.runtime.chat.getSnapshot().context.attachments).toHaveLength(2));
    await view.user.type(screen.getByRole('textbox', { name: /Ask anything/ }), 'What is in these?');
    await view.user.click(sendButton());

    const sent = await screen.findByTestId('message-attachments');
    const [image] = within(sent).getAllByTestId('message-image');
    expect(image!.getAttribute('src')).toMatch(/^\/media\/file-/);
    expect(within(sent).getAllByRole('link')).toHaveLength(2);
    expect(screen.queryByTestId('attachment')).toBeNull();
  });
});
