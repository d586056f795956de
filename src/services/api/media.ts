import type { Envelope } from '../../contract/envelope';
import { routes } from '../../contract/routes';
import type { FileRef } from '../../contract/media';
import { ApiError, apiUrl, authHeaders, call, unwrap, type CallOptions } from '../http';
import { retryAfterSeconds } from '../retry-after';

/** Deletes one of the caller's uploads: its bytes go, and its room is free again. */
export const deleteUpload = (fileId: string, options?: CallOptions) => call('uploadDelete', { fileId }, options);

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
    xhr.open('POST', apiUrl(routes.upload.path));
    for (const [name, value] of Object.entries(authHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size);
    const contract = import('../../contract/endpoints');
    xhr.onload = async () => {
      const body = parseBody(xhr.responseText);
      try {
        if (xhr.status < 200 || xhr.status >= 300) {
          const envelope = typeof body === 'object' && body ? (body as Partial<Envelope<unknown>>) : null;
          const description = envelope?.msg || (typeof body === 'string' && body) || xhr.statusText || `HTTP ${xhr.status}`;
          const retryAfter = retryAfterSeconds(xhr.getResponseHeader('retry-after'));
          throw new ApiError(description, { status: xhr.status, code: envelope?.code, description, retryAfterSeconds: retryAfter });
        }
        const checked = (await contract).checkAnswer('upload', unwrap(body as Envelope<unknown>, xhr.status));
        if (!checked.valid) throw new ApiError(`Unexpected answer from ${routes.upload.path}`, { description: checked.issues });
        onProgress?.(file.size, file.size);
        resolve(checked.data as FileRef);
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
