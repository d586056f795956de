import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { formatBytes } from '../../i18n/format';
import { AVATAR_TYPES, type accountFormMachine } from '../../machines/account-form.machine';

type FormRef = ActorRefFrom<typeof accountFormMachine>;

/** The avatar: a preview of the picture that will be saved, upload and remove, and what went wrong. */
export const AvatarField = ({ form }: { form: FormRef }) => {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const avatar = useSelector(form, (state) => state.context.values.avatar);
  const changed = useSelector(form, (state) => state.context.values.avatar !== state.context.saved.avatar);
  const uploading = useSelector(form, (state) => state.matches({ ready: { avatar: 'uploading' } }));
  const problem = useSelector(form, (state) => state.context.avatarProblem);
  const limit = useSelector(form, (state) => state.context.uploadLimitBytes);
  const size = formatBytes(limit, i18n.language);

  return (
    <fieldset className="m-0 flex flex-wrap items-center gap-4 border-0 p-0">
      <legend className="mb-2 p-0 text-sm font-medium">{t('account.avatar')}</legend>
      <div className="relative grid h-20 w-20 shrink-0 place-items-center overflow-hidden rounded-full border border-line bg-raised">
        {avatar ? (
          <img src={avatar} alt={changed ? t('account.avatarPreview') : t('account.avatar')} className="h-full w-full object-cover" data-testid="avatar-preview" />
        ) : (
          <span className="i-lucide-user text-3xl text-muted" aria-hidden="true" />
        )}
        {uploading && (
          <span className="absolute inset-0 grid place-items-center bg-surface/70">
            <span className="i-lucide-loader-circle animate-spin text-xl" aria-hidden="true" />
          </span>
        )}
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            type="file"
            accept={AVATAR_TYPES.join(',')}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="avatar-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) form.send({ type: 'avatar.select', file });
              event.target.value = '';
            }}
          />
          <button type="button" className="btn-outline" disabled={uploading} onClick={() => input.current?.click()}>
            <span className="i-lucide-camera" aria-hidden="true" />
            {t('account.avatarUpload')}
          </button>
          {avatar && (
            <button type="button" className="btn-ghost" disabled={uploading} onClick={() => form.send({ type: 'avatar.remove' })}>
              <span className="i-lucide-trash-2" aria-hidden="true" />
              {t('account.avatarRemove')}
            </button>
          )}
        </div>
        <p className="m-0 text-sm text-muted" aria-live="polite">
          {uploading ? t('account.avatarUploading') : changed && avatar ? t('account.avatarPreview') : t('account.avatarHint', { size })}
        </p>
        {problem && (
          <p role="alert" className="m-0 text-sm text-danger">
            {t(`account.avatarProblems.${problem.kind}`, { size })}
            {problem.kind === 'failed' && problem.message ? ` (${problem.message})` : ''}
          </p>
        )}
      </div>
    </fieldset>
  );
};
