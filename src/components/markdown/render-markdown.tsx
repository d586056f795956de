import { render } from '@testing-library/react';
import Markdown from './markdown';

/** Renders `source` as a stream would deliver it, `size` characters at a time, then finished. */
export const renderStreamed = (source: string, size: number, onStep?: (container: HTMLElement) => void) => {
  const view = render(<Markdown source="" streaming />);
  for (let end = size; end < source.length + size; end += size) {
    view.rerender(<Markdown source={source.slice(0, end)} streaming />);
    onStep?.(view.container);
  }
  view.rerender(<Markdown source={source} streaming={false} />);
  return view;
};
