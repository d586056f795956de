import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { AgentAvatar } from '../../components/agent-avatar';
import { AGENT_CATEGORIES } from '../../contract/agents';
import { AGENT_INTRO_MAX, AGENT_NAME_MAX } from '../../contract/studio';
import { formatBytes } from '../../i18n/format';
import { AVATAR_TYPES } from '../../machines/account-form.machine';
import type { AgentCategory, StudioFailure } from '../../machines/agent-studio-form';
import type { agentStudioMachine } from '../../machines/agent-studio.machine';
import { CountedField, EditorSection, useProblemText } from './editor-fields';
import { useFailureSentence } from './studio-failure';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

/** The agent's picture: a preview of what will be saved, upload, or a letter instead; and what went wrong. */
const AvatarField = ({ editor, editable, refusal }: { editor: Editor; editable: boolean; refusal: StudioFailure | null }) => {
  const { t, i18n } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const avatar = useSelector(editor, (state) => state.context.form.avatar);
  const name = useSelector(editor, (state) => state.context.form.name);
  const uploading = useSelector(editor, (state) => state.matches({ avatar: 'uploading' }));
  const problem = useSelector(editor, (state) => state.context.avatarProblem);
  const limit = useSelector(editor, (state) => state.context.uploadLimitBytes);
  const sentence = useFailureSentence();
  const size = formatBytes(limit, i18n.language);
  return (
    <fieldset className="m-0 flex flex-wrap items-center gap-4 border-0 p-0">
      <legend className="mb-2 p-0 text-sm font-medium">{t('studio.fields.avatar')}</legend>
      <div className="relative shrink-0" data-testid="avatar-preview">
        {avatar ? (
          <img src={avatar} alt={t('studio.fields.avatarPreview')} className="block h-20 w-20 rounded-full border border-line object-cover" />
        ) : (
          <AgentAvatar src="" name={name.trim() || '?'} size={80} />
        )}
        {uploading && (
          <span className="absolute inset-0 grid place-items-center rounded-full bg-surface/70">
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
              if (file) editor.send({ type: 'avatar.select', file });
              event.target.value = '';
            }}
          />
          <button type="button" className="btn-outline" disabled={!editable || uploading} onClick={() => input.current?.click()}>
            <span className="i-lucide-image-up" aria-hidden="true" />
            {t('studio.fields.avatarUpload')}
          </button>
          {avatar && (
            <button type="button" className="btn-ghost" disabled={!editable || uploading} onClick={() => editor.send({ type: 'field.change', patch: { avatar: '' } })}>
              <span className="i-lucide-type" aria-hidden="true" />
              {t('studio.fields.avatarRemove')}
            </button>
          )}
        </div>
        <p className="m-0 text-xs text-muted" aria-live="polite">
          {uploading ? t('studio.fields.avatarUploading') : t('studio.fields.avatarHint', { size })}
        </p>
        {problem && (
          <p role="alert" className="m-0 text-sm text-danger">
            {t(`studio.fields.avatarProblems.${problem}`, { size })}
          </p>
        )}
        {refusal && (
          <p role="alert" className="m-0 text-sm text-danger" data-testid="avatar-refusal">
            {sentence(refusal, 'save')}
          </p>
        )}
      </div>
    </fieldset>
  );
};

/** Name, picture, introduction and category: what the market shows of the agent. */
export const IdentitySection = ({ editor, editable, refusal }: { editor: Editor; editable: boolean; refusal: StudioFailure | null }) => {
  const { t } = useTranslation();
  const form = useSelector(editor, (state) => state.context.form);
  const problems = useSelector(editor, (state) => state.context.problems);
  const problemText = useProblemText();
  const change = (patch: { name?: string; intro?: string; category?: AgentCategory | null }) => editor.send({ type: 'field.change', patch });
  return (
    <EditorSection id="studio-identity" title={t('studio.sections.identity')}>
      <CountedField
        id="agent-name"
        label={t('studio.fields.name')}
        value={form.name}
        max={AGENT_NAME_MAX}
        error={problemText(problems.name, { max: AGENT_NAME_MAX })}
        disabled={!editable}
        onValue={(name) => change({ name })}
      />
      <AvatarField editor={editor} editable={editable} refusal={refusal} />
      <CountedField
        id="agent-intro"
        label={t('studio.fields.intro')}
        hint={t('studio.fields.introHint')}
        value={form.intro}
        max={AGENT_INTRO_MAX}
        multiline="short"
        error={problemText(problems.intro, { max: AGENT_INTRO_MAX })}
        disabled={!editable}
        onValue={(intro) => change({ intro })}
      />
      <div className="flex flex-col gap-1 sm:max-w-xs">
        <label htmlFor="agent-category" className="text-sm font-medium">
          {t('studio.fields.category')}
        </label>
        <select
          id="agent-category"
          className="field"
          value={form.category ?? ''}
          disabled={!editable}
          onChange={(event) => change({ category: (event.target.value || null) as AgentCategory | null })}
        >
          <option value="">{t('studio.fields.categoryNone')}</option>
          {AGENT_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {t(`agents.category.${category}`)}
            </option>
          ))}
        </select>
      </div>
    </EditorSection>
  );
};
