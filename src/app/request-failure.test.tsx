import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { initI18n } from '../i18n';
import { ApiError } from '../services/http';
import { httpHooks } from '../services/http-hooks';
import { renderWithRuntime } from '../../tests/spa/harness';

const refuse = (error: ApiError) => act(() => httpHooks().onRequestError!(error));

afterEach(async () => {
  await initI18n('en-US');
});

describe('a refused request, as the person reads it', () => {
  it.each([
    [404, 'Scan id not found', 'This could not be found. It may have been deleted, or the link may be wrong.'],
    [409, 'Conflict on row 7', 'This was changed in the meantime. Reload and try again.'],
    [429, 'Too many questions for identity v:1', 'Too many requests. Please wait a moment and try again.'],
    [500, 'TypeError: cannot read id of undefined', 'Something went wrong on the server. Please try again.'],
    [undefined, '[POST] "/api/x": <no response> Failed to fetch', 'The server could not be reached. Check your connection and try again.'],
  ])('a %s is said in a sentence of the product, never in the server’s words', async (status, serverWords, sentence) => {
    await renderWithRuntime(<p>page</p>, { url: '/chat' });
    await refuse(new ApiError(serverWords, { status, description: serverWords }));
    const shown = await screen.findByText(sentence);
    expect(shown.closest('[data-variant]')).toHaveTextContent('Something went wrong');
    expect(screen.queryByText(serverWords, { exact: false })).toBeNull();
  });

  it('is said in the reader’s language', async () => {
    await renderWithRuntime(<p>page</p>, { url: '/chat' });
    await act(() => initI18n('fr-FR'));
    await refuse(new ApiError('Scan id not found', { status: 404, description: 'Scan id not found' }));
    expect(await screen.findByText('Introuvable. L’élément a peut-être été supprimé, ou le lien est erroné.')).toBeInTheDocument();
    expect(screen.getByText('Une erreur est survenue')).toBeInTheDocument();
  });
});
