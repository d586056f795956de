import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config';
import { exposureOf } from '../../server/net/public-address';
import { routes } from '../../src/contract/routes';

/**
 * docs/deploy.md is followed literally by operators (it was walked through on a fresh Debian 12):
 * what it says must stay true of the code and of the software it names.
 */
const guide = readFileSync('docs/deploy.md', 'utf8');
const unit = readFileSync('deploy/kraken@.service', 'utf8');
const between = (text: string, start: string, end: string) => {
  const from = text.indexOf(start);
  expect(from, `"${start}" in docs/deploy.md`).toBeGreaterThanOrEqual(0);
  return text.slice(from + start.length, text.indexOf(end, from + start.length));
};
const nginx = between(guide, '```nginx\n', '```');
/** The site's directives, comments left out. */
const directives = nginx
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean);
/** A `location` block's text. */
const location = (head: string) => between(nginx, `location ${head} {`, '}');
const seconds = (block: string, directive: string) => Number(new RegExp(`${directive}\\s+(\\d+)s;`).exec(block)?.[1]);

describe('the deployment guide', () => {
  it('gives an nginx site that Debian 12’s nginx (1.22) reads: http2 on the listen line, no `http2 on;`', () => {
    expect(directives).toContain('listen 443 ssl http2;');
    expect(directives.some((line) => /^http2\s/.test(line))).toBe(false);
  });

  it('sends the upstream to the ports the systemd instances listen on', () => {
    const port = /^Environment=PORT=(\d+)%i$/m.exec(unit)?.[1];
    expect(port).toBeDefined();
    const upstream = directives.filter((line) => line.startsWith('server ') && line.includes(':'));
    expect(upstream.length).toBeGreaterThanOrEqual(2);
    for (const line of upstream) expect(line).toMatch(new RegExp(`^server 127\\.0\\.0\\.1:${port}\\d\\b`));
    // The workers share what they learn of a silent instance.
    expect(directives).toContain('zone kraken 64k;');
  });

  it('lets answer streams run and stay quiet between heartbeats, and fails any other silent call over quickly', () => {
    const streams = Object.values(routes).filter((route) => 'stream' in route && route.stream);
    expect(streams.length).toBeGreaterThan(0);
    for (const route of streams) expect(route.path.startsWith('/api/workflow/sse/')).toBe(true);
    const sse = location('/api/workflow/sse/');
    expect(seconds(sse, 'proxy_read_timeout') * 1000).toBeGreaterThanOrEqual(2 * defaultConfig.sseHeartbeatMs);
    expect(directives).toContain('proxy_buffering off;');
    expect(directives).toContain('gzip off;');
    const rest = location('/');
    expect(seconds(rest, 'proxy_read_timeout')).toBeLessThanOrEqual(30);
    expect(directives).toContain('location = /metrics { return 404; }');
  });

  it('starts instances through their supervisor, never with `npm run serve &`', () => {
    for (const block of guide.match(/```sh\n[\s\S]*?```/g) ?? []) expect(block).not.toMatch(/npm run serve\s*&/);
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \/opt\/kraken\/scripts\/serve\.mjs$/m);
  });

  it('writes settings that make the server know the world reaches it (no demo admin, no open sign-up)', () => {
    const settings = between(guide, 'cat > /etc/kraken/kraken.env <<EOF\n', 'EOF');
    const env = Object.fromEntries(
      settings
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    expect(env.HOST).toBe('127.0.0.1');
    expect(exposureOf(env, env.HOST)).not.toBeNull();
  });

  const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => spawnSync(path, ['-v']).status === 0);
  it.skipIf(!nginxBinary)('is accepted by the nginx on this machine (`nginx -t`)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kraken-nginx-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=chat.example.com', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    const site = nginx
      .replace('/etc/letsencrypt/live/chat.example.com/fullchain.pem', join(dir, 'cert.pem'))
      .replace('/etc/letsencrypt/live/chat.example.com/privkey.pem', join(dir, 'key.pem'))
      .replace(/listen (80|443)/g, (_, port: string) => `listen 127.0.0.1:${port === '80' ? 18080 : 18443}`);
    writeFileSync(join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n${site}\n}\n`);
    const check = spawnSync(nginxBinary!, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { encoding: 'utf8' });
    expect(check.stderr).toContain('test is successful');
  });
});
