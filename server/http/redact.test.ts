import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { safeLog } from './log-line';
import { redactSecrets } from './redact';

const token = () => randomBytes(32).toString('base64url');

describe('a log line', () => {
  it('loses every secret by its shape, wherever a caller put it', () => {
    const share = token();
    const scan = randomBytes(24).toString('base64url');
    const fingerPrint = randomUUID();
    const session = randomUUID();
    const cases: [string, string][] = [
      [`GET /share/${share} 200 3ms`, share],
      [`GET /api/share/${share}?utm=x 404 1ms`, share],
      [`GET /scan-approval?scanId=${scan}&lang=fr 200 1ms`, scan],
      [`{"scanid":"${scan}","fingerPrint":"${fingerPrint}"}`, fingerPrint],
      [`register-login?fingerprint=${fingerPrint}`, fingerPrint],
      [`scan login approved by session ${session}`, session],
      [`sessionId=${session}`, session],
      [`mail failed: open https://chat.example.com/reset-password?token=${share} now`, share],
      [`invite https://chat.example.com/login?invitation=${share}`, share],
      [`google: /login/google?code=4/0Ab-xyz&state=${scan}`, scan],
      [`upstream said: authorization: Bearer ${share}`, share],
      [`headers {"authorization":"Basic dXNlcjpwYXNz","cookie":"sid=abc123"}`, 'dXNlcjpwYXNz'],
      [`Cookie: sid=s3cr3t-value; theme=dark`, 's3cr3t-value'],
      // A failed query at debug lists its parameters; a token among them has a token's shape.
      [`Failed query: select * from shares where token = $1\nparams: ${share}`, share],
    ];
    for (const [line, secret] of cases) {
      const shown = redactSecrets(line);
      expect(shown, line).not.toContain(secret);
      expect(shown, line).toContain('[hidden]');
    }
  });

  it('keeps what an operator reads: routes, ids of rows, references, words and addresses', () => {
    const conversationId = randomUUID();
    for (const line of [
      'POST /api/workflow/agent-im/share/create 200 12ms',
      'GET /api/workflow/share/detail 404 2ms',
      'GET /api/workflow/agent/detail?agentId=SpecialNoAgentFallback&lang=fr 200 3ms',
      `answers: 2 answer(s) whose writer was gone stored incomplete: ${conversationId}, ${randomUUID()}`,
      'error: ref 7F3K-92QA: POST /api/x: TypeError: boom\n    at handler (/work/main/server/routes/chat.ts:12:5)',
      'login: slowing down an account after 6 failures from 2 addresses',
      'publishing: each company’s tasks with its own connectors; checking every 60 s',
    ]) {
      expect(redactSecrets(line)).toBe(line);
    }
  });

  it('is hidden before it is escaped by the one sink every line goes through', () => {
    const lines: string[] = [];
    const share = token();
    safeLog((line) => lines.push(line))(`GET /share/${share}\nforged`, { path: `/share/${share}` });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(share);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'GET /share/[hidden]\\nforged', path: '/share/[hidden]' });
  });
});
