// The database's floor for the load figures (scripts/bench-load.mjs): the same two calls as the
// product (create a conversation; ask, and write the stream's first event), answered with the
// statements the product sends before that event (floor-statements.ts, kept the product's own by
// floor-statements.test.ts) through the product's own
// database layer (`openDb`: its pool on PostgreSQL, its one-call named statements on the embedded
// database), and nothing else: no HTTP framework, no SQL built per request, no quotas' logic, no
// model. The answer is held until the bench releases the round, then stored as the product
// stores it. What the product takes above this figure is its own; what this takes is the
// database's and the machine's.
//   DATA_DIR=… [DATABASE_URL=…] node --import tsx tests/load/floor-server.ts
// prints `running at http://127.0.0.1:<port>`; POST /__floor/release ends the held answers.
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OFFLINE_MODEL_ID } from '../../src/contract/models';
import { OFFLINE_LABEL } from '../../server/agents/offline-responder';
import { defaultConfig } from '../../server/config';
import { openDb, pgliteDirOf } from '../../server/db/client';
import type { Owner } from '../../server/http/caller';
import { conversationQuotas, identityLockKey, questionQuotas } from '../../server/limits/identity-quotas';
import type { Quota } from '../../server/limits/quotas';
import { seedCatalog } from '../../server/seed/seed';
import { streamingSince } from '../../server/services/chat';
import { searchable, searchableContent } from '../../server/services/search-text';
import { CREATE, LOCK_AND_FIND, QUOTAS, READ, STORE_ANSWER, WRITE } from './floor-statements';
import { CREATE_PATH } from './visitor.mjs';

type Row = Record<string, unknown>;
type Runner = { query(text: string, params: unknown[]): Promise<{ rows: Row[] }> };

const dataDir = process.env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'kraken-floor-'));
const databaseUrl = process.env.DATABASE_URL;
const database = await openDb(databaseUrl ? { databaseUrl } : { pgliteDir: pgliteDirOf(dataDir) });
await database.migrate();
await seedCatalog(database.db);
// The embedded database's analyze and vacuum passes, as the product runs them (PostgreSQL's own autovacuum there).
await database.keepUp();
const upkeep = setInterval(() => void database.keepUp().catch(() => undefined), defaultConfig.databaseUpkeepMs);

/** The driver's own client under the product's database layer: node-postgres's pool, or the embedded database's one-call client. */
type PoolClient = Runner & { release(): void };
type Client = Runner & { connect?(): Promise<PoolClient>; transaction?<T>(work: (tx: Runner) => Promise<T>): Promise<T> };
const client = (database.db as unknown as { $client: Client }).$client;

/** One transaction, as the product's: on one pooled connection, or under the embedded database's lock. */
async function transaction<T>(work: (tx: Runner) => Promise<T>): Promise<T> {
  if (client.transaction) return client.transaction(work);
  const connection = await client.connect!();
  try {
    await connection.query('begin', []);
    const result = await work(connection);
    await connection.query('commit', []);
    return result;
  } catch (error) {
    await connection.query('rollback', []).catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}

const AGENT = 'SpecialNoAgentFallback';
const held: (() => Promise<void>)[] = [];

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};
const event = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;

/** The product's quotas and keys, spent within their limits in the order the product locks their rows. */
const count = (quotas: Quota[], now: Date) => {
  const sorted = [...quotas].sort((a, b) => (a.key < b.key ? -1 : 1));
  return client.query(QUOTAS, [
    ...sorted.flatMap(({ key, windowMs }) => [key, 1, now.toISOString(), new Date(now.getTime() + windowMs).toISOString()]),
    ...sorted.flatMap(({ key, limit }) => [key, limit]),
  ]);
};

async function create(visitor: string, address: string, response: ServerResponse) {
  const at = new Date();
  await count(conversationQuotas(defaultConfig, { visitorId: visitor }, address), at);
  const now = at.toISOString();
  const { rows } = await client.query(CREATE, [randomUUID(), null, visitor, 'agent', null, null, '', 'chat', now, now, AGENT, true, 'public', 1]);
  json(response, 200, { code: 0, msg: 'ok', data: { conversationId: rows[0]!.id }, success: true });
}

async function ask(visitor: string, address: string, body: { conversationId: string; text: string }, response: ServerResponse) {
  const now = new Date();
  const at = now.toISOString();
  const owner: Owner = { visitorId: visitor };
  await count(questionQuotas(defaultConfig, owner, address), now);
  const since = streamingSince(now).toISOString();
  const question = randomUUID();
  const answer = randomUUID();
  const lease = randomUUID();
  const found = await transaction(async (tx) => {
    const { rows } = await tx.query(LOCK_AND_FIND, [identityLockKey('streams', owner), true, 'public', body.conversationId, visitor, AGENT]);
    // One row always (a left join from one); the conversation's columns are there when the visitor owns it.
    if (!rows[0]?.source) return false;
    const versionId = rows[0].version_id;
    const history = await tx.query(READ, [since, visitor, since, body.conversationId, body.conversationId]);
    const parent = history.rows.at(-1)?.id ?? null;
    await tx.query(WRITE, [
      body.text, searchable(body.text), answer, at, versionId, body.conversationId,
      question, body.conversationId, 'user', body.text, searchableContent(body.text), 'complete', '[]', parent, at,
      answer, body.conversationId, 'assistant', '', 'streaming', '[]', question, question, at, lease, defaultConfig.leaseMs / 1000,
      OFFLINE_MODEL_ID, OFFLINE_LABEL,
    ]);
    return true;
  });
  if (!found) return json(response, 404, { code: 404, msg: 'Conversation not found', success: false });
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(event({ type: 'start', conversationId: body.conversationId, userMessageId: question, replyMessageId: answer }));
  held.push(async () => {
    const text = 'Load test answer.';
    await client.query(STORE_ANSWER, [text, searchableContent(text), 'complete', null, null, null, answer, 'streaming', lease]);
    response.write(event({ type: 'delta', messageId: answer, text }));
    response.end(event({ type: 'end', messageIds: [question, answer] }));
  });
}

const server = createServer((request, response) => {
  let text = '';
  request.setEncoding('utf8');
  request.on('data', (piece) => (text += piece));
  request.on('end', () => {
    const visitor = String(request.headers['x-visitor-id'] ?? '');
    const handled =
      request.url === '/__floor/release'
        ? Promise.all(held.splice(0).map((end) => end())).then(() => json(response, 200, { released: true }))
        : request.url === CREATE_PATH
          ? create(visitor, request.socket.remoteAddress ?? '', response)
          : ask(visitor, request.socket.remoteAddress ?? '', JSON.parse(text), response);
    handled.catch((error: unknown) => {
      if (!response.headersSent) json(response, 500, { code: 500, msg: String(error), success: false });
      else response.end();
    });
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`running at http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
const stop = () => (clearInterval(upkeep), server.closeAllConnections(), server.close(() => void database.close().then(() => process.exit(0))));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
