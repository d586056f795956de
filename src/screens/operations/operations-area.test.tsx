import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { http, HttpResponse } from 'msw';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { db, seedOperator, seedUser } from '../../../tests/msw/db';
import { server } from '../../../tests/msw/server';
import { renderWithRuntime } from '../../../tests/spa/harness';
import { getConversation } from '../../services/api/conversations';
import { UserMenu } from '../../components/user-menu';
import { getToken } from '../../services/cookies';
import OperationsArea from './operations-area';

const area = (
  <Switch>
    <Route path="/kraken-operation" component={OperationsArea} />
    <Route path="/kraken-operation/*" component={OperationsArea} />
    <Route>
      <p>elsewhere</p>
    </Route>
  </Switch>
);

const loginUrl = (back: string) => `/login?source=kraken&redirect_url=${encodeURIComponent(back)}`;

describe('the operations area guard', () => {
  it('sends someone without a token to login with the exact path and query to come back to', async () => {
    const view = await renderWithRuntime(area, { url: '/kraken-operation/task/edit/42?tab=images' });
    await expect.poll(view.url).toBe(loginUrl('/kraken-operation/task/edit/42?tab=images'));
    expect(screen.queryByRole('heading', { name: 'Task not found' })).toBeNull();
  });

  it('opens for a verified session, showing nothing before the check', async () => {
    const { user } = seedOperator();
    const view = await renderWithRuntime(area, { url: '/kraken-operation/task/edit/42', signedInAs: user });
    expect(await screen.findByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
    expect(view.url()).toBe('/kraken-operation/task/edit/42');
  });

  it('sends to login when the verification answers anything but success', async () => {
    const { user } = seedUser();
    server.use(http.get(endpoints.operationsSession.path, () => HttpResponse.json({ code: 1, msg: 'Account locked', data: null })));
    const view = await renderWithRuntime(area, { url: '/kraken-operation/task/linkedin?draft=3', signedInAs: user });

    await expect.poll(view.url).toBe(loginUrl('/kraken-operation/task/linkedin?draft=3'));
    expect(screen.queryByRole('heading', { name: 'LinkedIn task' })).toBeNull();
  });

  it('sends to login from where the operator is when any call answers 401', async () => {
    const { user } = seedUser();
    const view = await renderWithRuntime(area, { url: '/kraken-operation', signedInAs: user });
    await view.user.click(await screen.findByRole('link', { name: 'New Xiaohongshu task' }));
    expect(await screen.findByRole('heading', { name: 'Xiaohongshu task' })).toBeInTheDocument();

    db.sessions.clear();
    await getConversation('conv-1').catch(() => undefined);

    await expect.poll(view.url).toBe(loginUrl('/kraken-operation/task/xiaohongshu'));
    expect(view.runtime.app.getSnapshot().context.user).toBeNull();
  });

  it('shuts the area when the operator logs out, sending to login with the way back', async () => {
    const { user } = seedUser({ nickname: 'Ada' });
    const view = await renderWithRuntime(
      <>
        <UserMenu />
        {area}
      </>,
      { url: '/kraken-operation/task/xiaohongshu', signedInAs: user },
    );
    expect(await screen.findByRole('heading', { name: 'Xiaohongshu task' })).toBeInTheDocument();

    await view.user.click(screen.getByRole('button', { name: 'User menu: Ada' }));
    await view.user.click(screen.getByRole('menuitem', { name: 'Log out' }));

    await expect.poll(view.url).toBe(loginUrl('/kraken-operation/task/xiaohongshu'));
    expect(screen.queryByRole('heading', { name: 'Xiaohongshu task' })).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('tells a member the area is not theirs and whom to ask, keeps them signed in, and offers the way home', async () => {
    const { user } = seedUser({ role: 'member', companyId: 'company-acme' });
    const view = await renderWithRuntime(area, { url: '/kraken-operation/task/linkedin?draft=3', signedInAs: user });

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You do not have permission for the operations area. Ask an admin of your organisation to make you an operator.');
    expect(screen.queryByRole('heading', { name: 'LinkedIn task' })).toBeNull();
    expect(view.url()).toBe('/kraken-operation/task/linkedin?draft=3');
    expect(getToken()).not.toBeNull();
    expect(view.runtime.app.getSnapshot().context.user?.id).toBe(user.id);

    await view.user.click(screen.getByRole('link', { name: 'Back to the home page' }));
    await expect.poll(view.url).toBe('/');
    expect(screen.getByText('elsewhere')).toBeInTheDocument();
  });
});
