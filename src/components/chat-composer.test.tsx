import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { switchToEnglish } from '../../tests/spa/harness';
import { MESSAGE_TEXT_MAX } from '../contract/chat';
import { ChatComposer } from './chat-composer';
import { TOUCH_QUERY } from './use-media-query';

/** The composer as a screen holds it: its text lives outside, as the machine's draft. */
const Harness = ({ onSend, onStop, streaming = false, initial = '' }: { onSend: () => void; onStop?: () => void; streaming?: boolean; initial?: string }) => {
  const [value, setValue] = useState(initial);
  return (
    <I18nextProvider i18n={i18n}>
      <ChatComposer value={value} onChange={setValue} onSend={onSend} onStop={onStop} streaming={streaming} label="Message" />
    </I18nextProvider>
  );
};

const setup = (props: Partial<Parameters<typeof Harness>[0]> = {}) => {
  const onSend = vi.fn();
  const onStop = vi.fn();
  render(<Harness onSend={onSend} onStop={onStop} {...props} />);
  return { onSend, onStop, box: screen.getByRole('textbox', { name: 'Message' }), user: userEvent.setup() };
};

describe('ChatComposer', () => {
  beforeAll(switchToEnglish);

  it('sends on Enter', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, 'Hello{Enter}');
    expect(onSend).toHaveBeenCalledTimes(1);
    expect(box).toHaveValue('Hello');
  });

  it('breaks the line on Shift+Enter instead of sending', async () => {
    const { onSend, user, box } = setup();
    await user.type(box, 'Line one{Shift>}{Enter}{/Shift}line two');
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue('Line one\nline two');
  });

  it('does not send on the Enter that picks an input-method candidate (isComposing)', () => {
    const { onSend, box } = setup({ initial: '你好' });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', isComposing: true });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter' });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('does not send on the Enter that picks an input-method candidate (keyCode 229)', () => {
    const { onSend, box } = setup({ initial: 'こんにちは' });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 229 });
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('sends with the button, which is disabled while the box is blank', async () => {
    const { onSend, user, box } = setup();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, '  ');
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.type(box, 'x');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(onSend).toHaveBeenCalledTimes(1);
  });

  it('offers stop instead of send while an answer streams, and Enter does not send', async () => {
    const { onSend, onStop, user, box } = setup({ streaming: true, initial: 'next question' });
    expect(screen.queryByRole('button', { name: 'Send' })).toBeNull();
    await user.type(box, '{Enter}');
    expect(onSend).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Stop generating' }));
    expect(onStop).toHaveBeenCalledTimes(1);
  });

  it('tells keyboards about Enter and Shift+Enter, and says nothing of keys on a touch screen', () => {
    const { box } = setup();
    expect(box).toHaveAttribute('placeholder', 'Ask anything. Enter to send, Shift+Enter for a new line');
    cleanup();
    const touchOnly = (query: string) =>
      ({ matches: query === TOUCH_QUERY, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }) as unknown as MediaQueryList;
    vi.stubGlobal('matchMedia', touchOnly);
    try {
      const { box: onPhone } = setup();
      expect(onPhone.getAttribute('placeholder')).toBe('Ask anything');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  describe('its height', () => {
    /** jsdom lays nothing out: the box's content height is what the test says it is. */
    const contentHeight = (box: HTMLElement, px: () => number) =>
      Object.defineProperty(box, 'scrollHeight', { configurable: true, get: px });

    it('where the browser sizes a field to its text, leaves it to the browser and measures nothing', async () => {
      vi.stubGlobal('CSS', { supports: (property: string, value?: string) => property === 'field-sizing' && value === 'content' });
      try {
        const { box, user } = setup();
        const measured = vi.fn(() => 120);
        contentHeight(box, measured);
        await user.type(box, 'One{Shift>}{Enter}{/Shift}two{Shift>}{Enter}{/Shift}three');
        expect(box.style.height).toBe('');
        expect(measured).not.toHaveBeenCalled();
      } finally {
        vi.unstubAllGlobals();
      }
    });

    it('elsewhere, follows its text up to 240 px, then scrolls, and shrinks back when emptied', async () => {
      vi.stubGlobal('CSS', { supports: () => false });
      try {
        const { box, user } = setup();
        const lines = () => (box as HTMLTextAreaElement).value.split('\n').length;
        contentHeight(box, () => 16 + 24 * lines());
        await user.type(box, 'One{Shift>}{Enter}{/Shift}two{Shift>}{Enter}{/Shift}three');
        expect(box.style.height).toBe('88px');
        await user.type(box, '{Shift>}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{/Shift}end');
        expect(box.style.height).toBe('240px');
        await user.clear(box);
        expect(box.style.height).toBe('40px');
      } finally {
        vi.unstubAllGlobals();
      }
    });
  });
  describe('the length limit (the contract\'s MESSAGE_TEXT_MAX, counted as the server counts)', () => {
    it('shows no counter well below the limit, and one from 90 % of it', () => {
      setup({ initial: 'y'.repeat(Math.floor(MESSAGE_TEXT_MAX * 0.9) - 1) });
      expect(screen.queryByText(/\/ 8,000/)).toBeNull();
      cleanup();
      setup({ initial: 'y'.repeat(7300) });
      expect(screen.getByText('7,300 / 8,000')).toBeInTheDocument();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled();
    });

    it('sends a question of exactly the limit', async () => {
      const { onSend, box, user } = setup({ initial: 'y'.repeat(MESSAGE_TEXT_MAX) });
      await user.type(box, '{Enter}');
      expect(onSend).toHaveBeenCalledTimes(1);
    });

    it('refuses to send past the limit, says by how much in the reader\'s language, and keeps the text', async () => {
      const text = 'y'.repeat(MESSAGE_TEXT_MAX + 22);
      const { onSend, box, user } = setup({ initial: text });
      expect(screen.getByRole('alert')).toHaveTextContent('Over the limit by 22: shorten the message to send it.');
      expect(screen.getByText('8,022 / 8,000')).toBeInTheDocument();
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
      await user.type(box, '{Enter}');
      fireEvent.submit(box.closest('form')!);
      expect(onSend).not.toHaveBeenCalled();
      expect(box).toHaveValue(text);
    });

    it('counts an emoji as the server does (two UTF-16 units), so what it lets go the server takes', () => {
      setup({ initial: '😀'.repeat(MESSAGE_TEXT_MAX / 2 + 1) });
      expect(screen.getByRole('alert')).toHaveTextContent('Over the limit by 2');
      expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    });

    it('speaks Chinese in the Chinese interface', async () => {
      await initI18n('zh-CN');
      try {
        setup({ initial: 'y'.repeat(MESSAGE_TEXT_MAX + 5) });
        expect(screen.getByRole('alert')).toHaveTextContent('超出 5 个字符，删减后才能发送。');
      } finally {
        await switchToEnglish();
      }
    });
  });
});
