import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpoints } from '../src/contract/endpoints';

const doc = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
const sections = new Map(
  doc
    .split(/^### /m)
    .slice(1)
    .map((section) => [section.slice(0, section.indexOf('\n')).trim(), section] as const),
);

describe('docs/api.md', () => {
  it.each(Object.entries(endpoints))('documents %s with its method, path and access', (_name, endpoint) => {
    const section = sections.get(`${endpoint.method} ${endpoint.path}`);
    expect(section, `no "### ${endpoint.method} ${endpoint.path}" section`).toBeDefined();
    expect(section).toContain(`Access: \`${endpoint.access}\``);
  });

  it('documents no endpoint the contract does not have, besides the file download and the WeChat simulator', () => {
    const known = new Set(Object.values(endpoints).map((e) => `${e.method} ${e.path}`));
    const extra = [...sections.keys()].filter((heading) => /^(GET|POST) \//.test(heading) && !known.has(heading));
    expect(extra).toEqual([
      'GET /api/media/file/{fileId}',
      'GET /api/wechat-simulator/authorize',
      'POST /api/wechat-simulator/authorize',
    ]);
  });
});
