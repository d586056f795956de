import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember, seedModelProvider, seedOrganisation, seedPendingVersion } from '../../../tests/msw/admin-handlers';
import { ok } from '../../../tests/msw/fake-api';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { endpoints } from '../../contract/endpoints';
import { REJECT_REASON_MAX, type AgentVersion } from '../../contract/studio';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

/** The agents as their editors read them: here, only which organisation each belongs to. */
const agentsOf = (companies: Record<string, string | null>) =>
  server.use(
    http.get(endpoints.agentDraft.path, ({ request }) => {
      const agentId = new URL(request.url).searchParams.get('agentId')!;
      return ok('agentDraft', {
        agentId,
        isDraft: false,
        hasDraft: false,
        versionId: null,
        published: false,
        retired: false,
        approval: 'pending',
        pendingVersionId: null,
        rejectReason: null,
        companyId: companies[agentId] ?? null,
        createBy: 'u1',
        createByName: 'Ada',
        updatedAt: '2026-03-01T10:00:00.000Z',
        content: { name: 'x', avatar: '', intro: '', category: null, systemPrompt: '', modelId: null, parameters: {}, starters: {}, translations: {}, allowModelChoice: false, visibility: 'public' },
      });
    }),
  );

const openReviews = async () => {
  const { user } = seedMember({ nickname: 'Root', role: 'admin' });
  const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=reviews', signedInAs: user });
  return view;
};
const stored = (version: AgentVersion) => adminStore().reviews.find((candidate) => candidate.versionId === version.versionId)!;

describe('the approvals panel', () => {
  it('says so when no agent is waiting', async () => {
    await openReviews();
    expect(await screen.findByText('No agent is waiting for approval.')).toBeInTheDocument();
  });

  it('shows what the author wrote, as text, with its model, author and organisation, and approves it', async () => {
    const acme = seedOrganisation('Acme');
    const provider = seedModelProvider({ name: 'Acme AI', models: [{ model: 'gpt-4o', name: 'GPT-4o' }] });
    const helper = seedPendingVersion(
      {
        name: 'Tax helper',
        intro: 'Answers <b>tax</b> questions.',
        systemPrompt: 'You are a tax adviser.\n<img src=x onerror="alert(1)">\nNever ask for passwords.',
        modelId: provider.models[0]!.id,
        starters: { 'en-US': ['How do I file?'], 'de-DE': ['Wie reiche ich ein?'] },
      },
      { createdByName: 'Bea' },
    );
    agentsOf({ [helper.agentId]: acme.id });
    const view = await openReviews();
    const card = await screen.findByTestId('review-card');
    expect(within(card).getByRole('heading', { level: 3, name: 'Tax helper' })).toBeInTheDocument();
    expect(card).toHaveTextContent('By Bea');
    expect(await within(card).findByText(/Organisation: Acme/)).toBeInTheDocument();
    expect(card).toHaveTextContent('Answers <b>tax</b> questions.');
    const prompt = within(card).getByLabelText('System prompt of Tax helper');
    expect(prompt).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect(prompt.querySelector('img')).toBeNull();
    expect(card.querySelector('b')).toBeNull();
    expect(card).toHaveTextContent('GPT-4o');
    expect(card).toHaveTextContent('How do I file?');
    expect(card).toHaveTextContent('Wie reiche ich ein?');
    expect(screen.getByText('1 agent waiting')).toBeInTheDocument();

    await view.user.click(within(card).getByRole('button', { name: 'Approve Tax helper' }));
    expect(await screen.findByText('Tax helper approved: it is on the public market')).toBeInTheDocument();
    expect(await screen.findByText('No agent is waiting for approval.')).toBeInTheDocument();
    expect(stored(helper)).toMatchObject({ status: 'published', live: true, reviewedByName: 'Root' });
  });

  it('refuses a version only with a reason, which its author reads', async () => {
    const writer = seedPendingVersion({ name: 'Writer' });
    agentsOf({});
    const view = await openReviews();
    const card = await screen.findByTestId('review-card');
    expect(card).toHaveTextContent('By Ada · No organisation');
    expect(within(card).getByText('The default model, whichever it is when a question is asked')).toBeInTheDocument();
    await view.user.click(within(card).getByRole('button', { name: 'Reject Writer' }));
    const reason = within(card).getByLabelText('Why it is rejected (its author reads this)');
    expect(reason).toHaveAttribute('maxLength', String(REJECT_REASON_MAX));
    await view.user.click(within(card).getByRole('button', { name: 'Reject' }));
    expect(within(card).getByText('Say why, so the author knows what to change.')).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(stored(writer).status).toBe('pending');

    await view.user.type(reason, '  The prompt copies another product.  ');
    expect(within(card).getByText(`38 of ${REJECT_REASON_MAX} characters`)).toBeInTheDocument();
    await view.user.click(within(card).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Writer rejected: its author will read why')).toBeInTheDocument();
    expect(stored(writer)).toMatchObject({ status: 'rejected', reviewNote: 'The prompt copies another product.' });
  });

  it('says when another admin decided first, and reads the queue again', async () => {
    const first = seedPendingVersion({ name: 'First' });
    seedPendingVersion({ name: 'Second' });
    const view = await openReviews();
    await screen.findAllByTestId('review-card');
    stored(first).status = 'published';
    await view.user.click(screen.getByRole('button', { name: 'Approve First' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The agent was not approved.');
    expect(alert).toHaveTextContent('This version is no longer waiting: another admin decided on it, or its author published a newer one. The list has been read again.');
    await waitFor(() => expect(screen.getAllByTestId('review-card')).toHaveLength(1));
    expect(screen.getByRole('heading', { level: 3, name: 'Second' })).toBeInTheDocument();
  });
});
