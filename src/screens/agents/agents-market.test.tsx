import { act, fireEvent, screen, within } from '@testing-library/react';
import { http } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { initI18n } from '../../i18n';
import { fail } from '../../../tests/msw/handlers';
import { db, queueAnswer, seedAgent, seedApplication, seedConversation, visitorOwner } from '../../../tests/msw/db';
import { getVisitorId } from '../../services/visitor';
import { recordRequests, server } from '../../../tests/msw/server';
import { gate } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from '../chat/chat-screen';

const routes = (
  <Switch>
    <Route path="/chat" component={ChatScreen} />
    <Route path="/chat/*" component={ChatScreen} />
  </Switch>
);

const openMarket = () => renderWithRuntime(routes, { url: '/chat/agents' });

const seedMany = (count: number) => {
  for (let index = 1; index <= count; index += 1) {
    seedAgent({ name: `Helper ${String(index).padStart(2, '0')}`, intro: `Helps with task ${index}.`, createByName: `Maker ${index}` });
  }
};

/** jsdom lays nothing out: give the market's scroller a browser's sizes, 100 px per card. */
const layOut = (element: HTMLElement) => {
  Object.defineProperty(element, 'clientHeight', { configurable: true, value: 600 });
  Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => element.querySelectorAll('[data-testid="agent-card"]').length * 100 });
};
const scrollTo = (element: HTMLElement, fromEnd: number) => {
  element.scrollTop = element.scrollHeight - element.clientHeight - fromEnd;
  fireEvent.scroll(element);
};

/** The detail's facts as the reader reads them: each label with its value. */
const facts = (dialog: HTMLElement) => within(dialog).queryAllByRole('term').map((term) => [term.textContent, term.nextElementSibling?.textContent]);

afterEach(async () => {
  await initI18n('en-US');
});

describe('the agents market', () => {
  it('says it is loading until the first page arrives', async () => {
    const hold = gate();
    server.use(
      http.post(endpoints.agentPublishedList.path, async () => {
        await hold.promise;
        return undefined;
      }),
    );
    await openMarket();
    expect(await screen.findByText('Loading agents…')).toBeInTheDocument();
    hold.open();
    expect(await screen.findByRole('button', { name: 'About General assistant' })).toBeInTheDocument();
  });

  it('says so when no agent is published', async () => {
    db.agents.length = 0;
    await openMarket();
    expect(await screen.findByText('No agents have been published yet')).toBeInTheDocument();
  });

  it('says the agents could not be loaded and tries again', async () => {
    server.use(http.post(endpoints.agentPublishedList.path, () => fail(500, 'boom'), { once: true }));
    const view = await openMarket();
    expect(await screen.findByRole('alert')).toHaveTextContent('The agents could not be loaded');
    await view.user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'About General assistant' })).toBeInTheDocument();
  });

  it('shows cards with avatar, name, intro and creator, and loads the next page within 100 px of the end', async () => {
    seedMany(24);
    const requests = recordRequests(endpoints.agentPublishedList.path);
    await openMarket();
    const list = await screen.findByRole('list', { name: 'Agents market' });
    expect(await within(list).findAllByTestId('agent-card')).toHaveLength(10);
    const card = within(list).getByRole('button', { name: 'About General assistant' });
    expect(card).toHaveTextContent('By Company');
    expect(card).toHaveTextContent('A helpful agent.');

    const scroller = screen.getByTestId('agents-market');
    layOut(scroller);
    scrollTo(scroller, 200); // 200 px from the end: not yet
    expect(requests).toHaveLength(1);
    scrollTo(scroller, 80);
    await expect.poll(() => within(list).getAllByTestId('agent-card').length).toBe(20);
    expect(requests).toHaveLength(2);
    scrollTo(scroller, 100);
    await expect.poll(() => within(list).getAllByTestId('agent-card').length).toBe(25);
    expect(await screen.findByText('You have seen every agent')).toBeInTheDocument();
    const pages = await Promise.all(requests.map(async (request) => (JSON.parse(await request.text) as { current: number }).current));
    expect(pages).toEqual([1, 2, 3]);
  });

  it('searches by keyword once the typing pauses', async () => {
    seedMany(3);
    seedAgent({ name: 'Travel Planner', intro: 'Plans trips.' });
    const requests = recordRequests(endpoints.agentPublishedList.path);
    const view = await openMarket();
    await screen.findByRole('button', { name: 'About Travel Planner' });

    await view.user.type(screen.getByRole('searchbox', { name: 'Search agents' }), 'travel');
    await expect.poll(() => screen.queryAllByTestId('agent-card').length).toBe(1);
    expect(screen.getByRole('button', { name: 'About Travel Planner' })).toBeInTheDocument();
    // one request for the page, one for the whole word: not one per key
    expect(requests).toHaveLength(2);
    expect(JSON.parse(await requests[1]!.text)).toMatchObject({ keyword: 'travel', current: 1 });

    await view.user.clear(screen.getByRole('searchbox', { name: 'Search agents' }));
    await view.user.type(screen.getByRole('searchbox', { name: 'Search agents' }), 'nothing like it');
    expect(await screen.findByText('No agents match “nothing like it”')).toBeInTheDocument();
  });

  it('filters by category at one click, and shows every category again with All', async () => {
    seedAgent({ name: 'SQL Helper', category: 'development' });
    seedAgent({ name: 'Note Writer', category: 'writing' });
    const requests = recordRequests(endpoints.agentPublishedList.path);
    const view = await openMarket();
    await screen.findByRole('button', { name: 'About Note Writer' });
    const categories = screen.getByRole('group', { name: 'Categories' });
    expect(within(categories).getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');

    await view.user.click(within(categories).getByRole('button', { name: 'Development' }));
    await expect.poll(() => screen.queryAllByTestId('agent-card').length).toBe(1);
    expect(screen.getByRole('button', { name: 'About SQL Helper' })).toBeInTheDocument();
    expect(within(categories).getByRole('button', { name: 'Development' })).toHaveAttribute('aria-pressed', 'true');
    expect(JSON.parse(await requests.at(-1)!.text)).toMatchObject({ category: 'development', current: 1 });

    await view.user.click(within(categories).getByRole('button', { name: 'Marketing' }));
    expect(await screen.findByText('No agents in this category yet')).toBeInTheDocument();

    await view.user.click(within(categories).getByRole('button', { name: 'All' }));
    await expect.poll(() => screen.queryAllByTestId('agent-card').length).toBe(3);
    expect(JSON.parse(await requests.at(-1)!.text)).not.toHaveProperty('category');
  });

  it('shows published applications beside the agents and starts a workflow conversation with one', async () => {
    seedApplication({ applicationId: 'digest', name: 'Weekly Digest', intro: 'Drafts three posts from your week.' });
    seedApplication({ applicationId: 'hidden', name: 'Draft App', isDraft: true });
    queueAnswer('Here are your three posts.');
    const creates = recordRequests(endpoints.conversationCreate.path);
    const chats = recordRequests(endpoints.chat.path);
    const view = await openMarket();
    const applications = await screen.findByRole('region', { name: 'Applications' });
    const card = await within(applications).findByRole('button', { name: 'Start Weekly Digest' });
    expect(card).toHaveTextContent('Drafts three posts from your week.');
    expect(within(applications).queryByText('Draft App')).toBeNull();

    await view.user.click(card);
    expect(view.url()).toBe('/chat');
    const header = await screen.findByTestId('chat-application');
    expect(within(header).getByRole('heading', { level: 1 })).toHaveTextContent('Weekly Digest');
    expect(header).toHaveTextContent('Drafts three posts from your week.');
    expect(screen.queryByRole('region', { name: 'Try asking' })).toBeNull();
    await view.user.type(screen.getByRole('textbox', { name: /Ask anything/ }), 'My week{Enter}');
    await expect.poll(() => screen.queryByTestId('answer')?.textContent).toBe('Here are your three posts.');
    expect(JSON.parse(await creates[0]!.text)).toMatchObject({ sourceId: 'digest', source: 'workflow' });
    expect(JSON.parse(await chats[0]!.text)).toMatchObject({ agentId: 'digest', text: 'My week' });
    // it is in the history like any other chat, and opened from there it still names its application
    const history = screen.getByRole('navigation', { name: 'Chat history' });
    const row = await within(history).findByRole('link', { name: 'My week' });
    expect(row.querySelector('[data-testid="history-application"]')).not.toBeNull();
    await view.user.click(within(history).getByRole('link', { name: 'Browse the agents market' }));
    await view.user.click(row.isConnected ? row : await within(history).findByRole('link', { name: 'My week' }));
    await expect.poll(() => screen.queryByTestId('question')?.textContent).toBe('My week');
    expect(within(screen.getByTestId('chat-application')).getByRole('heading', { level: 1 })).toHaveTextContent('Weekly Digest');
  });

  it('keeps the applications’ place while they load, a row as tall as the loaded one, so the agents below do not move', async () => {
    seedApplication({ applicationId: 'digest', name: 'Weekly Digest', intro: 'Drafts three posts from your week.' });
    const hold = gate();
    server.use(
      http.post(endpoints.applicationList.path, async () => {
        await hold.promise;
        return undefined;
      }),
    );
    await openMarket();
    const applications = await screen.findByRole('region', { name: 'Applications' });
    expect(within(applications).getByRole('status')).toHaveTextContent('Loading applications');
    // jsdom lays nothing out: the places loading are the loaded cards' fixed size (h-28, one row)
    const places = within(applications).getByTestId('applications-loading').querySelectorAll('li');
    expect(places.length).toBeGreaterThan(0);
    const placeClass = places[0]!.className;
    hold.open();
    const card = await within(applications).findByRole('button', { name: 'Start Weekly Digest' });
    const size = (className: string) => className.split(' ').filter((name) => /^(h|w|sm:w)-/.test(name));
    expect(size(card.closest('li')!.className)).toEqual(size(placeClass));
    expect(size(placeClass)).toContain('h-28');
  });

  it('shows an application in the reader’s language, in the market and in the header of its conversation', async () => {
    seedApplication({
      applicationId: 'digest',
      name: 'Weekly Digest',
      intro: 'Drafts three posts from your week.',
      translations: { 'fr-FR': { name: 'Synthèse de la semaine', intro: 'Rédige trois posts à partir de votre semaine.' } },
    });
    const view = await openMarket();
    await within(await screen.findByTestId('applications')).findByTestId('application-card');
    await act(() => initI18n('fr-FR'));
    const card = await within(screen.getByTestId('applications')).findByRole('button', { name: /Synthèse de la semaine/ });
    expect(card).toHaveTextContent('Rédige trois posts à partir de votre semaine.');
    expect(card).not.toHaveTextContent('Weekly Digest');
    await view.user.click(card);
    const header = await screen.findByTestId('chat-application');
    expect(within(header).getByRole('heading', { level: 1 })).toHaveTextContent('Synthèse de la semaine');
    expect(header).toHaveTextContent('Rédige trois posts à partir de votre semaine.');
    view.unmount();
    // opened from its address, with the application as the server sends it beside the conversation
    const stored = seedConversation({ owner: visitorOwner(getVisitorId()), source: 'workflow', sourceId: 'digest', title: 'Ma semaine', messages: [{ role: 'user', content: 'Ma semaine' }] });
    await renderWithRuntime(routes, { url: `/chat/${stored.conversationId}` });
    await act(() => initI18n('fr-FR'));
    await expect.poll(() => screen.queryByTestId('question')?.textContent).toBe('Ma semaine');
    expect(within(screen.getByTestId('chat-application')).getByRole('heading', { level: 1 })).toHaveTextContent('Synthèse de la semaine');
  });

  it('names a workflow conversation’s application when opened from its address, and says “Application” once it is withdrawn', async () => {
    seedApplication({ applicationId: 'digest', name: 'Weekly Digest', intro: 'Drafts three posts from your week.' });
    seedApplication({ applicationId: 'gone', name: 'Withdrawn App', published: false });
    const workflowChat = (sourceId: string, title: string) =>
      seedConversation({ owner: visitorOwner(getVisitorId()), source: 'workflow', sourceId, title, messages: [{ role: 'user', content: title }] });
    const digest = workflowChat('digest', 'Last week');
    workflowChat('gone', 'Old run');
    const view = await renderWithRuntime(routes, { url: `/chat/${digest.conversationId}` });
    const heading = () => within(screen.getByTestId('chat-application')).getByRole('heading', { level: 1 }).textContent;
    await expect.poll(() => screen.queryByTestId('chat-application') && heading()).toBe('Weekly Digest');
    const history = screen.getByRole('navigation', { name: 'Chat history' });
    expect(await within(history).findByRole('link', { name: 'Last week' })).toHaveAttribute('aria-current', 'page');
    await view.user.click(within(history).getByRole('link', { name: 'Old run' }));
    await expect.poll(() => screen.queryByTestId('question')?.textContent).toBe('Old run');
    expect(heading()).toBe('Application');
    expect(screen.queryByText('Withdrawn App')).toBeNull();
  });

  it('opens an agent’s detail and starts a new chat with it, shown in the header', async () => {
    seedAgent({ agentId: 'travel', name: 'Travel Planner', intro: 'Plans day-by-day trips.', createByName: 'Maya' });
    const view = await openMarket();
    await view.user.click(await screen.findByRole('button', { name: 'About Travel Planner' }));

    const dialog = await screen.findByRole('dialog', { name: 'Travel Planner' });
    expect(dialog).toHaveTextContent('Plans day-by-day trips.');
    expect(facts(dialog)).toContainEqual(['Created by', 'Maya']);
    await view.user.click(within(dialog).getByRole('button', { name: 'Start a new chat' }));

    expect(view.url()).toBe('/chat');
    expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent('Travel Planner');
    expect(view.runtime.chat.getSnapshot().context.agentId).toBe('travel');
  });

  it('shows an agent’s name and intro in the reader’s language, in the card, the detail and the chat header', async () => {
    seedAgent({
      agentId: 'travel',
      name: 'Travel Planner',
      intro: 'Plans day-by-day trips.',
      translations: { 'fr-FR': { name: 'Planificateur de voyage', intro: 'Prépare des voyages jour par jour.' } },
    });
    seedAgent({ agentId: 'plain', name: 'Plain Helper', intro: 'Only in English.' });
    const view = await openMarket();
    await screen.findByRole('button', { name: /Plain Helper/ });
    await act(() => initI18n('fr-FR'));

    const card = await screen.findByRole('button', { name: /Planificateur de voyage/ });
    expect(card).toHaveTextContent('Prépare des voyages jour par jour.');
    expect(card).not.toHaveTextContent('Travel Planner');
    // an agent without the reader's language keeps its own words
    expect(screen.getByRole('button', { name: /Plain Helper/ })).toHaveTextContent('Only in English.');

    await view.user.click(card);
    const dialog = await screen.findByRole('dialog', { name: 'Planificateur de voyage' });
    expect(dialog).toHaveTextContent('Prépare des voyages jour par jour.');
    await view.user.click(within(dialog).getAllByRole('button').at(-1)!);
    expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent('Planificateur de voyage');
  });

  it('gives an agent’s starter questions, category, creator and last update in the reader’s language', async () => {
    seedAgent({
      agentId: 'travel',
      name: 'Travel Planner',
      intro: 'Plans day-by-day trips.',
      category: 'lifestyle',
      createByName: 'Maya Fischer',
      updatedAt: '2026-03-05T14:07:00.000Z',
      starters: ['Plan a weekend in Lyon'],
      translations: { 'de-DE': { name: 'Reiseplaner', intro: 'Plant Reisen Tag für Tag.', starters: ['Plane ein Wochenende in Lyon', 'Was packe ich für Island ein?'] } },
    });
    const view = await openMarket();
    await screen.findByRole('button', { name: 'About Travel Planner' });
    await act(() => initI18n('de-DE'));
    await view.user.click(await screen.findByRole('button', { name: /Reiseplaner/ }));

    const dialog = await screen.findByRole('dialog', { name: 'Reiseplaner' });
    expect(facts(dialog)).toEqual([
      ['Kategorie', 'Alltag'],
      ['Erstellt von', 'Maya Fischer'],
      ['Zuletzt aktualisiert', new Intl.DateTimeFormat('de-DE', { dateStyle: 'long' }).format(new Date('2026-03-05T14:07:00.000Z'))],
    ]);
    expect(within(dialog).getByText(/März 2026/).closest('time')).toHaveAttribute('datetime', '2026-03-05T14:07:00.000Z');
    const starters = within(dialog).getByRole('heading', { name: 'Fragen für den Einstieg' }).nextElementSibling as HTMLElement;
    expect(within(starters).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Plane ein Wochenende in Lyon', 'Was packe ich für Island ein?']);
  });

  it('leaves out in the detail what the agent does not have', async () => {
    seedAgent({ agentId: 'bare', name: 'Bare Helper', intro: 'Says little.', createByName: 'Lin', updatedAt: undefined });
    const view = await openMarket();
    await view.user.click(await screen.findByRole('button', { name: 'About Bare Helper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Bare Helper' });
    expect(facts(dialog)).toEqual([['Created by', 'Lin']]);
    expect(within(dialog).queryByRole('heading', { name: 'Questions to start with' })).toBeNull();
  });

  it('closes the detail with Escape', async () => {
    const view = await openMarket();
    await view.user.click(await screen.findByRole('button', { name: 'About General assistant' }));
    const dialog = await screen.findByRole('dialog', { name: 'General assistant' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await expect.poll(() => screen.queryByTestId('agent-detail')).toBeNull();
  });
});

