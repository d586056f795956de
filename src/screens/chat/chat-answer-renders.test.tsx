import { screen, within } from '@testing-library/react';
import { createElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import { chatStreamHandler, gate, type StreamStep } from '../../../tests/msw/sse';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from './chat-screen';

// The composer stands for the screen around the answer: it renders whenever the screen does.
const composerRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../components/chat-composer', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../components/chat-composer')>();
  return {
    ...original,
    ChatComposer: (props: Parameters<typeof original.ChatComposer>[0]) => {
      composerRenders.count += 1;
      return createElement(original.ChatComposer, props);
    },
  };
});

describe('an answer being written', () => {
  it('re-renders itself at each delta, not the screen around it', async () => {
    const DELTAS = 8;
    const gates = Array.from({ length: DELTAS }, gate);
    const steps: StreamStep[] = [{ type: 'start', conversationId: 'conv-x', userMessageId: 'u', replyMessageId: 'r' }];
    gates.forEach((each, index) => steps.push({ until: each.promise }, { type: 'delta', messageId: 'r', text: `part ${index + 1}. ` }));
    const ended = gate();
    steps.push({ until: ended.promise }, { type: 'end', messageIds: ['u', 'r'] });
    server.use(chatStreamHandler(steps));
    const view = await renderWithRuntime(<Route path="/chat/*?" component={ChatScreen} />, { url: '/chat' });

    await view.user.type(screen.getByRole('textbox', { name: /Ask anything/ }), 'Go{Enter}');
    gates[0]!.open();
    await expect.poll(() => screen.queryByTestId('answer')?.textContent).toBe('part 1. ');
    // The last change the screen makes of its own once the answer has begun: the new conversation in its history.
    await within(screen.getByRole('navigation', { name: 'Chat history' })).findByRole('link', { name: 'Go' });
    const before = composerRenders.count;
    for (let index = 1; index < DELTAS; index += 1) {
      gates[index]!.open();
      await expect.poll(() => screen.getByTestId('answer').textContent).toContain(`part ${index + 1}. `);
    }
    expect(composerRenders.count - before).toBe(0);

    // The end is a change the screen shows (Send instead of Stop), and the text is all there.
    ended.open();
    await expect.poll(() => screen.queryByRole('button', { name: 'Send' })).not.toBeNull();
    expect(screen.getByTestId('answer').textContent).toBe(Array.from({ length: DELTAS }, (_, index) => `part ${index + 1}. `).join(''));
  });
});
