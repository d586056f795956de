import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/constants';
import { endpoints } from '../../src/contract/endpoints';
import { defaultConfig } from '../config';
import { openHarness, type TestApp } from '../test/harness';

const KB = 1024;
const CREATE = '/api/workflow/im/conversation/create';
const CHAT = '/api/workflow/sse/agent/chat';

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
});
afterAll(() => h.close());

type Ref = { fileId: string; name: string; url: string; kind: string; mimeType: string; size: number };

async function upload(t: TestApp, who: Record<string, string>, size: number): Promise<{ status: number; ref: Ref }> {
  const form = new FormData();
  form.set('file', new File([new Uint8Array(size).fill(65)], 'notes.txt'));
  const response = await t.raw(endpoints.upload.path, { method: 'POST', body: form, headers: who });
  return { status: response.status, ref: ((await response.json()) as { data: Ref }).data };
}

/** A new conversation of `who` whose question attaches `files`; answers its id. */
async function askWith(t: TestApp, who: Record<string, string>, files: Ref[]): Promise<string> {
  const conversationId = (await t.post(CREATE, { sourceId: DEFAULT_AGENT_ID }, who)).body.data.conversationId as string;
  const reply = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...who },
    body: JSON.stringify({ conversationId, agentId: DEFAULT_AGENT_ID, text: 'Read this', files }),
  });
  expect(await reply.text()).toContain('"type":"end"');
  return conversationId;
}

const deleteConversation = (t: TestApp, who: Record<string, string>, conversationId: string) =>
  t.post(endpoints.conversationDelete.path, { conversationId }, who);
const deleteUpload = (t: TestApp, who: Record<string, string>, fileId: string) => t.post(endpoints.uploadDelete.path, { fileId }, who);
const served = async (t: TestApp, ref: Ref, who: Record<string, string>) => (await t.raw(ref.url, { headers: who })).status;

describe('deleting a conversation', () => {
  it('deletes its attachments, bytes and all, and frees the room they took', async () => {
    const t = h.makeApp({ config: { visitorQuotas: { ...defaultConfig.visitorQuotas, storedBytes: 10 * KB } } });
    const visitor = h.visitor();
    const { ref } = await upload(t, visitor, 6 * KB);
    const conversationId = await askWith(t, visitor, [ref]);
    expect((await upload(t, visitor, 6 * KB)).status).toBe(429);

    expect((await deleteConversation(t, visitor, conversationId)).status).toBe(200);
    expect(await served(t, ref, visitor)).toBe(404);
    expect(await t.storage.get(ref.fileId)).toBeNull();
    expect((await upload(t, visitor, 6 * KB)).status).toBe(200);
  });

  it('keeps a file another of the owner’s conversations (or their avatar) still uses, until nothing does', async () => {
    const t = h.makeApp();
    const user = await h.loggedIn(t);
    const { ref: shared } = await upload(t, user.headers, KB);
    const first = await askWith(t, user.headers, [shared]);
    const second = await askWith(t, user.headers, [shared]);
    const png = new FormData();
    png.set('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], 'me.png'));
    const avatar = ((await (await t.raw(endpoints.upload.path, { method: 'POST', body: png, headers: user.headers })).json()) as { data: Ref }).data;
    expect((await t.post(endpoints.userUpdate.path, { avatar: avatar.url }, user.headers)).status).toBe(200);
    const third = await askWith(t, user.headers, [avatar]);

    await deleteConversation(t, user.headers, first);
    expect(await served(t, shared, user.headers)).toBe(200);
    await deleteConversation(t, user.headers, second);
    expect(await served(t, shared, user.headers)).toBe(404);
    await deleteConversation(t, user.headers, third);
    expect(await served(t, avatar, user.headers)).toBe(200);
  });
});

describe('deleting an upload', () => {
  it('is for its owner only: a stranger, a member of another organisation, a visitor and nobody are told it does not exist', async () => {
    const t = h.makeApp({ config: { userQuotas: { ...defaultConfig.userQuotas, storedBytes: 10 * KB } } });
    const owner = await h.operator(t);
    const { ref } = await upload(t, owner.headers, 6 * KB);
    const conversationId = await askWith(t, owner.headers, [ref]);
    const share = await t.post(endpoints.shareCreate.path, { conversationId }, owner.headers);
    expect(share.status).toBe(200);

    const stranger = (await h.loggedIn(t)).headers;
    const otherOrganisation = (await h.operator(t, { companyId: await h.newCompany('Elsewhere') })).headers;
    for (const who of [stranger, otherOrganisation, h.visitor()]) {
      const refused = await deleteUpload(t, who, ref.fileId);
      expect(refused.status).toBe(404);
      expect(refused.body.msg).toBe('File not found');
    }
    expect((await deleteUpload(t, {}, ref.fileId)).status).toBe(401);
    expect(await served(t, ref, owner.headers)).toBe(200);
    // a share shows the file by name only: no address to fetch it by, live or revoked
    const shared = await t.get(endpoints.sharedConversation.path, { token: share.body.data.token });
    expect(JSON.stringify(shared.body.data)).not.toContain(ref.fileId);
    await t.post(endpoints.shareRevoke.path, { shareId: share.body.data.shareId }, owner.headers);
    expect((await t.get(endpoints.sharedConversation.path, { token: share.body.data.token })).status).toBe(404);

    expect((await deleteUpload(t, owner.headers, ref.fileId)).status).toBe(200);
    expect(await served(t, ref, owner.headers)).toBe(404);
    expect(await t.storage.get(ref.fileId)).toBeNull();
    expect((await deleteUpload(t, owner.headers, ref.fileId)).status).toBe(404);
    // its room is free again, and the conversation says the file is gone
    expect((await upload(t, owner.headers, 6 * KB)).status).toBe(200);
  });
});

describe('serving a file', () => {
  it('is never cached publicly, and is checked again at each use, so a deleted file is gone at once', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const { ref } = await upload(t, visitor, KB);
    const first = await t.raw(ref.url, { headers: visitor });
    const cache = first.headers.get('cache-control')!;
    expect(cache).toMatch(/\bprivate\b/);
    expect(cache).toMatch(/\bno-cache\b/);
    expect(cache).not.toMatch(/public|immutable|max-age=[1-9]/);
    const etag = first.headers.get('etag')!;
    const again = await t.raw(ref.url, { headers: { 'if-none-match': etag, ...visitor } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe(cache);

    await deleteUpload(t, visitor, ref.fileId);
    expect((await t.raw(ref.url, { headers: { 'if-none-match': etag, ...visitor } })).status).toBe(404);
  });
});

describe('who a file is served to', () => {
  it('its owner, by header or by the SPA’s cookies; to no stranger, other organisation, other visitor, nobody, nor a share’s reader', async () => {
    const t = h.makeApp();
    const owner = await h.operator(t);
    const { ref } = await upload(t, owner.headers, KB);
    const conversationId = await askWith(t, owner.headers, [ref]);
    const share = (await t.post(endpoints.shareCreate.path, { conversationId }, owner.headers)).body.data as { token: string; shareId: string };
    const colleague = (await h.operator(t)).headers;
    const stranger = (await h.loggedIn(t)).headers;
    const otherOrganisation = (await h.operator(t, { companyId: await h.newCompany('Elsewhere') })).headers;
    const visitorOwner = h.visitor();
    const { ref: visitorFile } = await upload(t, visitorOwner, KB);

    expect(await served(t, ref, owner.headers)).toBe(200);
    expect(await served(t, ref, { cookie: `ai-chat-ops-token=${owner.token}` })).toBe(200);
    expect(await served(t, visitorFile, visitorOwner)).toBe(200);
    expect(await served(t, visitorFile, { cookie: `ai-chat-ops-visitor=${visitorOwner['x-visitor-id']}` })).toBe(200);
    const others: Record<string, string>[] = [colleague, stranger, otherOrganisation, h.visitor(), {}, { cookie: 'ai-chat-ops-token=not-a-session-token-at-all' }];
    for (const who of others) {
      expect(await served(t, ref, who)).toBe(404);
      expect(await served(t, visitorFile, who)).toBe(404);
    }
    // a share's reader holds its token, which names no file: the link gives no way in, live or revoked
    expect(JSON.stringify((await t.get(endpoints.sharedConversation.path, { token: share.token })).body.data)).not.toContain(ref.fileId);
    expect(await served(t, ref, {})).toBe(404);
    await t.post(endpoints.shareRevoke.path, { shareId: share.shareId }, owner.headers);
    expect(await served(t, ref, {})).toBe(404);
  });

  it('a task’s image to its organisation, and an avatar to anyone', async () => {
    const t = h.makeApp();
    const owner = await h.operator(t);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    const send = async (who: Record<string, string>) => {
      const form = new FormData();
      form.set('file', new File([png], 'picture.png'));
      return ((await (await t.raw(endpoints.upload.path, { method: 'POST', body: form, headers: who })).json()) as { data: Ref }).data;
    };
    const image = await send(owner.headers);
    expect((await t.post(endpoints.taskCreate.path, { platform: 'linkedin', title: 'Launch', images: [{ fileId: image.fileId }] }, owner.headers)).status).toBe(200);
    const colleague = (await h.operator(t)).headers;
    const otherOrganisation = (await h.operator(t, { companyId: await h.newCompany('Elsewhere') })).headers;
    expect(await served(t, image, colleague)).toBe(200);
    expect(await served(t, image, otherOrganisation)).toBe(404);
    expect(await served(t, image, h.visitor())).toBe(404);

    const face = await send(owner.headers);
    expect(await served(t, face, h.visitor())).toBe(404);
    await t.post(endpoints.userUpdate.path, { avatar: face.url }, owner.headers);
    expect(await served(t, face, h.visitor())).toBe(200);
    expect(await served(t, face, {})).toBe(200);
  });
});
