import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { STUDIO_ERRORS } from '../../contract/studio';
import { db, seedUser } from '../../../tests/msw/db';
import { failBody } from '../../../tests/msw/handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { seedStudioAgent, studioStore } from '../../../tests/msw/studio-handlers';
import { renderWithRuntime } from '../../../tests/spa/harness';
import StudioArea from './studio-area';

const SHOWN = { timeout: 5000 };
const author = (partial: Parameters<typeof seedUser>[0] = {}) =>
  seedUser({ nickname: 'Ada', role: 'member', companyId: 'company-acme', companyName: 'Acme', ...partial }).user;

const open = async (url: string, user = author()) => {
  const view = await renderWithRuntime(
    <Switch>
      <Route path="/studio" component={StudioArea} />
      <Route path="/studio/*" component={StudioArea} />
      <Route path="/chat/:id">{(params) => <p>the chat of {params.id}</p>}</Route>
      <Route>
        <p>elsewhere</p>
      </Route>
    </Switch>,
    { url, signedInAs: user },
  );
  await screen.findByRole('heading', { level: 1 }, SHOWN);
  return { ...view, person: user };
};

const button = (name: string | RegExp) => screen.getByRole('button', { name });
const standing = () => screen.getByTestId('agent-standing');

describe('the agent editor: a new agent', () => {
  it('says what is missing beside the field before asking the server anything', async () => {
    const view = await open('/studio/new');
    const saves = recordRequests(endpoints.agentSave.path);
    await view.user.type(screen.getByLabelText('System prompt'), 'Be kind.');
    await view.user.click(button('Save draft'));
    expect(screen.getByTestId('agent-name-error')).toHaveTextContent('This cannot be empty.');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(saves).toHaveLength(0);
    expect(screen.getByLabelText('System prompt')).toHaveValue('Be kind.');
  });

  it('is saved as a draft, gets its address, and keeps its editor', async () => {
    const view = await open('/studio/new');
    await view.user.type(screen.getByLabelText('Name'), 'Tutor');
    await view.user.type(screen.getByLabelText('Introduction'), 'Explains maths.');
    await view.user.selectOptions(screen.getByLabelText('Category'), 'Languages');
    await view.user.type(screen.getByLabelText('System prompt'), 'You are a patient tutor.');
    expect(screen.getByTestId('agent-system-prompt-count')).toHaveTextContent('24 / 20,000 characters');
    await view.user.selectOptions(screen.getByLabelText('Model'), 'Seeing model');
    expect(screen.getByTestId('model-abilities')).toHaveTextContent('Reads images');
    await view.user.type(screen.getByLabelText('Temperature'), '0.4');
    await view.user.click(screen.getByLabelText('People may choose the model'));
    expect(screen.getByTestId('unsaved')).toBeInTheDocument();
    await view.user.click(button('Save draft'));

    expect(await screen.findByText('Draft saved', {}, SHOWN)).toBeInTheDocument();
    const [saved] = [...studioStore().agents.values()];
    expect(saved!.draft!.content).toMatchObject({
      name: 'Tutor',
      intro: 'Explains maths.',
      category: 'language',
      systemPrompt: 'You are a patient tutor.',
      modelId: 'model-seeing',
      parameters: { temperature: 0.4 },
      allowModelChoice: true,
      visibility: 'private',
    });
    expect(view.url()).toBe(`/studio/${saved!.agentId}`);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Tutor');
    expect(screen.queryByTestId('unsaved')).not.toBeInTheDocument();
    expect(standing()).toHaveTextContent('Not published yet: only you can try it.');
    // The same editor stays: what it was showing is still there, no second load.
    expect(screen.getByLabelText('Temperature')).toHaveValue('0.4');
  });

  it('keeps everything typed when the server refuses, and says why beside the field it is about', async () => {
    const view = await open('/studio/new');
    server.use(
      http.post(endpoints.agentSave.path, () => Response.json({ ...failBody('The avatar must be an image you uploaded.'), reason: STUDIO_ERRORS.avatarRefused }, { status: 400 })),
    );
    await view.user.type(screen.getByLabelText('Name'), 'Tutor');
    await view.user.type(screen.getByLabelText('System prompt'), 'Be kind.');
    await view.user.click(button('Save draft'));
    expect(await screen.findByTestId('avatar-refusal', {}, SHOWN)).toHaveTextContent('This picture cannot be used: upload a picture of your own.');
    expect(screen.queryByText(/must be an image/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveValue('Tutor');
    expect(screen.getByLabelText('System prompt')).toHaveValue('Be kind.');
    expect(view.url()).toBe('/studio/new');
  });

  it('names an organisation only for a person who has one', async () => {
    const view = await open('/studio/new', author({ companyId: undefined, companyName: undefined }));
    const organisation = screen.getByRole('radio', { name: /My organisation/ });
    expect(organisation).toBeDisabled();
    expect(organisation.closest('label')).toHaveTextContent('You belong to no organisation.');
    await view.user.click(screen.getByRole('radio', { name: /Public market/ }));
    expect(screen.getByRole('button', { name: 'Send for approval' })).toBeInTheDocument();
    expect(screen.getByText(/waits for an admin’s approval/)).toBeInTheDocument();
  });
});

describe('the agent editor: publishing', () => {
  it('publishes to the organisation at once: a new version each time, the live one in the market', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor', visibility: 'organisation' }, { publish: false });
    const view = await open(`/studio/${agent.agentId}`, ada);
    await view.user.click(button('Publish'));
    expect(await screen.findByText('Published: people chat with the new version', {}, SHOWN)).toBeInTheDocument();
    const first = agent.liveVersionId;
    expect(first).not.toBeNull();
    expect(db.agents.find((row) => row.agentId === agent.agentId)).toMatchObject({ published: true, versionId: first, visibility: 'organisation' });
    expect(standing()).toHaveTextContent('Published: people chat with its live version.');
    expect(button('Publish')).toBeDisabled();
    expect(screen.getByText('Nothing new to publish: the live version is up to date.')).toBeInTheDocument();

    await view.user.type(screen.getByLabelText('Introduction'), 'Now with words.');
    await view.user.click(button('Publish'));
    await waitFor(() => expect(agent.liveVersionId).not.toBe(first));
    expect(agent.versions.map((version) => version.status)).toEqual(['published', 'published']);
    expect(db.agents.find((row) => row.agentId === agent.agentId)).toMatchObject({ intro: 'Now with words.', versionId: agent.liveVersionId });
  });

  it('sends a public version for approval, keeping the live one, and says so', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor', visibility: 'organisation' });
    const live = agent.liveVersionId;
    const view = await open(`/studio/${agent.agentId}`, ada);
    await view.user.click(screen.getByRole('radio', { name: /Public market/ }));
    await view.user.click(button('Send for approval'));
    expect(await screen.findByText('Sent to an admin for approval', {}, SHOWN)).toBeInTheDocument();
    expect(agent.liveVersionId).toBe(live);
    expect(agent.versions.at(-1)!.status).toBe('pending');
    expect(standing()).toHaveTextContent('Waiting for approval');
    expect(standing()).toHaveTextContent('A version is waiting for an admin’s approval');
  });

  it('says the model is no longer available beside the model, keeping the form', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor' }, { publish: false });
    const view = await open(`/studio/${agent.agentId}`, ada);
    server.use(
      http.post(endpoints.agentPublish.path, () => Response.json({ ...failBody('The draft’s model is no longer available.'), reason: 'MODEL_UNKNOWN' }, { status: 400 })),
    );
    await view.user.click(button('Publish'));
    const section = within(screen.getByRole('region', { name: 'Model and parameters' }));
    expect(await section.findByRole('alert', {}, SHOWN)).toHaveTextContent('This model is no longer available: choose another one.');
  });
});

describe('the agent editor: trying, versions, export, retiring', () => {
  it('tries the draft in a preview conversation, saving the changes first', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor' });
    const view = await open(`/studio/${agent.agentId}`, ada);
    const creates = recordRequests(endpoints.conversationCreate.path);
    await view.user.type(screen.getByLabelText('System prompt'), 'Answer in verse.');
    await view.user.click(button('Try it'));
    expect(await screen.findByText(/^the chat of /, {}, SHOWN)).toBeInTheDocument();
    expect(JSON.parse(await creates[0]!.text)).toEqual({ sourceId: agent.agentId, preview: true });
    expect(agent.draft!.content.systemPrompt).toBe('Answer in verse.');
    const conversationId = view.url().replace('/chat/', '');
    expect(db.conversations.get(conversationId)).toMatchObject({ sourceId: agent.agentId, preview: true });
  });

  it('lists the versions and restores one into the draft after asking', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor', intro: 'First words' });
    agent.draft = { content: { ...agent.versions[0]!.content, intro: 'Second words' }, updatedAt: new Date().toISOString() };
    const view = await open(`/studio/${agent.agentId}`, ada);
    expect(screen.getByLabelText('Introduction')).toHaveValue('Second words');
    await view.user.click(within(screen.getByRole('region', { name: 'Versions' })).getByRole('button', { name: 'Show' }));
    const row = await screen.findByTestId('agent-version', {}, SHOWN);
    expect(row).toHaveTextContent('Live');
    expect(row).toHaveTextContent('by Ada');
    await view.user.click(within(row).getByRole('button', { name: /Restore the version of/ }));
    const dialog = await screen.findByRole('dialog', { name: /Restore the version of/ });
    await view.user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('The version is your draft again', {}, SHOWN)).toBeInTheDocument();
    expect(screen.getByLabelText('Introduction')).toHaveValue('First words');
    expect(agent.draft!.content.intro).toBe('First words');
  });

  it('exports the agent as a JSON file named after it', async () => {
    const saved: { name: string; text: Promise<string> }[] = [];
    const blobs = new Map<string, Blob>();
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      const url = `blob:export-${blobs.size}`;
      blobs.set(url, blob as Blob);
      return url;
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, text: blobs.get(this.href)!.text() });
    });
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Maths tutor: level 2', systemPrompt: 'Be patient.' });
    const view = await open(`/studio/${agent.agentId}`, ada);
    await view.user.click(button('Export'));
    await expect.poll(() => saved.length).toBe(1);
    expect(saved[0]!.name).toBe('Maths-tutor-level-2.json');
    expect(JSON.parse(await saved[0]!.text)).toMatchObject({ format: 'kraken-agent', version: 1, agent: { name: 'Maths tutor: level 2', systemPrompt: 'Be patient.' } });
  });

  it('retires the agent after asking, and it can then only be read', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor' });
    const view = await open(`/studio/${agent.agentId}`, ada);
    await view.user.click(button('Retire'));
    const dialog = await screen.findByRole('dialog', { name: 'Retire this agent?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(agent.retired).toBe(false);
    await view.user.click(button('Retire'));
    await view.user.click(within(await screen.findByRole('dialog', { name: 'Retire this agent?' })).getByRole('button', { name: 'Retire' }));
    await waitFor(() => expect(view.url()).toBe('/studio'));
    expect(agent.retired).toBe(true);
    expect(db.agents.find((row) => row.agentId === agent.agentId)).toMatchObject({ published: false });
    const row = await screen.findByTestId('studio-agent', {}, SHOWN);
    expect(row).toHaveTextContent('Retired');
    await view.user.click(within(row).getByRole('link', { name: 'Tutor' }));
    expect(await screen.findByText(/This agent is retired/, {}, SHOWN)).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save draft' })).not.toBeInTheDocument();
    expect(button('Export')).toBeEnabled();
  });

  it('says the default agent cannot be retired, beside the button', async () => {
    const admin = seedUser({ nickname: 'Root', role: 'admin' }).user;
    const agent = seedStudioAgent(admin.id, { name: 'Tutor' });
    server.use(
      http.post(endpoints.agentDelete.path, () => Response.json({ ...failBody('The default agent cannot be retired.'), reason: STUDIO_ERRORS.defaultAgent }, { status: 409 })),
    );
    const view = await open(`/studio/${agent.agentId}`, admin);
    await view.user.click(button('Retire'));
    await view.user.click(within(await screen.findByRole('dialog', { name: 'Retire this agent?' })).getByRole('button', { name: 'Retire' }));
    expect(await screen.findByTestId('failure-retire', {}, SHOWN)).toHaveTextContent('The default agent answers everyone who has not chosen one: it cannot be retired.');
  });
});

describe('the agent editor: someone else’s agent, leaving', () => {
  it('says an agent that is not the person’s does not exist; an admin opens it', async () => {
    const owner = author();
    const agent = seedStudioAgent(owner.id, { name: 'Tutor' });
    await open(`/studio/${agent.agentId}`, seedUser({ role: 'member' }).user);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Agent not found');
  });

  it('asks before leaving with unsaved changes', async () => {
    const ada = author();
    const agent = seedStudioAgent(ada.id, { name: 'Tutor' });
    const view = await open(`/studio/${agent.agentId}`, ada);
    await view.user.type(screen.getByLabelText('Name'), ' II');
    await view.user.click(screen.getByRole('link', { name: 'Back to the studio' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    await view.user.click(within(dialog).getByRole('button', { name: 'Keep editing' }));
    expect(view.url()).toBe(`/studio/${agent.agentId}`);
    expect(screen.getByLabelText('Name')).toHaveValue('Tutor II');
    await view.user.click(screen.getByRole('link', { name: 'Back to the studio' }));
    await view.user.click(within(await screen.findByRole('dialog', { name: 'Leave without saving?' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(view.url()).toBe('/studio'));
  });
});
