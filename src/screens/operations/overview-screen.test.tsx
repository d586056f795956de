import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import { seedUser } from '../../../tests/msw/db';
import { seedTask } from '../../../tests/msw/tasks';
import { renderWithRuntime } from '../../../tests/spa/harness';
import OperationsArea from './operations-area';

const area = (
  <Switch>
    <Route path="/kraken-operation" component={OperationsArea} />
    <Route path="/kraken-operation/*" component={OperationsArea} />
  </Switch>
);

const rows = () => screen.queryAllByTestId('task-row');

describe('the task overview', () => {
  it('shows only the operator’s tasks, with counts per status, filters and search kept in the address', async () => {
    const { user } = seedUser();
    const { user: other } = seedUser();
    seedTask(user.id, { platform: 'xiaohongshu', title: '露营清单', status: 'draft' });
    seedTask(user.id, { platform: 'linkedin', title: 'Hiring update', status: 'scheduled', scheduledAt: '2099-06-01T09:30:00.000Z' });
    seedTask(user.id, { platform: 'linkedin', title: 'Launch recap', status: 'failed', failureReason: 'LinkedIn refused the post (HTTP 401).' });
    seedTask(other.id, { platform: 'linkedin', title: 'Someone else’s post' });
    const view = await renderWithRuntime(area, { url: '/kraken-operation', signedInAs: user });

    await expect.poll(() => rows().length).toBe(3);
    expect(screen.queryByText('Someone else’s post')).toBeNull();
    expect(screen.getByTestId('count-draft')).toHaveTextContent('1');
    expect(screen.getByTestId('count-scheduled')).toHaveTextContent('1');
    expect(screen.getByText('LinkedIn refused the post (HTTP 401).')).toBeInTheDocument();

    await view.user.click(screen.getByTestId('count-scheduled'));
    await expect.poll(() => rows().length).toBe(1);
    expect(within(rows()[0]!).getByRole('link', { name: 'Hiring update' })).toHaveAttribute('href', expect.stringMatching(/\/kraken-operation\/task\/edit\/task-/));
    expect(view.url()).toBe('/kraken-operation?status=scheduled');

    await view.user.click(screen.getByRole('button', { name: /^All/ }));
    await view.user.selectOptions(screen.getByRole('combobox', { name: 'Platform' }), 'linkedin');
    await view.user.type(screen.getByRole('searchbox', { name: 'Search by title' }), 'launch');
    await expect.poll(() => rows().length).toBe(1);
    expect(rows()[0]).toHaveTextContent('Launch recap');
    expect(view.url()).toBe('/kraken-operation?platform=linkedin&q=launch');
  });

  it('pages through many tasks and says when nothing matches', async () => {
    const { user } = seedUser();
    for (let index = 1; index <= 12; index += 1) seedTask(user.id, { platform: 'linkedin', title: `Post ${index}` });
    const view = await renderWithRuntime(area, { url: '/kraken-operation', signedInAs: user });
    await expect.poll(() => rows().length).toBe(10);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    await view.user.click(screen.getByRole('button', { name: 'Next' }));
    await expect.poll(() => rows().length).toBe(2);
    expect(view.url()).toBe('/kraken-operation?page=2');
    await view.user.type(screen.getByRole('searchbox', { name: 'Search by title' }), 'nothing like this');
    expect(await screen.findByText('No task matches these filters.')).toBeInTheDocument();
  });

  it('says clearly that an unknown or foreign task is not found', async () => {
    const { user } = seedUser();
    const { user: other } = seedUser();
    const foreign = seedTask(other.id, { platform: 'linkedin', title: 'Not yours' });
    await renderWithRuntime(area, { url: `/kraken-operation/task/edit/${foreign.id}`, signedInAs: user });
    expect(await screen.findByRole('heading', { name: 'Task not found' })).toBeInTheDocument();
    expect(screen.getByText('This task does not exist, or it belongs to someone else.')).toBeInTheDocument();
    expect(screen.queryByText('Not yours')).toBeNull();
  });
});
