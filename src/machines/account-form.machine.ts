import { assertEvent, assign, fromPromise, not, setup, stateIn } from 'xstate';
import * as v from 'valibot';
import { DEFAULT_UPLOAD_LIMIT_BYTES, type FileRef } from '../contract/media';
import { updateUserRequestSchema, type UpdateUserRequest, type UserInfo } from '../contract/users';

export type AccountValues = { nickname: string; wechatId: string; avatar: string };
export type AccountField = 'nickname' | 'wechatId';
/** What is wrong with a field, as a key the screen translates. */
export type FieldProblem = 'required' | 'tooLong' | 'format';
export type FieldProblems = Partial<Record<AccountField, FieldProblem>>;
export type AvatarProblem = { kind: 'notImage' | 'tooLarge' | 'failed'; message: string };

/** The images the server recognises as images (SVG is not one: it can carry script). */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

export type AccountFormContext = {
  /** What the server holds now. */
  saved: AccountValues;
  username: string;
  values: AccountValues;
  problems: FieldProblems;
  /** Why the last save or load failed, in the server's words when it gave any. */
  failure: string | null;
  avatarProblem: AvatarProblem | null;
  uploadLimitBytes: number;
};

export type AccountFormEvent =
  | { type: 'field.change'; field: AccountField; value: string }
  | { type: 'avatar.select'; file: File }
  | { type: 'avatar.remove' }
  | { type: 'save' }
  | { type: 'retry' };

export type AccountFormInput = { uploadLimitBytes?: number };

const valuesOf = (user: UserInfo): AccountValues => ({ nickname: user.nickname, wechatId: user.wechatId ?? '', avatar: user.avatar });

const messageOf = (error: unknown): string => {
  if (error && typeof error === 'object' && 'description' in error && typeof error.description === 'string') return error.description;
  return error instanceof Error ? error.message : '';
};

/**
 * The request a save sends: the same schema the server validates with, so both sides agree. The
 * avatar goes only when it changed: the server accepts only the person's own upload or none, and
 * an avatar it gave them (a provider's inline picture) need not come back.
 */
export const requestOf = (values: AccountValues, saved?: AccountValues): UpdateUserRequest => ({
  nickname: values.nickname,
  wechatId: values.wechatId.trim(),
  ...(saved && values.avatar === saved.avatar ? {} : { avatar: values.avatar }),
});

/** The contract's rules applied here, each broken one named for its field. */
export const problemsOf = (values: AccountValues): FieldProblems => {
  const result = v.safeParse(updateUserRequestSchema, requestOf(values));
  if (result.success) return {};
  const problems: FieldProblems = {};
  for (const issue of result.issues) {
    const field = issue.path?.[0]?.key;
    if (field === 'nickname' && !problems.nickname) {
      problems.nickname = issue.type === 'max_length' ? 'tooLong' : 'required';
    } else if (field === 'wechatId') {
      problems.wechatId = 'format';
    }
  }
  return problems;
};

/**
 * The account form: load the user's details, edit nickname and WeChat id, upload an avatar,
 * validate with the contract's rules, save. A failed save keeps everything typed and says why;
 * a save that worked tells the rest of the app (`userSaved`).
 */
export const accountFormMachine = setup({
  types: {
    context: {} as AccountFormContext,
    events: {} as AccountFormEvent,
    input: {} as AccountFormInput,
  },
  actors: {
    loadUser: fromPromise<UserInfo>(async () => {
      throw new Error('loadUser is provided where the form is used');
    }),
    saveUser: fromPromise<UserInfo, UpdateUserRequest>(async () => {
      throw new Error('saveUser is provided where the form is used');
    }),
    uploadAvatar: fromPromise<FileRef, { file: File }>(async () => {
      throw new Error('uploadAvatar is provided where the form is used');
    }),
  },
  actions: {
    /** The server accepted the new details: the header, the menu and a toast should show them. */
    userSaved: (_, _params: { user: UserInfo }) => undefined,
    load: assign((_, params: { user: UserInfo }) => ({
      saved: valuesOf(params.user),
      values: valuesOf(params.user),
      username: params.user.username,
      failure: null,
    })),
    changeField: assign(({ context, event }) => {
      assertEvent(event, 'field.change');
      const { [event.field]: _fixed, ...problems } = context.problems;
      return { values: { ...context.values, [event.field]: event.value }, problems };
    }),
    checkFields: assign({ problems: ({ context }) => problemsOf(context.values), failure: null }),
    storeSaved: assign((_, params: { user: UserInfo }) => ({ saved: valuesOf(params.user), values: valuesOf(params.user), failure: null })),
    setFailure: assign((_, params: { error: unknown }) => ({ failure: messageOf(params.error) })),
    refuseAvatar: assign((_, params: { kind: AvatarProblem['kind']; message?: string }) => ({
      avatarProblem: { kind: params.kind, message: params.message ?? '' },
    })),
    clearAvatarProblem: assign({ avatarProblem: null }),
    useAvatar: assign(({ context }, params: { url: string }) => ({ values: { ...context.values, avatar: params.url }, avatarProblem: null })),
  },
  guards: {
    hasNoProblems: ({ context }) => Object.keys(context.problems).length === 0,
    isAvatarImage: ({ event }) => event.type === 'avatar.select' && AVATAR_TYPES.includes(event.file.type),
    isAvatarWithinLimit: ({ context, event }) => event.type === 'avatar.select' && event.file.size <= context.uploadLimitBytes,
    isUploadedImage: (_, params: { file: FileRef }) => params.file.kind === 'image',
  },
}).createMachine({
  id: 'accountForm',
  context: ({ input }) => ({
    saved: { nickname: '', wechatId: '', avatar: '' },
    username: '',
    values: { nickname: '', wechatId: '', avatar: '' },
    problems: {},
    failure: null,
    avatarProblem: null,
    uploadLimitBytes: input.uploadLimitBytes ?? DEFAULT_UPLOAD_LIMIT_BYTES,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadUser',
        onDone: { target: 'ready', actions: { type: 'load', params: ({ event }) => ({ user: event.output }) } },
        onError: { target: 'loadFailed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    ready: {
      type: 'parallel',
      states: {
        form: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'field.change': { actions: 'changeField' },
                save: { guard: not(stateIn({ ready: { avatar: 'uploading' } })), target: 'validating' },
              },
            },
            validating: {
              entry: 'checkFields',
              always: [{ guard: 'hasNoProblems', target: 'saving' }, { target: 'editing' }],
            },
            saving: {
              invoke: {
                src: 'saveUser',
                input: ({ context }) => requestOf(context.values, context.saved),
                onDone: {
                  target: 'saved',
                  actions: [
                    { type: 'storeSaved', params: ({ event }) => ({ user: event.output }) },
                    { type: 'userSaved', params: ({ event }) => ({ user: event.output }) },
                  ],
                },
                onError: { target: 'failed', actions: { type: 'setFailure', params: ({ event }) => ({ error: event.error }) } },
              },
            },
            saved: {
              on: {
                'field.change': { target: 'editing', actions: 'changeField' },
                save: { guard: not(stateIn({ ready: { avatar: 'uploading' } })), target: 'validating' },
              },
            },
            failed: {
              on: {
                'field.change': { target: 'editing', actions: 'changeField' },
                save: { guard: not(stateIn({ ready: { avatar: 'uploading' } })), target: 'validating' },
              },
            },
          },
        },
        avatar: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'avatar.select': [
                  { guard: not('isAvatarImage'), actions: { type: 'refuseAvatar', params: { kind: 'notImage' } } },
                  { guard: not('isAvatarWithinLimit'), actions: { type: 'refuseAvatar', params: { kind: 'tooLarge' } } },
                  { target: 'uploading', actions: 'clearAvatarProblem' },
                ],
                'avatar.remove': { actions: { type: 'useAvatar', params: { url: '' } } },
              },
            },
            uploading: {
              invoke: {
                src: 'uploadAvatar',
                input: ({ event }) => {
                  assertEvent(event, 'avatar.select');
                  return { file: event.file };
                },
                onDone: [
                  {
                    guard: { type: 'isUploadedImage', params: ({ event }) => ({ file: event.output }) },
                    target: 'idle',
                    actions: { type: 'useAvatar', params: ({ event }) => ({ url: event.output.url }) },
                  },
                  { target: 'idle', actions: { type: 'refuseAvatar', params: { kind: 'notImage' } } },
                ],
                onError: {
                  target: 'idle',
                  actions: {
                    type: 'refuseAvatar',
                    params: ({ event }) => ({
                      kind: (event.error as { status?: number } | null)?.status === 413 ? ('tooLarge' as const) : ('failed' as const),
                      message: messageOf(event.error),
                    }),
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});
