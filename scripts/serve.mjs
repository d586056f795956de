#!/usr/bin/env node
// `npm run serve`: runs the server's build (dist-server/, made by `npm run build`) in this process,
// the one a signal reaches. Several instances may start from one build at once; none builds, so
// none can change the files another is loading. A build older than its sources is refused rather
// than served: the server would not be the code beside it.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUILD = join(ROOT, 'dist-server');

/** Why the build cannot be served, or null. */
function unservable() {
  const stampFile = join(BUILD, 'inputs.json');
  if (!existsSync(join(BUILD, 'main.mjs')) || !existsSync(stampFile)) return 'there is no server build (dist-server/)';
  const { builtAt, inputs } = JSON.parse(readFileSync(stampFile, 'utf8'));
  // A source that is not there is not a change: an image may ship the build without the sources.
  const changed = inputs.find((input) => {
    const path = join(ROOT, input);
    return existsSync(path) && statSync(path).mtimeMs > builtAt;
  });
  return changed ? `${changed} changed after the server was built` : null;
}

const reason = unservable();
if (reason) {
  console.error(`The server could not start: ${reason}. Run \`npm run build\` first (\`npm start\` builds and serves in one go).`);
  process.exit(1);
}
await import(pathToFileURL(join(BUILD, 'main.mjs')).href);
