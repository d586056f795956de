import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../src/contract/endpoints';
import { openHarness, type TestApp } from '../../server/test/harness';
import { logQueries } from '../../server/test/query-log';
import { CREATE, LOCK_AND_FIND, QUOTAS, READ, STORE_ANSWER, WRITE } from './floor-statements';

/**
 * The load figures' database floor (floor-server.ts) sends these statements as the product's
 * own: if the product's change, the floor stops being what the product's database work costs, and
 * this says which statement to copy again (PostgreSQL's log, `log_statement = all`, shows them).
 */
let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;

beforeAll(async () => {
  h = await openHarness();
  t = h.makeApp();
});
afterAll(async () => h.close());

async function visit(visitor: Record<string, string>) {
  const created = await t.post(endpoints.conversationCreate.path, { sourceId: 'SpecialNoAgentFallback' }, visitor);
  expect(created.status).toBe(200);
  const answered = await t.raw(endpoints.chat.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...visitor },
    body: JSON.stringify({ conversationId: created.body.data.conversationId, agentId: 'SpecialNoAgentFallback', text: 'How fast is this?' }),
  });
  expect(await answered.text()).toContain('"type":"end"');
}

describe('the statements of the load figures\' database floor', () => {
  it('are the product\'s, word for word: a visitor\'s new conversation, question and stored answer', async () => {
    await visit(h.visitor()); // opens the quota sweep's minute: the visit measured is an ordinary one
    const log = logQueries(h.database);
    try {
      await visit(h.visitor());
    } finally {
      log.stop();
    }
    // The answer's text is also told to other instances (PostgreSQL's notifications): not the floor's work.
    const sent = log.texts.filter((text) => !text.startsWith('select pg_notify('));
    // The conversation's creation limits and the question's quotas: four counters each, one statement alike.
    const expected = [QUOTAS, CREATE, QUOTAS, 'begin', LOCK_AND_FIND, READ, WRITE, 'commit', STORE_ANSWER];
    expect(sent).toEqual(expected);
  });
});
