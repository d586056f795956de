import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminHandlers, adminStore, seedMember, seedModelProvider, setDiscoverable, setModelEnvironment, setModelInUse, storedProviderKey } from '../../../tests/msw/admin-handlers';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { endpoints } from '../../contract/endpoints';
import AdminScreen from './admin-screen';

beforeEach(() => {
  server.use(...Object.values(adminHandlers));
});

const openModels = async () => {
  const { user } = seedMember({ nickname: 'Ada', role: 'admin' });
  const view = await renderWithRuntime(<AdminScreen />, { url: '/admin?panel=models', signedInAs: user });
  await screen.findAllByTestId('model-provider');
  return view;
};
const providerCard = (name: string) => screen.getAllByTestId('model-provider').find((card) => within(card).queryByRole('heading', { level: 3, name: new RegExp(name) }))!;

describe('the models panel', () => {
  it('says the offline responder answers when no model service is configured', async () => {
    await openModels();
    const card = providerCard('Offline responder');
    expect(card).toHaveTextContent('Built in');
    expect(card).toHaveTextContent('the built-in offline responder answers every question with a stand-in reply');
    expect(within(card).getByText('Default')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /Edit|Delete|Make default/ })).toBeNull();
  });

  it("lists the console's providers and the environment's, read-only, with each model's capabilities and the default marked, never a key", async () => {
    setModelEnvironment({ baseUrl: 'https://llm.example/v1', model: 'qwen-max' });
    seedModelProvider({ name: 'Acme AI', key: 'sk-secret-123', models: [{ model: 'gpt-4o', name: 'GPT-4o', contextWindow: 128_000, maxOutput: 16_384, vision: true, markedDefault: true }, { model: 'gpt-3.5', name: 'Old GPT', enabled: false }] });
    await openModels();
    const acme = providerCard('Acme AI');
    expect(acme).toHaveTextContent('Key set');
    expect(document.body).not.toHaveTextContent('sk-secret-123');
    const [gpt4, old] = within(acme).getAllByTestId('admin-model-row');
    expect(gpt4).toHaveTextContent('GPT-4o');
    expect(gpt4).toHaveTextContent('gpt-4o');
    expect(gpt4).toHaveTextContent('128,000');
    expect(gpt4).toHaveTextContent('16,384');
    expect(within(gpt4!).getByText('Default')).toBeInTheDocument();
    expect(old).toHaveTextContent('Disabled');
    expect(within(old!).queryByRole('button', { name: 'Make default: Old GPT' })).toBeNull();

    const env = providerCard('Server environment');
    expect(env).toHaveTextContent('From the environment');
    expect(env).toHaveTextContent('qwen-max');
    expect(within(env).queryByRole('button', { name: /Edit|Delete|Discover/ })).toBeNull();
    expect(within(env).getByRole('button', { name: 'Make default: qwen-max' })).toBeInTheDocument();
    expect(screen.queryByText('Offline responder')).toBeNull();
  });

  it('adds a provider: its key is stored, never shown, and editing it keeps the key when left empty', async () => {
    const view = await openModels();
    await view.user.click(screen.getByRole('button', { name: 'Add a provider' }));
    await view.user.type(screen.getByLabelText('Name'), 'Lab AI');
    await view.user.type(screen.getByLabelText('Base URL'), 'https://lab.example/v1/');
    await view.user.type(screen.getByLabelText('API key'), 'sk-lab-secret');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lab AI saved')).toBeInTheDocument();
    const card = providerCard('Lab AI');
    expect(card).toHaveTextContent('Key set');
    expect(card).toHaveTextContent('https://lab.example/v1');
    const id = [...adminStore().registry.providers.values()][0]!.id;
    expect(storedProviderKey(id)).toBe('sk-lab-secret');
    expect(document.body).not.toHaveTextContent('sk-lab-secret');

    const saves = recordRequests(endpoints.adminModelProviderSave.path);
    await view.user.click(within(card).getByRole('button', { name: 'Edit: Lab AI' }));
    expect(screen.getByLabelText('API key')).toHaveValue('');
    expect(screen.getByText('A key is set. Leave empty to keep the current key.')).toBeInTheDocument();
    await view.user.clear(screen.getByLabelText('Name'));
    await view.user.type(screen.getByLabelText('Name'), 'Lab AI 2');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Lab AI 2 saved')).toBeInTheDocument();
    expect(JSON.parse(await saves[0]!.text)).toEqual({ id, name: 'Lab AI 2', baseUrl: 'https://lab.example/v1' });
    expect(storedProviderKey(id)).toBe('sk-lab-secret');
  });

  it('names what is wrong with the form before asking the server, and says why the server refused an address on a private network, keeping the form', async () => {
    const view = await openModels();
    const saves = recordRequests(endpoints.adminModelProviderSave.path);
    await view.user.click(screen.getByRole('button', { name: 'Add a provider' }));
    await view.user.type(screen.getByLabelText('Base URL'), 'lab.example');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Enter a name.')).toBeInTheDocument();
    expect(screen.getByLabelText('Base URL')).toHaveAttribute('aria-invalid', 'true');
    expect(saves).toHaveLength(0);

    await view.user.type(screen.getByLabelText('Name'), 'Lab');
    await view.user.clear(screen.getByLabelText('Base URL'));
    await view.user.type(screen.getByLabelText('Base URL'), 'http://10.0.0.5:8000/v1');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The provider was not saved.');
    expect(alert).toHaveTextContent("This address is on the server's own machine or a private network. The server connects there only when MODEL_PROVIDERS_ON_PRIVATE_NETWORK=on is set where it starts.");
    expect(alert).not.toHaveTextContent('is refused');
    expect(screen.getByLabelText('Name')).toHaveValue('Lab');
    expect(screen.getByLabelText('Base URL')).toHaveValue('http://10.0.0.5:8000/v1');
  });

  it('asks before deleting a provider, and says what to do when a published agent still answers with its models', async () => {
    const acme = seedModelProvider({ name: 'Acme AI', models: [{ model: 'gpt-4o', name: 'GPT-4o' }] });
    setModelInUse(acme.models[0]!.id, 2);
    const view = await openModels();
    const card = providerCard('Acme AI');
    expect(card).toHaveTextContent('Used by 2 agents');
    await view.user.click(within(card).getByRole('button', { name: 'Delete: Acme AI' }));
    const question = within(card).getByRole('group', { name: /Delete the provider Acme AI\?/ });
    await view.user.click(within(question).getByRole('button', { name: 'Delete' }));
    const alert = await within(providerCard('Acme AI')).findByRole('alert');
    expect(alert).toHaveTextContent('The provider was not deleted.');
    expect(alert).toHaveTextContent("A published agent answers with one of this provider's models. Give those agents another model in the agent studio, or retire them, then delete the provider.");
    expect(adminStore().registry.providers.has(acme.id)).toBe(true);

    setModelInUse(acme.models[0]!.id, 0);
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Delete: Acme AI' }));
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Acme AI deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('heading', { name: /Acme AI/ })).toBeNull());
    expect(providerCard('Offline responder')).toBeDefined();
  });

  it('discovers what a provider serves and adds a model with one click', async () => {
    const acme = seedModelProvider({ name: 'Acme AI', models: [{ model: 'gpt-4o', name: 'GPT-4o' }] });
    setDiscoverable(acme.id, ['gpt-4o', 'o3-mini', 'text-embed']);
    const view = await openModels();
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Discover models' }));
    const discovery = await screen.findByTestId('model-discovery');
    expect(discovery).toHaveTextContent('3 models offered by this provider');
    expect(within(discovery).getByText('gpt-4o').closest('li')).toHaveTextContent('Added');
    await view.user.click(within(discovery).getByRole('button', { name: 'Add o3-mini' }));
    expect(await screen.findByText('o3-mini added')).toBeInTheDocument();
    await waitFor(() => expect(within(providerCard('Acme AI')).getAllByTestId('admin-model-row')).toHaveLength(2));
    expect(within(screen.getByTestId('model-discovery')).getByText('o3-mini').closest('li')).toHaveTextContent('Added');
    expect(within(screen.getByTestId('model-discovery')).queryByRole('button', { name: 'Add o3-mini' })).toBeNull();
  });

  it("says why a provider's models could not be listed", async () => {
    const acme = seedModelProvider({ name: 'Acme AI' });
    setDiscoverable(acme.id, { status: 502, reason: 'MODEL_DISCOVERY_FAILED', msg: 'Acme AI could not be asked for its models: it answered HTTP 401.' });
    const view = await openModels();
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Discover models' }));
    const alert = await within(providerCard('Acme AI')).findByRole('alert');
    expect(alert).toHaveTextContent("The provider's models could not be listed.");
    expect(alert).toHaveTextContent('The provider refused the key (HTTP 401). Check the key and save it again.');
  });

  it('adds a model by hand, naming a token count that is not one, and makes it the default', async () => {
    seedModelProvider({ name: 'Acme AI', models: [{ model: 'gpt-4o', name: 'GPT-4o', markedDefault: true }] });
    const view = await openModels();
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Add a model' }));
    await view.user.type(screen.getByLabelText('Model ID'), 'o3');
    await view.user.type(screen.getByLabelText('Display name'), 'O3');
    await view.user.type(screen.getByLabelText('Context window (tokens)'), 'lots');
    await view.user.click(screen.getByLabelText('Accepts images'));
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText('Enter a whole number of tokens from 1 to 10,000,000, or leave it empty.')).toHaveLength(1);
    await view.user.clear(screen.getByLabelText('Context window (tokens)'));
    await view.user.type(screen.getByLabelText('Context window (tokens)'), '200,000');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('O3 saved')).toBeInTheDocument();
    const row = await waitFor(() => within(providerCard('Acme AI')).getAllByTestId('admin-model-row').find((candidate) => candidate.textContent?.includes('O3'))!);
    expect(row).toHaveTextContent('200,000');
    expect(row).toHaveTextContent('Yes');

    await view.user.click(within(row).getByRole('button', { name: 'Make default: O3' }));
    expect(await screen.findByText('O3 is now the default model')).toBeInTheDocument();
    await waitFor(() => expect(within(providerCard('Acme AI')).getAllByTestId('admin-model-row').find((candidate) => candidate.textContent?.includes('O3'))).toHaveTextContent('Default'));
    expect(within(providerCard('Acme AI')).getAllByText('Default')).toHaveLength(1);
  });

  it('says a model name is taken at its provider, keeping the form', async () => {
    seedModelProvider({ name: 'Acme AI', models: [{ model: 'gpt-4o', name: 'GPT-4o' }] });
    const view = await openModels();
    await view.user.click(within(providerCard('Acme AI')).getByRole('button', { name: 'Add a model' }));
    await view.user.type(screen.getByLabelText('Model ID'), 'gpt-4o');
    await view.user.type(screen.getByLabelText('Display name'), 'Another');
    await view.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This provider already has a model with this ID.');
    expect(screen.getByLabelText('Display name')).toHaveValue('Another');
  });
});
