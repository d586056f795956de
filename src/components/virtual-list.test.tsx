import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { VirtualList } from './virtual-list';

const rows = Array.from({ length: 10_000 }, (_, index) => `Chat ${index}`);
const renderList = (onNearEnd = vi.fn()) => {
  render(
    <div>
      <VirtualList rows={rows} rowKey={(row) => row} rowHeight={() => 50} renderRow={(row) => <span>{row}</span>} onNearEnd={onNearEnd} label="Chats" />
    </div>,
  );
  return { list: screen.getByRole('list', { name: 'Chats' }), onNearEnd };
};

describe('VirtualList', () => {
  it('puts only the rows near the view into the page, however long the list', () => {
    const { list } = renderList();
    const items = screen.getAllByRole('listitem');
    expect(items.length).toBeLessThan(50);
    expect(items[0]).toHaveTextContent('Chat 0');
    expect(list).toHaveStyle({ height: '500000px' });
  });

  it('follows the scroll position and asks for more within 100 px of the end', () => {
    const { list, onNearEnd } = renderList();
    const scroller = list.parentElement!;
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 800 });
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 500_000 });

    scroller.scrollTop = 250_000;
    fireEvent.scroll(scroller);
    expect(screen.getByText('Chat 5000')).toBeInTheDocument();
    expect(screen.queryByText('Chat 0')).toBeNull();
    expect(onNearEnd).not.toHaveBeenCalled();

    scroller.scrollTop = 500_000 - 800 - 100;
    fireEvent.scroll(scroller);
    expect(onNearEnd).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Chat 9999')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem').length).toBeLessThan(50);
  });
});
