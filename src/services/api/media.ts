import { call, type CallOptions } from '../http';

export const uploadFile = (file: File, options?: CallOptions) => {
  const form = new FormData();
  form.append('file', file);
  return call('upload', form, options);
};
