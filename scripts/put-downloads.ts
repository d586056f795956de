/** `npm run downloads:put -- <installer>...`: makes desktop installers downloadable from every instance. */
import { putDownloads } from '../server/media/put-downloads';

const paths = process.argv.slice(2);
if (paths.length === 0) {
  console.error('Usage: npm run downloads:put -- <installer file>...');
  process.exit(2);
}
putDownloads(process.env, paths).then(
  (stored) => {
    for (const line of stored) console.log(`stored ${line}`);
  },
  (error: unknown) => {
    console.error(`Could not store the installers: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  },
);
