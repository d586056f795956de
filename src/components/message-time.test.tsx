import { render, screen } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { MessageList } from './message-list';
import { TOUCH_QUERY } from './use-media-query';
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

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A device as `matchMedia` describes it: a phone's touch screen, or a mouse that hovers. */
const device = (touch: boolean) =>
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: touch && query === TOUCH_QUERY, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));

/** The question and its answer, both stored, as the reader sees them. */
const sentTimes = () => {
  const { container } = render(
    <MessageList
      messages={[message({ key: 'q', serverId: 'q', role: 'user', content: 'Hi', siblingIds: ['q'] }), message({})]}
      canRetry={false}
      onRetry={() => undefined}
    />,
  );
  return [...container.querySelectorAll('time')];
};

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

  it('stay on screen on a touch screen, where nothing hovers: small and muted beside each message, no empty gap', async () => {
    await initI18n('en-US');
    device(true);
    const times = sentTimes();
    expect(times).toHaveLength(2);
    for (const time of times) {
      expect(time).toHaveTextContent(new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(new Date('2026-03-05T14:07:00.000Z')));
      // nothing waits for a hover or a focus a finger never gives
      expect(time.className).not.toMatch(/opacity-0|group-hover/);
      expect(time).toHaveClass('text-xs', 'text-muted');
    }
  });

  it('with a mouse, show when the message is hovered or holds the focus, keeping their place meanwhile', async () => {
    await initI18n('en-US');
    device(false);
    for (const time of sentTimes()) expect(time).toHaveClass('opacity-0', 'group-hover:opacity-100', 'group-focus-within:opacity-100');
  });
});
