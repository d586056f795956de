import { call, type CallOptions } from '../http';

export const getDownloadManifest = (options?: CallOptions) => call('appDownloadManifest', undefined, options);
