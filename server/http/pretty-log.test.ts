import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv, logFormatFromEnv } from '../config';
import { openHarness } from '../test/harness';
import { safeLog } from './log-line';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

describe('LOG_FORMAT', () => {
  it('pretty writes lines a person reads: time, level, request id, message, then the fields', async () => {
    const t = h.makeApp({ config: { logFormat: 'pretty' } });
    await t.raw('/api/workflow/agent/detail?agentId=SpecialNoAgentFallback', { headers: { 'x-request-id': 'req-9' } });
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[req-9\] GET \/api\/workflow\/agent\/detail 200 \d+ms {2}status=200 durationMs=\d+$/);
    expect(() => JSON.parse(t.lines[0]!)).toThrow();
  });

  it('pretty keeps secrets hidden and control characters escaped, in the message and the fields', () => {
    const lines: string[] = [];
    const log = safeLog((line) => lines.push(line), { format: 'pretty' });
    log('failed for Bearer abc.def-123\nforged line \u001b[31m', { level: 'warn', detail: 'token=s3cr3t-value\r\n' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN {2}failed for Bearer \[hidden\]\\nforged line \\u001b\[31m {2}detail="token=\[hidden\]\\\\r\\\\n"$/);
  });

  it('defaults to pretty at a terminal and JSON otherwise; an unknown format refuses to start', () => {
    expect(logFormatFromEnv(undefined, true)).toBe('pretty');
    expect(logFormatFromEnv('', false)).toBe('json');
    expect(logFormatFromEnv('JSON', true)).toBe('json');
    expect(logFormatFromEnv('pretty', false)).toBe('pretty');
    expect(() => logFormatFromEnv('xml', false)).toThrow(/LOG_FORMAT must be json or pretty/);
    expect(configFromEnv({}, { tty: true }).logFormat).toBe('pretty');
    expect(configFromEnv({ LOG_FORMAT: 'json' }, { tty: true }).logFormat).toBe('json');
    expect(configFromEnv({ METRICS_TOKEN: ' t0ken ' }).metricsToken).toBe('t0ken');
    expect(configFromEnv({}).metricsToken).toBeNull();
  });

  it('json lines below LOG_LEVEL are not written', () => {
    const lines: string[] = [];
    safeLog((line) => lines.push(line), { level: 'info' })('details', { level: 'debug' });
    safeLog((line) => lines.push(line), { level: 'debug' })('details', { level: 'debug' });
    expect(lines.map((line) => JSON.parse(line) as { level: string; msg: string })).toEqual([expect.objectContaining({ level: 'debug', msg: 'details' })]);
  });
});
