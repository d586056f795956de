import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../i18n';
import { COPIED_FOR_MS } from './copy-button';
import Markdown from './markdown';

beforeAll(async () => {
  await initI18n('en-US');
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('Markdown', () => {
  it('renders headings, emphasis, strikethrough, inline code, quotes, rules, breaks and escapes', () => {
    const { container } = render(
      <Markdown source={'# Title\n\n## Sub\n\nSome *em*, **strong**, ~~gone~~ and `a < b`.  \nNext line \\*not em\\* &amp; &copy;\n\n> quoted\n\n---'} />,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Title' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Sub' })).toBeInTheDocument();
    expect(container.querySelector('em')).toHaveTextContent('em');
    expect(container.querySelector('strong')).toHaveTextContent('strong');
    expect(container.querySelector('del')).toHaveTextContent('gone');
    expect(container.querySelector('code')).toHaveTextContent('a < b');
    expect(container.querySelector('br')).not.toBeNull();
    expect(container).toHaveTextContent('Next line *not em* & ©');
    expect(container.querySelector('blockquote')).toHaveTextContent('quoted');
    expect(container.querySelector('hr')).not.toBeNull();
  });

  it('renders a table with each column aligned as written', () => {
    render(<Markdown source={'| Name | Qty | Price |\n|:-----|:---:|------:|\n| Tea | 2 | 3.50 |'} />);
    const table = screen.getByRole('table');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((cell) => cell.textContent)).toEqual(['Name', 'Qty', 'Price']);
    expect(headers.map((cell) => cell.className.match(/text-(left|center|right)/)?.[1])).toEqual(['left', 'center', 'right']);
    const cells = within(table).getAllByRole('cell');
    expect(cells.map((cell) => cell.className.match(/text-(left|center|right)/)?.[1])).toEqual(['left', 'center', 'right']);
    expect(cells[2]).toHaveTextContent('3.50');
  });

  it('renders ordered, unordered and task lists', () => {
    const { container } = render(<Markdown source={'3. three\n4. four\n\n- apple\n- pear\n\n- [x] done\n- [ ] to do'} />);
    const ordered = container.querySelector('ol');
    expect(ordered).toHaveAttribute('start', '3');
    expect(ordered?.querySelectorAll('li')).toHaveLength(2);
    const done = screen.getByRole('checkbox', { name: 'Done' });
    const open = screen.getByRole('checkbox', { name: 'Not done' });
    expect(done).toBeChecked();
    expect(done).toBeDisabled();
    expect(open).not.toBeChecked();
    expect(done.closest('li')).toHaveTextContent('done');
  });

  it('opens kept links in a new tab without giving the page a handle on ours', () => {
    render(<Markdown source={'[docs](https://example.com/docs "The docs") and <https://example.org> and mail <a@b.example>'} />);
    const docs = screen.getByRole('link', { name: 'docs' });
    expect(docs).toHaveAttribute('href', 'https://example.com/docs');
    expect(docs).toHaveAttribute('title', 'The docs');
    for (const link of screen.getAllByRole('link')) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
    expect(screen.getByRole('link', { name: 'a@b.example' })).toHaveAttribute('href', 'mailto:a@b.example');
  });

  it('keeps relative and hash links', () => {
    render(<Markdown source="[help](/help) [top](#top)" />);
    expect(screen.getByRole('link', { name: 'help' })).toHaveAttribute('href', '/help');
    expect(screen.getByRole('link', { name: 'top' })).toHaveAttribute('href', '#top');
  });

  it('does not load an image from another site, nor make it a link: its description and address are plain text', () => {
    const { container } = render(<Markdown source="![A chart](https://evil.example/chart.png?leak=secret)" />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('a')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    const placeholder = container.querySelector('[data-blocked-image]');
    expect(placeholder).toHaveTextContent('A chart');
    expect(placeholder).toHaveTextContent('https://evil.example/chart.png?leak=secret');
    expect(placeholder).toHaveAttribute('title', expect.stringContaining('not loaded'));
  });

  it('asks before following a link to another site, showing its whole address; Cancel stays, Open opens it apart', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    render(<Markdown source={'[your bank](https://evil.example/collect?secret=42) and [help](/help)'} />);
    const outside = screen.getByRole('link', { name: 'your bank' });
    // The host it really goes to is written beside text that does not say it.
    expect(outside.nextSibling).toHaveTextContent('(evil.example)');

    await user.click(outside);
    const dialog = screen.getByRole('dialog', { name: 'Open a link to another site?' });
    expect(dialog).toHaveTextContent('https://evil.example/collect?secret=42');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(open).not.toHaveBeenCalled();

    // A middle click asks too.
    fireEvent(outside, new MouseEvent('auxclick', { bubbles: true, cancelable: true, button: 1 }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Open' }));
    expect(open).toHaveBeenCalledExactlyOnceWith('https://evil.example/collect?secret=42', '_blank', 'noopener,noreferrer');
    expect(screen.queryByRole('dialog')).toBeNull();

    // A link on this site is followed at once.
    const here = screen.getByRole('link', { name: 'help' });
    expect(fireEvent.click(here)).toBe(true);
    expect(here).not.toHaveAttribute('data-outside');
    expect(screen.queryByRole('dialog')).toBeNull();
    open.mockRestore();
  });

  it('shows images from this site and blob: URLs', () => {
    render(<Markdown source={`![logo](/logo.png) ![abs](${location.origin}/a.png) ![pasted](blob:${location.origin}/1234)`} />);
    expect(screen.getByRole('img', { name: 'logo' })).toHaveAttribute('src', `${location.origin}/logo.png`);
    expect(screen.getByRole('img', { name: 'abs' })).toHaveAttribute('src', `${location.origin}/a.png`);
    expect(screen.getByRole('img', { name: 'pasted' })).toHaveAttribute('src', `blob:${location.origin}/1234`);
  });

  it('labels a code block with its language and copies its text, saying so for two seconds', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    vi.useFakeTimers();
    const { container } = render(<Markdown source={'```ts\nconst answer: number = 42;\n```'} />);
    expect(container.querySelector('figcaption')).toHaveTextContent('ts');
    expect(container.querySelector('pre')).toHaveTextContent('const answer: number = 42;');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy code' })));
    expect(writeText).toHaveBeenCalledWith('const answer: number = 42;');
    expect(screen.getByRole('button', { name: 'Copied' })).toHaveTextContent('Copied');

    act(() => vi.advanceTimersByTime(COPIED_FOR_MS));
    expect(screen.getByRole('button', { name: 'Copy code' })).toHaveTextContent('Copy');
  });

  it('says its own words (copy, code, removed links, task boxes) in the reader’s language, and follows a switch', async () => {
    const { container } = render(<Markdown source={'```\nplain\n```\n\n[here](javascript:alert(1))\n\n- [x] done'} />);
    expect(screen.getByRole('button', { name: 'Copy code' })).toHaveTextContent('Copy');
    expect(container.querySelector('figcaption')).toHaveTextContent('Code');
    expect(container.querySelector('[data-blocked-link]')).toHaveAttribute('title', 'Link disabled: its address is not allowed');
    expect(screen.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    try {
      await act(async () => void (await initI18n('fr-FR')));
      expect(screen.getByRole('button', { name: 'Copier le code' })).toHaveTextContent('Copier');
      expect(container.querySelector('figcaption')).toHaveTextContent('Code');
      expect(container.querySelector('[data-blocked-link]')?.getAttribute('title')).not.toBe('Link disabled: its address is not allowed');
      expect(screen.getByRole('checkbox', { name: 'Terminé' })).toBeChecked();
    } finally {
      await act(async () => void (await initI18n('en-US')));
    }
  });

  it('says so when the browser refuses to copy', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    render(<Markdown source={'```\nx\n```'} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy code' })));
    expect(screen.getByRole('button', { name: 'Copy failed' })).toBeInTheDocument();
  });

  it('highlights a finished code block once the highlighter has loaded, without HTML strings', async () => {
    const { container } = render(<Markdown source={'```js\nconst x = "hi"; // note\n```'} />);
    const code = container.querySelector('pre code');
    await waitFor(() => expect(code?.querySelector('span[class*="text-"]')).not.toBeNull());
    expect(code).toHaveTextContent('const x = "hi"; // note');
    expect(code?.querySelector('.italic')).toHaveTextContent('// note');
  });

  it('shows an unfinished fence while streaming as a code block in progress, and plain', () => {
    const { container, rerender } = render(<Markdown source={'Here:\n\n```python\nprint("a")\nprint('} streaming />);
    expect(container.querySelector('figcaption')).toHaveTextContent('python');
    expect(container.querySelector('figcaption')).toHaveTextContent('Writing…');
    expect(container.querySelector('pre')).toHaveTextContent('print("a") print(');
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
    rerender(<Markdown source={'Here:\n\n```python\nprint("a")\nprint("b")\n```'} />);
    expect(screen.getByRole('button', { name: 'Copy code' })).toBeInTheDocument();
  });
});
