import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRuntime } from '../agents/runtime';
import { endpoints } from '../../src/contract/endpoints';
import { openHarness, type TestApp } from './harness';
import { logQueries } from './query-log';

/**
 * What a new question costs the database before its stream's first event: every statement is a
 * round trip that hundreds of people asking at once wait on, one after the other on the embedded
 * database. These are the minimum correct ones (docs/decisions/016-first-event-under-load.md); a
 * statement added before the first event has to be argued for here.
 */
const BEFORE_FIRST_EVENT = [
  // the question quotas, all counters in one upsert
  'insert into "rate_counters"',
  'begin',
  // one answer at a time per identity over its streaming limit, on every instance; with the
  // conversation, owned by the caller, and the agent, visible to the caller
  'select pg_advisory_xact_lock',
  // answers streaming for the identity, the chosen path and every message, in one read
  'select',
  // the question and its empty answer, with updatedAt, the chosen path and the title
  'with "touched" as (update "conversations"',
  'commit',
];

/** An agent that writes nothing until told: nothing the answer does runs before the first event is read. */
function heldRuntime(): AgentRuntime & { release(): void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    label: 'held',
    release: () => release(),
    async *streamAnswer() {
      await released;
      yield 'Answer.';
    },
  };
}

let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
let runtime: ReturnType<typeof heldRuntime>;

beforeAll(async () => {
  h = await openHarness();
  runtime = heldRuntime();
  t = h.makeApp({ runtime });
});
afterAll(async () => {
  runtime.release();
  await h.close();
});

async function newConversation(visitor: Record<string, string>): Promise<string> {
  const created = await t.post(endpoints.conversationCreate.path, { sourceId: 'SpecialNoAgentFallback' }, visitor);
  expect(created.status).toBe(200);
  return created.body.data.conversationId as string;
}

/** Sends a new question and reads its stream up to the first event; answers the statements sent meanwhile. */
async function statementsBeforeFirstEvent(visitor: Record<string, string>, conversationId: string) {
  const log = logQueries(h.database);
  try {
    const response = await t.raw(endpoints.chat.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'How fast is the first event?' }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    const first = new TextDecoder().decode(value);
    expect(first).toContain('"type":"start"');
    const statements = [...log.statements];
    return { statements, rest: reader };
  } finally {
    log.stop();
  }
}

describe('the database when a conversation is created', () => {
  it('takes two statements: the creation limits\' upsert, and the row inserted from the agent\'s own row where the caller may see it', async () => {
    const visitor = h.visitor();
    await newConversation(visitor); // the first request of a server pays for its warm-up alone
    const log = logQueries(h.database);
    try {
      await newConversation(h.visitor());
      expect(log.statements, log.statements.join('\n')).toHaveLength(2);
      expect(log.statements[0]!.startsWith('insert into "rate_counters"'), log.statements[0]).toBe(true);
      expect(log.statements[1]!.startsWith('insert into "conversations"'), log.statements[1]).toBe(true);
      // An agent the caller may not see: the same two statements, nothing inserted, 404, and the count given back.
      const hidden = await t.post(endpoints.conversationCreate.path, { sourceId: 'draft-seo-writer' }, h.visitor());
      expect(hidden.status).toBe(404);
      expect(log.statements).toHaveLength(5);
      expect(log.statements[4]!.startsWith('update "rate_counters"'), log.statements[4]).toBe(true);
    } finally {
      log.stop();
    }
  });
});

describe('the database before the first event of a new question', () => {
  it('takes the minimum round trips: one quota upsert, one read, one transaction of four statements', async () => {
    // A first question opens the quota sweep's minute: the question measured is an ordinary one.
    const warm = h.visitor();
    const warmRun = await statementsBeforeFirstEvent(warm, await newConversation(warm));
    await warmRun.rest.cancel();

    const visitor = h.visitor();
    const conversationId = await newConversation(visitor);
    const { statements, rest } = await statementsBeforeFirstEvent(visitor, conversationId);
    await rest.cancel();
    const shown = statements.join('\n');
    expect(statements.length, shown).toBe(BEFORE_FIRST_EVENT.length);
    statements.forEach((statement, index) => expect(statement.startsWith(BEFORE_FIRST_EVENT[index]!), shown).toBe(true));
  });

  it('a question in a conversation with history costs the same', async () => {
    const visitor = h.visitor();
    const conversationId = await newConversation(visitor);
    // answered in full by the offline responder, through another app over the same database
    const firstQuestion = await h.makeApp({ address: t.address }).raw(endpoints.chat.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...visitor },
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'First question' }),
    });
    expect(await firstQuestion.text()).toContain('"type":"end"');

    const { statements, rest } = await statementsBeforeFirstEvent(visitor, conversationId);
    await rest.cancel();
    expect(statements.length, statements.join('\n')).toBe(BEFORE_FIRST_EVENT.length);
  });
});
