import { describe, expect, it } from 'vitest';
import type { Conversation } from '../contract/conversations';
import type { Message } from '../contract/messages';
import { conversationJson, conversationMarkdown, exportName } from './conversation-export';

const conversation: Conversation = {
  conversationId: 'c1', source: 'agent', sourceId: 'a1', title: 'Plan / a trip: Kyoto 京都', pinned: false,
  createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z',
};
const messages: Message[] = [
  {
    messageId: 'm1', conversationId: 'c1', role: 'user', content: 'Plan **5 days**', status: 'complete', createdAt: '2026-01-01T00:00:01.000Z',
    files: [{ fileId: 'f1', name: 'map.png', url: '/api/media/file/f1', kind: 'image', mimeType: 'image/png', size: 2048 }],
    siblingIds: ['m1', 'm0'],
  },
  { messageId: 'm2', conversationId: 'c1', role: 'assistant', content: 'Day 1: temples', status: 'complete', createdAt: '2026-01-01T00:00:02.000Z', files: [] },
];
const labels = { you: 'You', assistant: 'Assistant', attachments: 'Attachments', untitled: 'New chat' };

describe('exporting a conversation', () => {
  it('writes Markdown with each message of the chosen path and its attachments by name, type and size', () => {
    const file = conversationMarkdown(conversation, messages, labels);
    expect(file.name).toBe('Plan-a-trip-Kyoto-京都.md');
    expect(file.type).toBe('text/markdown');
    expect(file.text).toContain('# Plan / a trip: Kyoto 京都');
    expect(file.text).toContain('## You · 2026-01-01T00:00:01.000Z\n\nPlan **5 days**');
    expect(file.text).toContain('## Assistant · 2026-01-01T00:00:02.000Z\n\nDay 1: temples');
    expect(file.text).toContain('Attachments:\n- map.png (image/png, 2.0 KB)');
    expect(file.text.indexOf('Plan **5 days**')).toBeLessThan(file.text.indexOf('Day 1'));
  });

  it('writes JSON with the messages in order, attachments listed without their address', () => {
    const file = conversationJson(conversation, messages, '2026-02-01T00:00:00.000Z');
    const parsed = JSON.parse(file.text);
    expect(file.name).toBe('Plan-a-trip-Kyoto-京都.json');
    expect(parsed.conversation).toMatchObject({ conversationId: 'c1', title: 'Plan / a trip: Kyoto 京都', source: 'agent' });
    expect(parsed.exportedAt).toBe('2026-02-01T00:00:00.000Z');
    expect(parsed.messages.map((message: { content: string }) => message.content)).toEqual(['Plan **5 days**', 'Day 1: temples']);
    expect(parsed.messages[0].files).toEqual([{ name: 'map.png', type: 'image/png', size: 2048 }]);
    expect(file.text).not.toContain('/api/media/file/f1');
  });

  it('names a file without a title by the conversation', () => {
    expect(exportName({ title: '///', conversationId: 'c9' }, 'md')).toBe('c9.md');
  });
});
