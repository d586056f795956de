import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { FileRef } from '../contract/media';
import type { UpdateUserRequest, UserInfo } from '../contract/users';
import { accountFormMachine, problemsOf } from './account-form.machine';

const ada: UserInfo = { id: 'u1', username: 'ada@example.com', nickname: 'Ada', avatar: '', wechatId: 'ada_l1' };

const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const imageRef = (url = '/api/media/file/f1'): FileRef => ({ fileId: 'f1', name: 'me.png', url, kind: 'image', mimeType: 'image/png', size: 10 });

type Fakes = {
  loadUser?: () => Promise<UserInfo>;
  saveUser?: (request: UpdateUserRequest) => Promise<UserInfo>;
  uploadAvatar?: (file: File) => Promise<FileRef>;
};

const startForm = (fakes: Fakes = {}, uploadLimitBytes = 1000) => {
  const saveUser = vi.fn(fakes.saveUser ?? (async (request: UpdateUserRequest) => ({ ...ada, ...request }) as UserInfo));
  const uploadAvatar = vi.fn(fakes.uploadAvatar ?? (async () => imageRef()));
  const userSaved = vi.fn();
  const actor = createActor(
    accountFormMachine.provide({
      actors: {
        loadUser: fromPromise(fakes.loadUser ?? (async () => ada)),
        saveUser: fromPromise(({ input }) => saveUser(input)),
        uploadAvatar: fromPromise(({ input }) => uploadAvatar(input.file)),
      },
      actions: { userSaved: (_, { user }) => userSaved(user) },
    }),
    { input: { uploadLimitBytes } },
  ).start();
  const ready = () => waitFor(actor, (state) => state.matches({ ready: { form: 'editing' } }));
  const form = () => actor.getSnapshot().value;
  return { actor, saveUser, uploadAvatar, userSaved, ready, form };
};

const png = (size = 10) => new File([new Uint8Array(size)], 'me.png', { type: 'image/png' });

describe('the contract rules, mirrored', () => {
  it.each([
    [{ nickname: '' }, { nickname: 'required' }],
    [{ nickname: '   ' }, { nickname: 'required' }],
    [{ nickname: 'x'.repeat(33) }, { nickname: 'tooLong' }],
    [{ nickname: 'x'.repeat(32) }, {}],
    [{ wechatId: '1abcdef' }, { wechatId: 'format' }],
    [{ wechatId: 'abc' }, { wechatId: 'format' }],
    [{ wechatId: 'a'.repeat(21) }, { wechatId: 'format' }],
    [{ wechatId: 'ada.love' }, { wechatId: 'format' }],
    [{ wechatId: 'ada_lovelace-1' }, {}],
    [{ wechatId: '' }, {}],
    [{ nickname: '', wechatId: '9' }, { nickname: 'required', wechatId: 'format' }],
  ])('%j → %j', (patch, problems) => {
    expect(problemsOf({ nickname: 'Ada', wechatId: '', avatar: '', ...patch })).toEqual(problems);
  });
});

describe('account form', () => {
  it('loads the user, then edits', async () => {
    const { actor, ready } = startForm();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await ready();
    expect(actor.getSnapshot().context).toMatchObject({ username: 'ada@example.com', values: { nickname: 'Ada', wechatId: 'ada_l1', avatar: '' } });
  });

  it('says why it could not load, and loads again on retry', async () => {
    const answers = [async () => Promise.reject(new Error('offline')), async () => ada];
    const { actor, ready } = startForm({ loadUser: () => answers.shift()!() });
    await waitFor(actor, (state) => state.matches('loadFailed'));
    expect(actor.getSnapshot().context.failure).toBe('offline');
    actor.send({ type: 'retry' });
    await ready();
  });

  it('refuses to save invalid fields, names each problem, and clears a problem once its field is edited', async () => {
    const { actor, saveUser, ready } = startForm();
    await ready();
    actor.send({ type: 'field.change', field: 'nickname', value: '' });
    actor.send({ type: 'field.change', field: 'wechatId', value: '1bad' });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().matches({ ready: { form: 'editing' } })).toBe(true);
    expect(actor.getSnapshot().context.problems).toEqual({ nickname: 'required', wechatId: 'format' });
    expect(saveUser).not.toHaveBeenCalled();

    actor.send({ type: 'field.change', field: 'nickname', value: 'Countess' });
    expect(actor.getSnapshot().context.problems).toEqual({ wechatId: 'format' });
  });

  it('saves valid fields, trimmed WeChat id included, and tells the app', async () => {
    const { actor, saveUser, userSaved, ready } = startForm();
    await ready();
    actor.send({ type: 'field.change', field: 'nickname', value: 'Countess' });
    actor.send({ type: 'field.change', field: 'wechatId', value: ' countess_ada ' });
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().matches({ ready: { form: 'saving' } })).toBe(true);
    await waitFor(actor, (state) => state.matches({ ready: { form: 'saved' } }));
    expect(saveUser).toHaveBeenCalledWith({ nickname: 'Countess', wechatId: 'countess_ada' });
    expect(userSaved).toHaveBeenCalledWith(expect.objectContaining({ nickname: 'Countess', wechatId: 'countess_ada' }));
    expect(actor.getSnapshot().context.saved.nickname).toBe('Countess');
  });

  it('keeps everything typed when the save fails, says why, and saves again', async () => {
    const answers = [
      async () => Promise.reject(Object.assign(new Error('HTTP 500'), { description: 'Something went wrong on the server.' })),
      async (request: UpdateUserRequest) => ({ ...ada, ...request }) as UserInfo,
    ];
    const { actor, userSaved, ready } = startForm({ saveUser: (request) => answers.shift()!(request) });
    await ready();
    actor.send({ type: 'field.change', field: 'nickname', value: 'Countess' });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'failed' } }));
    expect(actor.getSnapshot().context).toMatchObject({ failure: 'Something went wrong on the server.', values: { nickname: 'Countess' }, saved: { nickname: 'Ada' } });
    expect(userSaved).not.toHaveBeenCalled();

    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'saved' } }));
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('uploads an avatar image and saves its link; no save while the upload runs', async () => {
    const upload = deferred<FileRef>();
    const { actor, saveUser, ready } = startForm({ uploadAvatar: () => upload.promise });
    await ready();
    actor.send({ type: 'avatar.select', file: png() });
    expect(actor.getSnapshot().matches({ ready: { avatar: 'uploading' } })).toBe(true);
    actor.send({ type: 'save' });
    expect(actor.getSnapshot().matches({ ready: { form: 'editing' } })).toBe(true);

    upload.resolve(imageRef('/api/media/file/new'));
    await waitFor(actor, (state) => state.matches({ ready: { avatar: 'idle' } }));
    expect(actor.getSnapshot().context.values.avatar).toBe('/api/media/file/new');
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'saved' } }));
    expect(saveUser).toHaveBeenCalledWith(expect.objectContaining({ avatar: '/api/media/file/new' }));
  });

  it('refuses a non-image or an oversized avatar before uploading, and an upload the server did not see as an image', async () => {
    const { actor, uploadAvatar, ready } = startForm({ uploadAvatar: async () => ({ ...imageRef(), kind: 'other' }) }, 100);
    await ready();
    actor.send({ type: 'avatar.select', file: new File(['<svg/>'], 'me.svg', { type: 'image/svg+xml' }) });
    expect(actor.getSnapshot().context.avatarProblem?.kind).toBe('notImage');
    actor.send({ type: 'avatar.select', file: png(101) });
    expect(actor.getSnapshot().context.avatarProblem?.kind).toBe('tooLarge');
    expect(uploadAvatar).not.toHaveBeenCalled();

    actor.send({ type: 'avatar.select', file: png(50) });
    expect(actor.getSnapshot().context.avatarProblem).toBeNull();
    await waitFor(actor, (state) => state.matches({ ready: { avatar: 'idle' } }));
    expect(actor.getSnapshot().context).toMatchObject({ avatarProblem: { kind: 'notImage' }, values: { avatar: '' } });
  });

  it.each(['image/png', 'image/jpeg', 'image/gif', 'image/webp'])('uploads a %s avatar', async (type) => {
    const { actor, uploadAvatar, ready } = startForm();
    await ready();
    actor.send({ type: 'avatar.select', file: new File([new Uint8Array(10)], 'me', { type }) });
    expect(actor.getSnapshot().matches({ ready: { avatar: 'uploading' } })).toBe(true);
    expect(uploadAvatar).toHaveBeenCalledTimes(1);
  });

  it('takes an avatar of exactly the upload limit, and names a refusal without a message as such', async () => {
    const { actor, uploadAvatar, ready } = startForm({}, 100);
    await ready();
    actor.send({ type: 'avatar.select', file: new File(['x'], 'me.bmp', { type: 'image/bmp' }) });
    expect(actor.getSnapshot().context.avatarProblem).toEqual({ kind: 'notImage', message: '' });
    actor.send({ type: 'avatar.select', file: png(100) });
    expect(actor.getSnapshot().context.avatarProblem).toBeNull();
    expect(uploadAvatar).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['an Error', new Error('offline'), 'offline'],
    ["the server's description", Object.assign(new Error('x'), { description: 'Nickname taken' }), 'Nickname taken'],
    ['a description that is not text', { description: 42 }, ''],
    ['something that is not an error', 'boom', ''],
    ['nothing', null, ''],
  ])('says what a failed save answered: %s', async (_what, error, message) => {
    const { actor, ready } = startForm({ saveUser: () => Promise.reject(error) });
    await ready();
    actor.send({ type: 'field.change', field: 'nickname', value: 'Ada L' });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'failed' } }));
    expect(actor.getSnapshot().context.failure).toBe(message);
  });

  it('reports an upload the server refused, as too large on 413', async () => {
    const answers = [
      async () => Promise.reject(Object.assign(new Error('x'), { status: 413, description: 'The file is too large: the limit is 20 MB.' })),
      async () => Promise.reject(Object.assign(new Error('x'), { status: 500, description: 'Disk full' })),
    ];
    const { actor, ready } = startForm({ uploadAvatar: () => answers.shift()!() });
    await ready();
    actor.send({ type: 'avatar.select', file: png() });
    await waitFor(actor, (state) => state.context.avatarProblem !== null);
    expect(actor.getSnapshot().context.avatarProblem).toEqual({ kind: 'tooLarge', message: 'The file is too large: the limit is 20 MB.' });
    actor.send({ type: 'avatar.select', file: png() });
    await waitFor(actor, (state) => state.context.avatarProblem?.kind === 'failed');
    expect(actor.getSnapshot().context.avatarProblem?.message).toBe('Disk full');
  });

  it('removes the avatar', async () => {
    const { actor, saveUser, ready } = startForm({ loadUser: async () => ({ ...ada, avatar: '/api/media/file/old' }) });
    await ready();
    actor.send({ type: 'avatar.remove' });
    expect(actor.getSnapshot().context.values.avatar).toBe('');
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'saved' } }));
    expect(saveUser).toHaveBeenCalledWith(expect.objectContaining({ avatar: '' }));
  });

  it('saves a new nickname for someone whose avatar the server gave them, without sending that avatar back', async () => {
    // a simulated WeChat user's avatar is an inline picture longer than any avatar a person may send
    const inline = `data:image/svg+xml;charset=utf-8,${'%3Csvg%3E'.repeat(60)}`;
    const { actor, saveUser, ready } = startForm({ loadUser: async () => ({ ...ada, avatar: inline }) });
    await ready();
    actor.send({ type: 'field.change', field: 'nickname', value: 'Lin' });
    actor.send({ type: 'save' });
    await waitFor(actor, (state) => state.matches({ ready: { form: 'saved' } }));
    expect(saveUser.mock.calls[0]![0]).not.toHaveProperty('avatar');
  });
});
