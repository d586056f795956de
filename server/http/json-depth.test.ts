import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness } from '../test/harness';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

const CREATE = '/api/workflow/im/conversation/create';
const nested = (depth: number) => `{"sourceId":"SpecialNoAgentFallback","title":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

describe('a deeply nested JSON body', () => {
  it('is refused with 400 naming the problem, before it is parsed, for an unclosed flood and a balanced one alike', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const bodies = ['['.repeat(800_000), `{"a":${'['.repeat(400_000)}${']'.repeat(400_000)}}`, nested(MAX_JSON_DEPTH + 1)];
    for (const body of bodies) {
      const reply = await t.post(CREATE, body, visitor);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ code: 1, success: false, msg: `Invalid request: the body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.` });
    }
    expect(t.logs.filter((line) => line.startsWith('error:'))).toEqual([]);
  });

  it('is read as before up to the limit, and brackets inside strings do not count', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    // Nesting the schema does not want, but not too deep: the schema's own words.
    const atLimit = await t.post(CREATE, nested(MAX_JSON_DEPTH), visitor);
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.msg).toMatch(/^Invalid request: title: /);
    const bracketsInText = await t.post(CREATE, { sourceId: 'SpecialNoAgentFallback', title: `${'[{'.repeat(40)}"\\` }, visitor);
    expect(bracketsInText.status).toBe(200);
  });

  it('is judged by one pass that skips strings and escaped quotes', () => {
    expect(nestsDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestsDeeperThan('[[[[]]]]', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[\\"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('[[],[],[],[]]', 2)).toBe(false);
  });
});
