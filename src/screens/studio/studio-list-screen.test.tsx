import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { seedUser } from '../../../tests/msw/db';
import { seedStudioAgent, studioStore } from '../../../tests/msw/studio-handlers';
import { renderWithRuntime } from '../../../tests/spa/harness';
import StudioArea from './studio-area';

const SHOWN = { timeout: 5000 };
const author = () => seedUser({ nickname: 'Ada', role: 'member', companyId: 'company-acme', companyName: 'Acme' }).user;

const exported = (partial: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 'kraken-agent',
    version: 1,
    agent: { name: 'Imported tutor', intro: 'From elsewhere', category: 'writing', systemPrompt: 'Be kind.', model: null, parameters: { temperature: 0.3 }, starters: {}, translations: {}, allowModelChoice: false, ...partial },
  });

describe('the studio’s list', () => {
  it('sends a visitor to log in, to come back to the studio', async () => {
    const view = await renderWithRuntime(<StudioArea />, { url: '/studio' });
    await waitFor(() => expect(view.url()).toBe(`/login?redirect_url=${encodeURIComponent('/studio')}`));
  });

  it('lists the person’s own agents with where each stands, newest change first', async () => {
    const ada = author();
    const other = seedUser({ role: 'member' }).user;
    seedStudioAgent(other.id, { name: 'Not Ada’s' });
    seedStudioAgent(ada.id, { name: 'Live tutor', visibility: 'organisation' });
    seedStudioAgent(ada.id, { name: 'Draft only' }, { publish: false });
    seedStudioAgent(ada.id, { name: 'Tutor with changes' }, { draftAfter: { intro: 'Newer words' } });
    const waiting = seedStudioAgent(ada.id, { name: 'Public tutor', visibility: 'public' });
    expect(waiting.versions.at(-1)?.status).toBe('pending');
    await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: ada });

    const rows = await screen.findAllByTestId('studio-agent', {}, SHOWN);
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual(['Public tutor', 'Tutor with changes', 'Draft only', 'Live tutor']);
    expect(rows[0]).toHaveTextContent('Not published yet');
    expect(rows[0]).toHaveTextContent('Waiting for approval');
    expect(rows[0]).toHaveTextContent('Public market');
    expect(rows[1]).toHaveTextContent('Published');
    expect(rows[1]).toHaveTextContent('Unpublished changes');
    expect(rows[1]).toHaveTextContent('Newer words');
    expect(rows[2]).toHaveTextContent('Not published yet');
    expect(rows[2]).not.toHaveTextContent('Unpublished changes');
    expect(rows[3]).toHaveTextContent('My organisation');
    expect(within(rows[3]!).getByRole('link')).toHaveAttribute('href', `/studio/${[...studioStore().agents.values()].find((agent) => agent.createBy === ada.id)!.agentId}`);
    expect(screen.queryByText('Not Ada’s')).not.toBeInTheDocument();
  });

  it('shows an admin’s refusal with its reason, as text', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Public tutor', visibility: 'public' });
    Object.assign(agent.versions.at(-1)!, { status: 'rejected', reviewNote: '<b>Too vague</b>' });
    await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: ada });
    expect(await screen.findByTestId('reject-reason', {}, SHOWN)).toHaveTextContent('An admin refused the last version: <b>Too vague</b>');
    expect(screen.getByTestId('studio-agent')).toHaveTextContent('Refused');
  });

  it('says there are none yet, and offers a new agent', async () => {
    const view = await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: author() });
    expect(await screen.findByText('You have no agents yet.', {}, SHOWN)).toBeInTheDocument();
    await view.user.click(screen.getByRole('link', { name: 'New agent' }));
    expect(view.url()).toBe('/studio/new');
    expect(await screen.findByRole('heading', { level: 1, name: 'New agent' }, SHOWN)).toBeInTheDocument();
  });

  it('lets an admin list everyone’s agents, with who made each', async () => {
    const admin = seedUser({ nickname: 'Root', role: 'admin' }).user;
    const ada = author();
    seedStudioAgent(ada.id, { name: 'Ada’s tutor' });
    const view = await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: admin });
    expect(await screen.findByText('You have no agents yet.', {}, SHOWN)).toBeInTheDocument();
    await view.user.click(screen.getByRole('radio', { name: 'All agents' }));
    const row = await screen.findByTestId('studio-agent', {}, SHOWN);
    expect(row).toHaveTextContent('Ada’s tutor');
    expect(row).toHaveTextContent('by Ada');
  });

  it('imports an exported agent as a private draft and opens it', async () => {
    const ada = author();
    const view = await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: ada });
    await screen.findByText('You have no agents yet.', {}, SHOWN);
    await view.user.upload(screen.getByTestId('import-input'), new File([exported()], 'tutor.json', { type: 'application/json' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Imported tutor' }, SHOWN)).toBeInTheDocument();
    const [imported] = [...studioStore().agents.values()];
    expect(imported).toMatchObject({ createBy: ada.id, liveVersionId: null, draft: { content: { visibility: 'private', parameters: { temperature: 0.3 } } } });
    expect(view.url()).toBe(`/studio/${imported!.agentId}`);
    expect(await screen.findByText('Agent imported as a private draft', {}, SHOWN)).toBeInTheDocument();
  });

  it('says a file that is not JSON, or not an agent, was not imported', async () => {
    const view = await renderWithRuntime(<StudioArea />, { url: '/studio', signedInAs: author() });
    await screen.findByText('You have no agents yet.', {}, SHOWN);
    await view.user.upload(screen.getByTestId('import-input'), new File(['not json'], 'notes.json', { type: 'application/json' }));
    const alert = await screen.findByTestId('failure-import', {}, SHOWN);
    expect(alert).toHaveTextContent('The agent was not imported.');
    expect(alert).toHaveTextContent('This file is not JSON: choose a file exported from the studio.');
    await view.user.upload(screen.getByTestId('import-input'), new File([exported({ secret: 'x' })], 'agent.json', { type: 'application/json' }));
    await waitFor(() => expect(screen.getByTestId('failure-import')).toHaveTextContent('This file is not an agent exported from the studio, or it was changed since.'));
    expect(studioStore().agents.size).toBe(0);
    expect(view.url()).toBe('/studio');
  });
});
