import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { DownloadManifest } from '../contract/app';
import { sampleManifest } from '../../tests/msw/download-manifest';
import { downloadPageMachine } from './download-page.machine';

const start = (platform: 'windows' | 'macos' | 'linux' | null, answers: Array<() => Promise<DownloadManifest>>) =>
  createActor(downloadPageMachine.provide({ actors: { fetchManifest: fromPromise(() => answers.shift()!()) } }), { input: { platform } }).start();

describe('download page', () => {
  it.each(['windows', 'macos', 'linux'] as const)('recommends %s and lists the other two below it', async (platform) => {
    const actor = start(platform, [async () => sampleManifest]);
    const { context } = await waitFor(actor, (state) => state.matches('ready'));
    expect(context.recommended?.platform).toBe(platform);
    expect(context.others.map((release) => release.platform)).toEqual(['windows', 'macos', 'linux'].filter((name) => name !== platform));
  });

  it('recommends nothing for a system without a desktop app, and lists every platform', async () => {
    const actor = start(null, [async () => sampleManifest]);
    const { context } = await waitFor(actor, (state) => state.matches('ready'));
    expect(context.recommended).toBeNull();
    expect(context.others).toHaveLength(3);
    expect(context.releasesPageUrl).toBe(sampleManifest.releasesPageUrl);
  });

  it('recommends nothing when the manifest lacks the visitor’s system', async () => {
    const actor = start('linux', [async () => ({ platforms: sampleManifest.platforms.filter((release) => release.platform !== 'linux') })]);
    const { context } = await waitFor(actor, (state) => state.matches('ready'));
    expect(context.recommended).toBeNull();
    expect(context.others.map((release) => release.platform)).toEqual(['windows', 'macos']);
  });

  it('lists the platforms in the usual order whatever order the manifest gives, and leaves the manifest as it was', async () => {
    const manifest = { platforms: [...sampleManifest.platforms].reverse() };
    const given = manifest.platforms.map((release) => release.platform);
    const actor = start(null, [async () => manifest]);
    const { context } = await waitFor(actor, (state) => state.matches('ready'));
    expect(context.others.map((release) => release.platform)).toEqual(['windows', 'macos', 'linux']);
    expect(manifest.platforms.map((release) => release.platform)).toEqual(given);
    expect(context.releasesPageUrl).toBeNull();
  });

  it('says it failed, and loads again on retry', async () => {
    const actor = start('windows', [async () => Promise.reject(new Error('offline')), async () => sampleManifest]);
    await waitFor(actor, (state) => state.matches('failed'));
    expect(actor.getSnapshot().context.failure).toBe('offline');
    actor.send({ type: 'retry' });
    await waitFor(actor, (state) => state.matches('ready'));
  });
});
