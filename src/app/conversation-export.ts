import type { Conversation } from '../contract/conversations';
import type { Message } from '../contract/messages';

export type ExportedFile = { name: string; type: string; text: string };

const fileSize = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/** A file name from the title: letters and digits of any script kept, the rest made dashes. */
export const exportName = (conversation: Pick<Conversation, 'title' | 'conversationId'>, extension: string) => {
  const base = conversation.title.normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${base || conversation.conversationId}.${extension}`;
};

/** What each exported message says of itself: the chosen version, its attachments by name. */
const exportedMessage = (message: Message) => ({
  role: message.role,
  content: message.content,
  status: message.status,
  createdAt: message.createdAt,
  files: message.files.map((file) => ({ name: file.name, type: file.mimeType, size: file.size })),
});

/** The conversation as JSON: the chosen version of each message along the path, in order. */
export const conversationJson = (conversation: Conversation, messages: Message[], exportedAt: string): ExportedFile => ({
  name: exportName(conversation, 'json'),
  type: 'application/json',
  text: `${JSON.stringify(
    {
      conversation: {
        conversationId: conversation.conversationId,
        title: conversation.title,
        source: conversation.source,
        sourceId: conversation.sourceId,
        createdAt: conversation.createdAt,
        updatedAt: conversation.updatedAt,
      },
      exportedAt,
      messages: messages.map(exportedMessage),
    },
    null,
    2,
  )}\n`,
});

/** Labels in the reader's language, given by the caller. */
export type MarkdownLabels = { you: string; assistant: string; attachments: string; untitled: string };

/** The conversation as Markdown: a heading per message, its text as written, attachments listed. */
export const conversationMarkdown = (conversation: Conversation, messages: Message[], labels: MarkdownLabels): ExportedFile => {
  const parts = [`# ${conversation.title || labels.untitled}`, ''];
  for (const message of messages) {
    parts.push(`## ${message.role === 'user' ? labels.you : labels.assistant} · ${message.createdAt}`, '', message.content, '');
    if (message.files.length > 0) {
      parts.push(`${labels.attachments}:`, ...message.files.map((file) => `- ${file.name} (${file.mimeType}, ${fileSize(file.size)})`), '');
    }
  }
  return { name: exportName(conversation, 'md'), type: 'text/markdown', text: parts.join('\n') };
};
