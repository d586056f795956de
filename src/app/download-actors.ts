import { fromPromise } from 'xstate';
import { downloadPageMachine } from '../machines/download-page.machine';
import { getDownloadManifest } from '../services/api/app';

/** The download page's machine with its one call, the manifest of releases. */
export const downloadPageLogic = downloadPageMachine.provide({
  actors: { fetchManifest: fromPromise(({ signal }) => getDownloadManifest({ silent: true, signal })) },
});
