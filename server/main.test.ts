import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVE_ARGS } from './test/serve-command';
import { SIMULATOR_APP_ID, SIMULATOR_AUTHORIZE_PATH } from './wechat/simulator';
import { WECHAT_NOT_CONFIGURED } from './wechat/routes';

const started: { child: ChildProcess; dataDir: string }[] = [];
afterEach(async () => {
  for (const { child, dataDir } of started.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** `npm run serve` as an operator runs it: only the variables given here, on a free port. */
async function serve(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-main-'));
  const child = spawn(process.execPath, SERVE_ARGS, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push({ child, dataDir });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      // The start's banner: lines at a terminal (LOG_FORMAT=pretty), one JSON line otherwise.
      if (/sign-in:[\s\S]*\n\n|"msg":"Kraken chat is running at[^\n]*\n/.test(output)) resolve();
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', () => reject(new Error(`the server stopped:\n${output}`)));
  });
  const port = output.match(/running at http:\/\/[^:]+:(\d+)/)![1];
  return { output, base: `http://127.0.0.1:${port}` };
}

const consentQuery = new URLSearchParams({ appid: SIMULATOR_APP_ID, redirect_uri: 'http://127.0.0.1/login', response_type: 'code', scope: 'snsapi_userinfo', state: 's' });

describe('npm start / npm run serve', { timeout: 60_000 }, () => {
  it('listens on loopback by default, runs the WeChat simulator there, and says it is not for production', async () => {
    const { output, base } = await serve({});
    expect(output).toMatch(/running at http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('reachable from this machine only (HOST=0.0.0.0 opens it to others)');
    expect(output).toMatch(/password\s+on/);
    expect(output).toMatch(/WeChat\s+on, SIMULATOR/);
    expect(output).toContain('NOT for production');
    expect((await fetch(`${base}${SIMULATOR_AUTHORIZE_PATH}?${consentQuery}`)).status).toBe(200);
  });

  it('on HOST=0.0.0.0 without a WeChat app, refuses simulated WeChat sign-in and says why', async () => {
    const { output, base } = await serve({ HOST: '0.0.0.0' });
    expect(output).toMatch(/WeChat\s+off: other machines reach this server \(listening on 0\.0\.0\.0\)/);
    expect(output).not.toContain('NOT for production');
    const config = await fetch(`${base}/api/system/openapi/wx/config?url=${encodeURIComponent(`${base}/`)}`);
    expect(config.status).toBe(503);
    expect((await config.json()).msg).toBe(WECHAT_NOT_CONFIGURED);
    const login = await fetch(`${base}/api/system/auth/wx-login?code=anything`);
    expect(login.status).toBe(503);
    const consent = await fetch(`${base}${SIMULATOR_AUTHORIZE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ redirect_uri: `${base}/login`, state: 's', name: 'Anyone' }).toString(),
      redirect: 'manual',
    });
    expect(consent.status).toBe(404);
  });

  it('writes one JSON object a line off a terminal (LOG_FORMAT=json), the start banner and the stop included', async () => {
    const { output, base } = await serve({});
    await fetch(`${base}/api/workflow/agent/published-list`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const child = started.at(-1)!.child;
    let all = output;
    child.stdout!.on('data', (chunk) => (all += chunk));
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    const lines = all.split('\n').filter((line) => line.trim() !== '');
    const parsed = lines.map((line) => JSON.parse(line) as { level: string; msg: string; instance: string; details?: string[] });
    const banner = parsed.find((entry) => entry.msg.startsWith('Kraken chat is running at'))!;
    expect(banner).toMatchObject({ level: 'info', url: base });
    expect(banner.details).toContain('reachable from this machine only (HOST=0.0.0.0 opens it to others)');
    expect(parsed.some((entry) => entry.msg.startsWith('SIGTERM received, shutting down'))).toBe(true);
    expect(new Set(parsed.map((entry) => entry.instance)).size).toBe(1);
  });

  it('on loopback behind a proxy, as beside nginx on one machine, serves the world: no demo admin, sign-up by invitation, no simulator', async () => {
    for (const env of [{ TRUST_PROXY: '1' }, { PUBLIC_URL: 'https://chat.example.com' }] as Record<string, string>[]) {
      const { output, base } = await serve(env);
      expect(output).toMatch(/running at http:\/\/127\.0\.0\.1:\d+/);
      expect(output).toContain(`reachable from other machines (${Object.entries(env)[0]!.join('=')})`);
      expect(output).toContain('no demo account on a server reachable from other machines');
      expect(output).not.toMatch(/password: /);
      expect(output).toMatch(/WeChat\s+off: other machines reach this server/);
      const options = await (await fetch(`${base}/api/system/auth/login-options`)).json();
      expect(options.data.signup).toBe('invite');
      const login = await fetch(`${base}/api/system/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo@kraken.local', password: 'anything-at-all' }),
      });
      expect(login.status).toBe(401);
    }
  });

  it('runs the simulator on HOST=0.0.0.0 only when WECHAT_SIMULATOR=on says so, with the warning', async () => {
    const { output, base } = await serve({ HOST: '0.0.0.0', WECHAT_SIMULATOR: 'on' });
    expect(output).toMatch(/WeChat\s+on, SIMULATOR/);
    expect(output).toContain('NOT for production');
    expect((await fetch(`${base}${SIMULATOR_AUTHORIZE_PATH}?${consentQuery}`)).status).toBe(200);
  });
});
