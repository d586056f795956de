import { join, resolve } from 'node:path';
import { backup, restore } from './backup';

const USAGE = [
  'usage: npm run backup [-- <directory>]      the embedded database and uploads of DATA_DIR (default ./.data),',
  '                                            into a new directory (default ./backups/<time>)',
  '       npm run restore -- <directory>       puts a backup in place in DATA_DIR, with the server stopped',
  'On PostgreSQL (DATABASE_URL), use pg_dump and your bucket\'s own copies: see docs/deploy.md, "Backups".',
];

async function main() {
  const [command, target] = process.argv.slice(2);
  if (process.env.DATABASE_URL) throw new Error('DATABASE_URL is set: this copies the embedded database only.');
  const dataDir = resolve(process.env.DATA_DIR || './.data');
  if (command === 'backup') {
    const out = resolve(target ?? join('backups', new Date().toISOString().replace(/[:.]/g, '-')));
    const manifest = await backup({ dataDir, out });
    console.log(
      `Backed up ${dataDir} into ${out}: the database (${(manifest.databaseBytes / 1e6).toFixed(1)} MB, from the ${manifest.from}) ` +
        `and ${manifest.uploads.files} uploaded files (${(manifest.uploads.bytes / 1e6).toFixed(1)} MB).`,
    );
    return;
  }
  if (command === 'restore' && target) {
    const { manifest, keptAside } = await restore({ dataDir, from: resolve(target) });
    console.log(`Restored the backup of ${manifest.createdAt} into ${dataDir}.`);
    for (const path of keptAside) console.log(`What was there is kept as ${path}`);
    return;
  }
  throw new Error('say what to do');
}

main().catch((error: unknown) => {
  console.error(`${error instanceof Error ? error.message : String(error)}`);
  for (const line of USAGE) console.error(line);
  process.exit(1);
});
