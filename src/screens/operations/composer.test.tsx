import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { Composer } from './composer';

const FAMILY = '👨‍👩‍👧';
const FLAG = '🇫🇷';

const show = (title: string, body = '') =>
  renderWithRuntime(
    <Composer
      platform="xiaohongshu"
      title={title}
      body={body}
      images={[]}
      issues={[]}
      editable
      uploading={false}
      onChange={() => undefined}
      onAddImages={() => undefined}
      onRemoveImage={() => undefined}
      onMoveImage={() => undefined}
    />,
  );

describe('the composer counts characters as a person does', () => {
  it('counts a family emoji, a flag and an accented letter as one each', async () => {
    await show(`${FAMILY}${FLAG}e\u0301`, `${FAMILY} ${FLAG}`);
    expect(screen.getByTestId('title-counter')).toHaveTextContent('3/20');
    expect(screen.getByTestId('body-counter')).toHaveTextContent('3/1000');
  });

  it('lets twenty emoji fill a Xiaohongshu title and marks the twenty-first', async () => {
    const view = await show(FAMILY.repeat(20));
    expect(screen.getByTestId('title-counter')).toHaveTextContent('20/20');
    expect(screen.getByRole('textbox', { name: /title/i })).toHaveAttribute('aria-invalid', 'false');
    view.unmount();
    await show(FAMILY.repeat(21));
    expect(screen.getByTestId('title-counter')).toHaveTextContent('21/20');
  });
});
