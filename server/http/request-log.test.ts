import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRuntime } from '../agents/runtime';
import { openHarness } from '../test/harness';
import { escapeForLog } from './log-line';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const LINE = /^(GET|POST) \S+ \d{3} \d+ms$/;
const ANSWER = /^answer: complete after \d+ ms, \d+ characters/;

describe('the request log', () => {
  it('writes one line per request with no login name, chat text, file id or query', async () => {
    const t = h.makeApp();
    const account = await h.loggedIn(t);
    t.clearLogs();
    await t.post('/api/system/auth/login', { username: 'somebody.private@example.com', password: 'hunter2-secret' });
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback', title: 'My diagnosis' }, account.headers)).body.data.conversationId;
    const chat = await t.raw('/api/workflow/sse/agent/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...account.headers },
      body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'my bank PIN is 4711' }),
    });
    await chat.text();
    await t.get('/api/workflow/agent/detail', { agentId: 'SpecialNoAgentFallback', keyword: 'query-secret' });
    const form = new FormData();
    form.set('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'x.png'));
    const fileId = ((await (await t.raw('/api/media/upload', { method: 'POST', headers: account.headers, body: form })).json()) as { data: { fileId: string } }).data.fileId;
    await t.raw(`/api/media/file/${fileId}`, { headers: account.headers });

    // Six requests, and the answer's own line.
    expect(t.logs).toHaveLength(7);
    expect(t.logs.filter((line) => ANSWER.test(line))).toHaveLength(1);
    for (const line of t.logs.filter((line) => !ANSWER.test(line))) expect(line).toMatch(LINE);
    expect(t.logs).toContain(t.logs.find((line) => /^GET \/api\/media\/file\/:fileId 200 \d+ms$/.test(line)));
    // Every field of every line, not only the messages.
    const all = t.lines.join('\n');
    for (const secret of ['somebody.private', 'hunter2-secret', 'My diagnosis', '4711', 'query-secret', fileId, account.token, conversationId]) {
      expect(all).not.toContain(secret);
    }
  });

  it('at LOG_LEVEL=debug adds the query string, hiding codes, states and tokens, and never headers or bodies', async () => {
    const t = h.makeApp({ config: { logLevel: 'debug' } });
    const account = await h.loggedIn(t);
    t.clearLogs();
    await t.get('/api/workflow/agent/detail', { agentId: 'SpecialNoAgentFallback', lang: 'fr' }, account.headers);
    await t.get('/api/system/auth/wx-login', { code: 'wechat-code-123', state: 'abc' });
    await t.post('/api/system/auth/login', { username: 'debug.user@example.com', password: 'pw-in-body' });
    expect(t.logs[0]).toMatch(/^GET \/api\/workflow\/agent\/detail\?agentId=SpecialNoAgentFallback&lang=fr 200 \d+ms$/);
    expect(t.logs[1]).toContain('code=[hidden]&state=[hidden]');
    const all = t.lines.join('\n');
    for (const secret of [account.token, 'wechat-code-123', 'debug.user', 'pw-in-body']) expect(all).not.toContain(secret);
  });

  it('escapes control characters, so no value can forge a line or colour the terminal', async () => {
    const crash: AgentRuntime = {
      label: 'crash',
      // eslint-disable-next-line require-yield
      async *streamAnswer() {
        throw new Error('boom\nGET /api/forged 200 1ms\r\n\u001b[31mred\u001b[0m \u202Eevil');
      },
    };
    const t = h.makeApp({ runtime: crash, config: { logLevel: 'debug' } });
    const visitor = h.visitor();
    await t.raw('/api/nothing%0d%0aGET%20/api/forged%20200%201ms');
    await t.raw('/api/nothing?x=%0d%0aGET%20/api/forged%20200%201ms%1b[2J');
    const conversationId = (await t.post('/api/workflow/im/conversation/create', { sourceId: 'SpecialNoAgentFallback' }, visitor)).body.data.conversationId;
    await (
      await t.raw('/api/workflow/sse/agent/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...visitor },
        body: JSON.stringify({ conversationId, agentId: 'SpecialNoAgentFallback', text: 'hi' }),
      })
    ).text();
    // 4 requests, the chat's error line with its stack and the answer's line: every one a single
    // line as written, and no message (what a pretty log shows first) starts like a request's.
    expect(t.lines).toHaveLength(6);
    for (const line of t.lines) {
      // eslint-disable-next-line no-control-regex
      expect(line).not.toMatch(/[\r\n\u001b\u202e]/);
      expect(line).toBe(JSON.stringify(JSON.parse(line)));
    }
    for (const message of t.logs) {
      // eslint-disable-next-line no-control-regex
      expect(message).not.toMatch(/[\r\n\u001b\u202e]/);
      expect(message.startsWith('GET /api/forged')).toBe(false);
    }
    expect(t.logs.find((line) => line.startsWith('chat: ref'))).toContain('boom\\nGET /api/forged 200 1ms\\r\\n\\u001b[31mred');
  });

  it('escaping keeps ordinary text, accents and CJK as they are', () => {
    expect(escapeForLog('Grüße 你好 — ok')).toBe('Grüße 你好 — ok');
    expect(escapeForLog('a\tb\u0000c\u2028d')).toBe('a\\tb\\u0000c\\u2028d');
  });
});

describe('the error log line', () => {
  it("of a failed query names no parameter value (a login name, a question) unless LOG_LEVEL=debug", async () => {
    const failing = (level: 'info' | 'debug') => {
      const t = h.makeApp({ config: { logLevel: level } });
      // A database that fails every query the way drizzle reports it.
      t.app.get('/boom', async () => {
        const error = Object.assign(new Error('Failed query: select * from users where username = $1\nparams: private.person@example.com'), {
          params: ['private.person@example.com'],
          cause: new Error('relation "users" is locked'),
        });
        throw error;
      });
      return t;
    };
    const info = failing('info');
    const answer = await info.raw('/boom');
    expect(answer.status).toBe(500);
    const ref = /\(ref ([0-9A-Z-]+)\)/.exec(((await answer.json()) as { msg: string }).msg)![1];
    const line = info.logs.find((entry) => entry.startsWith(`error: ref ${ref}`))!;
    expect(line).toContain('select * from users where username = $1');
    expect(line).toContain('caused by: relation "users" is locked');
    expect(line).not.toContain('private.person');

    const debug = failing('debug');
    await debug.raw('/boom');
    expect(debug.logs.join('\n')).toContain('private.person@example.com');
  });
});
