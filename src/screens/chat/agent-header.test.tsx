import { screen } from '@testing-library/react';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { fail } from '../../../tests/msw/handlers';
import { seedAgent } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { AgentHeader } from './agent-header';

describe('the chat header', () => {
  it('says the agent is unavailable when it cannot be fetched, and shows it after "Try again"', async () => {
    seedAgent({ agentId: 'agent-a', name: 'Atlas the planner', intro: 'Plans trips.' });
    server.use(http.get(endpoints.agentDetail.path, () => fail(500, 'boom'), { once: true }));
    const requests = recordRequests(endpoints.agentDetail.path);
    const { user } = await renderWithRuntime(<AgentHeader agentId="agent-a" />, { url: '/chat' });

    expect(await screen.findByRole('status')).toHaveTextContent('Agent details unavailable');
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent('Atlas the planner');
    expect(screen.getByText('Plans trips.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(requests).toHaveLength(2);
  });

  it('offers no "Try again" once the agent is shown', async () => {
    seedAgent({ agentId: 'agent-a', name: 'Atlas the planner', intro: 'Plans trips.' });
    await renderWithRuntime(<AgentHeader agentId="agent-a" />, { url: '/chat' });
    expect(await screen.findByTestId('chat-agent-name')).toHaveTextContent('Atlas the planner');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });
});
