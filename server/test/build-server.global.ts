import { buildServer } from '../../scripts/build-server.mjs';

/** Vitest's global setup for tests that start the server as a process: its build, once per run. */
export default async function setup() {
  await buildServer();
}
