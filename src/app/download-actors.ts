import { fromCallback, fromPromise } from 'xstate';
import { downloadPageMachine } from '../machines/download-page.machine';
import { webAppInstallMachine, type WebAppInstallEvent } from '../machines/web-app-install.machine';
import { getDownloadManifest } from '../services/api/app';
import { promptInstall, watchInstallPrompt } from '../services/install-prompt';

/** The download page's machine with its one call, the manifest of releases. */
export const downloadPageLogic = downloadPageMachine.provide({
  actors: { fetchManifest: fromPromise(({ signal }) => getDownloadManifest({ silent: true, signal })) },
});

/** Installing the web app with this window's install offer. */
export const webAppInstallLogic = webAppInstallMachine.provide({
  actors: {
    installNews: fromCallback<WebAppInstallEvent>(({ sendBack }) => watchInstallPrompt(sendBack)),
    promptInstall: fromPromise(() => promptInstall()),
  },
});
