import { render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { MessageList } from './message-list';
import type { ChatMessage } from '../machines/chat.machine';

const message = (overrides: Partial<ChatMessage>): ChatMessage => ({
  key: 'm1',
  serverId: 'm1',
  role: 'assistant',
  content: 'Bonjour',
  status: 'complete',
  files: [],
  error: null,
  siblingIds: ['m1'],
  sentAt: '2026-03-05T14:07:00.000Z',
  ...overrides,
});

afterAll(async () => {
  await initI18n('en-US');
});

describe('message times', () => {
  it('show when a message was sent in the reader’s language, the full date as the tooltip', async () => {
    await initI18n('fr-FR');
    const { container } = render(<MessageList messages={[message({})]} canRetry={false} onRetry={() => undefined} />);
    const time = container.querySelector('time')!;
    expect(time).toHaveAttribute('datetime', '2026-03-05T14:07:00.000Z');
    const date = new Date('2026-03-05T14:07:00.000Z');
    expect(time).toHaveTextContent(new Intl.DateTimeFormat('fr-FR', { timeStyle: 'short' }).format(date));
    expect(time.getAttribute('title')).toBe(new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short' }).format(date));
    expect(time.getAttribute('title')).toMatch(/mars 2026/);
    expect(i18n.language).toBe('fr-FR');
  });

  it('are left out for a message not stored yet', async () => {
    await initI18n('en-US');
    render(<MessageList messages={[message({ sentAt: null, serverId: null })]} canRetry={false} onRetry={() => undefined} />);
    expect(screen.queryByRole('time')).toBeNull();
    expect(document.querySelector('time')).toBeNull();
  });
});
