import { call, type CallOptions } from '../http';

/** The models the caller may use (names and capabilities, the default marked), as a model picker lists them. */
export const listUsableModels = (options?: CallOptions) => call('modelList', undefined, options);
