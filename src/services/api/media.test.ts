import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { endpoints } from '../../contract/endpoints';
import { db, issueToken, seedUser } from '../../../tests/msw/db';
import { recordRequests, server } from '../../../tests/msw/server';
import { setToken } from '../cookies';
import { ApiError } from '../http';
import { uploadFileWithProgress } from './media';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'cat.png', { type: 'image/png' });

describe('uploadFileWithProgress', () => {
  it('uploads with the visitor header and answers the stored file', async () => {
    const seen = recordRequests();
    const ref = await uploadFileWithProgress(png());
    // jsdom's XMLHttpRequest loses the part's name on the way to msw; the browser tests check it.
    expect(ref.url).toContain(ref.fileId);
    expect(db.uploads.get(ref.fileId)).toEqual(ref);
    const request = seen.find((item) => item.pathname === endpoints.upload.path);
    expect(request?.headers.get('x-visitor-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers.get('authorization')).toBeNull();
  });

  it('sends the bearer token when signed in and reports the bytes sent, ending at the full size', async () => {
    const { user } = seedUser();
    setToken(issueToken(user.id));
    const seen = recordRequests();
    const onProgress = vi.fn();
    await uploadFileWithProgress(png(), { onProgress });
    expect(seen.at(-1)?.headers.get('authorization')).toMatch(/^Bearer token-/);
    expect(onProgress).toHaveBeenLastCalledWith(7, 7);
  });

  it("rejects with the server's message and status when the upload is refused", async () => {
    server.use(
      http.post(endpoints.upload.path, () =>
        HttpResponse.json({ code: 1, msg: 'The file is too large: the limit is 20 MB.', data: null, success: false }, { status: 413 }),
      ),
    );
    const error = await uploadFileWithProgress(png()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 413, description: 'The file is too large: the limit is 20 MB.' });
  });

  it('rejects an envelope that says failure even with HTTP 200', async () => {
    server.use(http.post(endpoints.upload.path, () => HttpResponse.json({ code: 1, msg: 'Refused by policy', data: null })));
    await expect(uploadFileWithProgress(png())).rejects.toMatchObject({ description: 'Refused by policy' });
  });

  it('rejects a network failure without a status', async () => {
    server.use(http.post(endpoints.upload.path, () => HttpResponse.error()));
    const error = await uploadFileWithProgress(png()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBeUndefined();
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(uploadFileWithProgress(png(), { signal: controller.signal })).rejects.toBeInstanceOf(ApiError);
  });
});
