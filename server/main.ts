import { exposureOf } from './net/public-address';
import { signInSummary } from './sign-in-summary';
import { demoAccountLines } from './seed/demo-account';
import { startServer } from './start';

/** `npm start` / `npm run serve`: the SPA and the API on one port. */
async function main() {
  const env = process.env;
  const port = env.PORT ? Number(env.PORT) : 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  const dataDir = env.DATA_DIR || './.data';
  // Loopback unless told otherwise: a first start on someone's machine is not open to their network.
  const host = env.HOST || '127.0.0.1';
  const server = await startServer({ port, host, dataDir });

  // JSON logs (LOG_FORMAT=json, the default off a terminal) stay one object a line, banner included.
  const say = (lines: string[], fields: Record<string, unknown> = {}) => {
    if (server.config.logFormat !== 'json') return console.log(lines.join('\n'));
    const [msg, ...rest] = lines.map((line) => line.trim()).filter(Boolean);
    console.log(JSON.stringify({ level: 'info', time: new Date().toISOString(), instance: server.instanceId, msg, ...fields, ...(rest.length ? { details: rest } : {}) }));
  };
  const db = env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${dataDir}/pglite`;
  const exposure = exposureOf(env, host);
  say(
    [
      `\nKraken chat is running at ${server.url}`,
      exposure ? `  reachable from other machines (${exposure.detail})` : '  reachable from this machine only (HOST=0.0.0.0 opens it to others)',
      `  database: ${db}`,
      `  answers:  ${server.runtimeLabel}`,
      `  files:    ${server.filesLabel}`,
      `  instance: ${server.instanceId} (on every log line; /metrics for this instance)`,
      ...demoAccountLines(server.demo, dataDir, { reachable: exposure !== null }),
      ...signInSummary(server.config, host),
      '',
    ],
    { url: server.url },
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      say([`${signal} received again: exiting now, without waiting for running answers.`]);
      process.exit(1);
    }
    stopping = true;
    const grace = server.config.shutdownGraceMs / 1000;
    say([`\n${signal} received, shutting down: running answers get up to ${grace} s to finish (SHUTDOWN_GRACE_SECONDS)...`]);
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error) => {
  console.error(`The server could not start: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
