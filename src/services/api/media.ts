import * as v from 'valibot';
import type { Envelope } from '../../contract/envelope';
import { endpoints } from '../../contract/endpoints';
import { fileRefSchema, type FileRef } from '../../contract/media';
import { ApiError, authHeaders, call, unwrap, type CallOptions } from '../http';

export const uploadFile = (file: File, options?: CallOptions) => {
  const form = new FormData();
  form.append('file', file);
  return call('upload', form, options);
};

export type UploadProgress = (loaded: number, total: number) => void;

const parseBody = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/**
 * The upload of `uploadFile`, reporting how many bytes have gone out. fetch cannot report upload
 * progress, so this one call uses XMLHttpRequest, with the same headers and the same envelope
 * handling as every other call: its FileRef on success, an ApiError carrying the server's `msg`
 * (and the HTTP status) otherwise. Aborting the signal aborts the upload.
 */
export const uploadFileWithProgress = (file: File, options: { onProgress?: UploadProgress; signal?: AbortSignal } = {}): Promise<FileRef> =>
  new Promise<FileRef>((resolve, reject) => {
    const { signal, onProgress } = options;
    if (signal?.aborted) {
      reject(new ApiError('aborted', { cause: new DOMException('Aborted', 'AbortError') }));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', endpoints.upload.path);
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onload = () => {
      const body = parseBody(xhr.responseText);
      try {
        if (xhr.status < 200 || xhr.status >= 300) {
          const envelope = typeof body === 'object' && body ? (body as Partial<Envelope<unknown>>) : null;
          const description = envelope?.msg || (typeof body === 'string' && body) || xhr.statusText || `HTTP ${xhr.status}`;
          throw new ApiError(description, { status: xhr.status, code: envelope?.code, description });
        }
        const parsed = v.safeParse(fileRefSchema, unwrap(body as Envelope<unknown>, xhr.status));
        if (!parsed.success) throw new ApiError(`Unexpected answer from ${endpoints.upload.path}`, { description: v.summarize(parsed.issues) });
        onProgress?.(file.size, file.size);
        resolve(parsed.output);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError('Network error', { description: 'Network error' }));
    xhr.onabort = () => reject(new ApiError('aborted', { cause: new DOMException('Aborted', 'AbortError') }));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
