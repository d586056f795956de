import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { startFakeGoogle, type FakeGoogleUser } from '../../server/auth/fake-google';
import { createOfflineResponder } from '../../server/agents/offline-responder';
import type { AgentRuntime } from '../../server/agents/runtime';
import { startServer } from '../../server/start';
import { generousLimits } from '../load/generous-limits';
import { holdableAnswers } from './held-answers';

export const E2E_DEMO = { username: 'e2e-demo@kraken.local', password: 'e2e-Password-2026' };

/** The accounts the fake Google's consent page offers: the demo person (same verified address) and a newcomer. */
export const E2E_GOOGLE_USERS: FakeGoogleUser[] = [
  { sub: 'e2e-google-demo', email: E2E_DEMO.username, email_verified: true, name: 'Demo on Google', picture: '' },
  { sub: 'e2e-google-newcomer', email: 'grace.newcomer@gmail.example', email_verified: true, name: 'Grace Newcomer', picture: '' },
];

/** A port free on loopback now: Google's redirect URI must name the server's address before it starts. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export type E2EServer = {
  url: string;
  demo: typeof E2E_DEMO;
  /**
   * Holds answers at the end of their first line, for a test that must act mid-answer (see
   * held-answers.ts); `writeWith` has another runtime write them (a spec's replayed corpus, answers
   * the test ends), until `writeWith()` puts the offline responder back.
   */
  answers: { hold: () => void; release: () => void; writeWith: (runtime?: AgentRuntime) => void };
  close: () => Promise<void>;
};

/**
 * One real server for a Playwright worker's browser tests: the built SPA, a fresh embedded
 * database in a temp folder, the offline responder answering with a short delay so streaming is
 * visible (a test can hold an answer or have another runtime write, see fixtures.ts), and a fake
 * Google on loopback. Each
 * worker has its own, so specs running side by side never see each other's chats, sessions or
 * limits.
 */
export async function startE2EServer(): Promise<E2EServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kraken-e2e-'));
  const port = await freePort();
  // Google sign-in against a local fake of Google on loopback, returning to this server's /login/google.
  const google = await startFakeGoogle({
    clientId: 'e2e-client.apps.googleusercontent.example',
    clientSecret: 'e2e-google-secret',
    redirectUri: `http://127.0.0.1:${port}/login/google`,
    users: E2E_GOOGLE_USERS,
  });
  const offline = createOfflineResponder(5);
  let writer: AgentRuntime = offline;
  // A spec whose answers must be its own (a replayed corpus, answers the test ends) swaps the
  // writer for its tests instead of starting a server of its own: that is all that differed.
  const answers = holdableAnswers({ label: offline.label, streamAnswer: (input) => writer.streamAnswer(input) });
  const server = await startServer({
    port,
    host: '127.0.0.1',
    dataDir,
    env: { ...process.env, LLM_BASE_URL: '', DATABASE_URL: '' },
    // Every browser test logs in from 127.0.0.1: with the production limit (5 failures a minute per
    // address) the wrong-password steps of different specs would lock out the next spec. The
    // limit itself is proven by the server suites (server/test/abuse.test.ts, routes/auth.test.ts).
    // The same holds for the question and upload quotas: every spec asks from 127.0.0.1, many as
    // one visitor (server/test/quotas.test.ts proves the quotas), and every WeChat sign-in
    // (server/wechat/official-api.test.ts proves its limit).
    config: { loginMaxFailures: 1000, loginMaxFailuresPerAddress: 1000, wechatLoginsPerMinute: 1000, ...generousLimits, google: google.config },
    runtime: answers.runtime,
    demo: E2E_DEMO,
    // Several builds can coexist: E2E_SPA_DIR points the tests at one of them (default dist/).
    ...(process.env.E2E_SPA_DIR ? { spaDir: process.env.E2E_SPA_DIR } : {}),
    log: () => undefined,
  });
  return {
    url: server.url,
    demo: E2E_DEMO,
    answers: {
      hold: answers.hold,
      release: answers.release,
      writeWith: (runtime) => {
        writer = runtime ?? offline;
      },
    },
    close: async () => {
      await server.close();
      await google.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
