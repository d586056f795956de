import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { downloadManifestSchema } from '../../src/contract/app';
import { openHarness } from '../test/harness';

const MANIFEST = '/api/app/download-manifest';

let h: Awaited<ReturnType<typeof openHarness>>;
let dir: string;
beforeAll(async () => {
  h = await openHarness();
  dir = mkdtempSync(join(tmpdir(), 'downloads-'));
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the download manifest', () => {
  it('is public and, unconfigured, links every platform to installers on this server', async () => {
    vi.stubEnv('DOWNLOAD_MANIFEST', '');
    vi.stubEnv('DOWNLOADS_DIR', dir);
    const reply = await h.makeApp().get(MANIFEST);
    expect(reply.status).toBe(200);
    const manifest = v.parse(downloadManifestSchema, reply.body.data);
    expect(manifest.platforms.map((release) => release.platform)).toEqual(['windows', 'macos', 'linux']);
    for (const file of manifest.platforms.flatMap((release) => release.files)) {
      expect(file.url).toBe(`/downloads/${file.fileName}`);
      expect(file.size).toBeUndefined();
      expect(file.available).toBe(false);
    }
    // none of the installers is here: the manifest says so, and each platform names its oldest systems
    expect(manifest.status).toBe('unavailable');
    expect(manifest.platforms.map((release) => release.minimumSystems)).toEqual([['Windows 10'], ['macOS 12'], ['Ubuntu 22.04', 'Debian 12', 'Fedora 39']]);
  });

  it('gives the real size of an installer that is on the server, and serves it as a download', async () => {
    vi.stubEnv('DOWNLOAD_MANIFEST', '');
    vi.stubEnv('DOWNLOADS_DIR', dir);
    const t = h.makeApp();
    const first = v.parse(downloadManifestSchema, (await t.get(MANIFEST)).body.data).platforms[0]!.files[0]!;
    writeFileSync(join(dir, first.fileName), 'installer bytes');
    const manifest = v.parse(downloadManifestSchema, (await t.get(MANIFEST)).body.data);
    const again = manifest.platforms[0]!.files[0]!;
    expect(again.size).toBe('installer bytes'.length);
    expect(again.available).toBe(true);
    expect(manifest.platforms[0]!.files[1]!.available).toBe(false);
    expect(manifest.status).toBe('partial');

    const response = await t.raw(first.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${first.fileName}"`);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(await response.text()).toBe('installer bytes');
  });

  it('answers a clear 404 for an installer that is not there, and never leaves the folder', async () => {
    vi.stubEnv('DOWNLOADS_DIR', dir);
    const t = h.makeApp();
    const missing = await t.raw('/downloads/kraken-ai-9.9.9-x64.exe');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('not available on this server yet');
    for (const path of ['/downloads/..%2Fsecret', '/downloads/.hidden', '/downloads/%2e%2e']) {
      expect((await t.raw(path)).status).toBe(404);
    }
  });

  it('answers the manifest named by DOWNLOAD_MANIFEST, read on every call', async () => {
    const path = join(dir, 'manifest.json');
    const release = {
      platform: 'linux',
      version: '3.0.0',
      releasedAt: '2026-02-01T00:00:00.000Z',
      files: [{ label: 'AppImage', url: 'https://example.com/kraken-3.0.0.AppImage', fileName: 'kraken-3.0.0.AppImage', size: 42 }],
    };
    writeFileSync(path, JSON.stringify({ platforms: [release], releasesPageUrl: 'https://example.com/releases' }));
    vi.stubEnv('DOWNLOAD_MANIFEST', path);
    const t = h.makeApp();
    expect((await t.get(MANIFEST)).body.data).toEqual({ platforms: [release], releasesPageUrl: 'https://example.com/releases' });
    writeFileSync(path, JSON.stringify({ platforms: [{ ...release, version: '3.0.1' }] }));
    expect((await t.get(MANIFEST)).body.data.platforms[0].version).toBe('3.0.1');
  });

  it('says the downloads are unavailable (and logs why) when the configured manifest is broken', async () => {
    const t = h.makeApp();
    for (const content of ['{ not json', JSON.stringify({ platforms: [{ platform: 'beos' }] }), null]) {
      const path = join(dir, `broken-${Math.random()}.json`);
      if (content !== null) writeFileSync(path, content);
      vi.stubEnv('DOWNLOAD_MANIFEST', path);
      const reply = await t.get(MANIFEST);
      expect(reply.status).toBe(503);
      expect(reply.body).toMatchObject({ code: 1, msg: 'The desktop downloads are not available right now. Please try again later.' });
    }
    expect(t.logs.filter((line) => line.includes('DOWNLOAD_MANIFEST'))).toHaveLength(3);
  });

  it('refuses a manifest link that is neither a path here nor https', async () => {
    const path = join(dir, 'javascript.json');
    writeFileSync(
      path,
      JSON.stringify({
        platforms: [{ platform: 'windows', version: '1', releasedAt: '2026-02-01T00:00:00.000Z', files: [{ label: 'x64', url: 'javascript:alert(1)', fileName: 'a.exe' }] }],
      }),
    );
    vi.stubEnv('DOWNLOAD_MANIFEST', path);
    expect((await h.makeApp().get(MANIFEST)).status).toBe(503);
  });
});
