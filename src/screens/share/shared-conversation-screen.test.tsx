import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { db } from '../../../tests/msw/db';
import { renderWithRuntime } from '../../../tests/spa/harness';
import SharedConversationScreen from './shared-conversation-screen';

const TOKEN = 'T'.repeat(43);
const routes = (
  <Switch>
    <Route path="/share/:token" component={SharedConversationScreen} />
  </Switch>
);

const seedShare = (messages: { role: 'user' | 'assistant'; content: string }[], ownerName?: string) => {
  db.shares.set(TOKEN, {
    owner: 'someone',
    share: { shareId: 's1', token: TOKEN, conversationId: 'c1', title: 'Bread', showOwnerName: Boolean(ownerName), messageCount: messages.length, createdAt: '2026-01-01T00:00:00.000Z' },
    shared: {
      title: 'Bread',
      sharedAt: '2026-01-01T00:00:00.000Z',
      messages: messages.map((message) => ({ ...message, files: [{ name: 'recipe.pdf', mimeType: 'application/pdf', size: 10 }], createdAt: '2026-01-01T00:00:00.000Z' })),
      ...(ownerName ? { ownerName } : {}),
    },
  });
};

describe('a shared conversation', () => {
  it('shows the snapshot read-only, hostile text as text, attachments by name, and asks search engines to stay away', async () => {
    seedShare([
      { role: 'user', content: '<img src=x onerror="window.__pwned=1"> hello' },
      { role: 'assistant', content: '**Knead** it. [click](javascript:alert(1)) <script>window.__pwned=2</script>' },
    ]);
    await renderWithRuntime(routes, { url: `/share/${TOKEN}` });
    expect(await screen.findByRole('heading', { name: 'Bread' })).toBeInTheDocument();
    expect(screen.getByText(/Shared on/)).toBeInTheDocument();
    expect(screen.getByTestId('shared-user')).toHaveTextContent('<img src=x onerror="window.__pwned=1"> hello');
    expect(await screen.findByText('Knead')).toHaveProperty('tagName', 'STRONG');
    const article = screen.getByTestId('shared-conversation');
    expect(article.querySelector('img, script')).toBeNull();
    expect(article.querySelector('a[href^="javascript"]')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    expect(screen.getAllByText('recipe.pdf')).toHaveLength(2);
    expect(document.head.querySelector('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('names the owner only when they chose to', async () => {
    seedShare([{ role: 'user', content: 'Hi' }], 'Ada');
    await renderWithRuntime(routes, { url: `/share/${TOKEN}` });
    expect(await screen.findByText(/Shared by Ada/)).toBeInTheDocument();
  });

  it('says a revoked or unknown link no longer works', async () => {
    await renderWithRuntime(routes, { url: `/share/${TOKEN}` });
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeInTheDocument();
  });
});
