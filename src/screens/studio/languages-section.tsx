import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { STARTERS_MAX } from '../../contract/agents';
import { AGENT_INTRO_MAX, AGENT_LANGUAGES, AGENT_NAME_MAX, STARTER_MAX, type AgentContentLanguage } from '../../contract/studio';
import { LOCALE_NAMES } from '../../i18n/locale';
import {
  addStarter,
  addStarterLanguage,
  addTranslation,
  changeStarter,
  changeTranslation,
  languagesOf,
  removeStarter,
  removeStarterLanguage,
  removeTranslation,
  type AgentForm,
} from '../../machines/agent-studio-form';
import type { agentStudioMachine } from '../../machines/agent-studio.machine';
import { CountedField, EditorSection, useProblemText } from './editor-fields';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

/** A language to add, among those not added yet, and the button that adds it. */
const AddLanguage = ({ id, label, taken, disabled, onAdd }: { id: string; label: string; taken: AgentContentLanguage[]; disabled: boolean; onAdd: (language: AgentContentLanguage) => void }) => {
  const { t } = useTranslation();
  const left = AGENT_LANGUAGES.filter((language) => !taken.includes(language));
  const [picked, setPicked] = useState<AgentContentLanguage | ''>('');
  const chosen = picked && left.includes(picked) ? picked : (left[0] ?? '');
  if (left.length === 0) return null;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={id} className="text-sm">
          {label}
        </label>
        <select id={id} className="field w-auto" value={chosen} disabled={disabled} onChange={(event) => setPicked(event.target.value as AgentContentLanguage)}>
          {left.map((language) => (
            <option key={language} value={language}>
              {LOCALE_NAMES[language]}
            </option>
          ))}
        </select>
      </div>
      <button type="button" className="btn-outline" disabled={disabled || !chosen} onClick={() => chosen && onAdd(chosen)}>
        <span className="i-lucide-plus" aria-hidden="true" />
        {t('studio.fields.addLanguage')}
      </button>
    </div>
  );
};

/** A language's name heading its group (which it names), and the button that removes the group. */
const LanguageHeading = ({ id, language, removeLabel, disabled, onRemove }: { id: string; language: AgentContentLanguage; removeLabel: string; disabled: boolean; onRemove: () => void }) => (
  <div className="flex items-center justify-between gap-2">
    <span id={id} className="text-sm font-semibold" lang={language}>
      {LOCALE_NAMES[language]}
    </span>
    <button type="button" className="btn-ghost px-2 py-1 text-xs" disabled={disabled} onClick={onRemove}>
      <span className="i-lucide-x" aria-hidden="true" />
      {removeLabel}
    </button>
  </div>
);

/** Up to four starter questions per language, in the languages the author chooses. */
export const StartersSection = ({ editor, editable }: { editor: Editor; editable: boolean }) => {
  const { t } = useTranslation();
  const form = useSelector(editor, (state) => state.context.form);
  const problems = useSelector(editor, (state) => state.context.problems);
  const problemText = useProblemText();
  const patch = (change: Partial<AgentForm>) => editor.send({ type: 'field.change', patch: change });
  const languages = languagesOf(form.starters);
  return (
    <EditorSection id="studio-starters" title={t('studio.sections.starters')} hint={t('studio.fields.startersHint', { max: STARTERS_MAX })}>
      {languages.map((language) => {
        const questions = form.starters[language] ?? [];
        return (
          <fieldset key={language} aria-labelledby={`starters-${language}-title`} className="m-0 flex flex-col gap-2 rounded-lg border border-line p-3" data-testid={`starters-${language}`}>
            <LanguageHeading
              id={`starters-${language}-title`}
              language={language}
              removeLabel={t('studio.fields.removeLanguage', { language: LOCALE_NAMES[language] })}
              disabled={!editable}
              onRemove={() => patch(removeStarterLanguage(form, language))}
            />
            {questions.map((question, index) => {
              const id = `starter-${language}-${index}`;
              const error = problemText(problems[`starters.${language}.${index}`], { max: STARTER_MAX });
              return (
                <div key={index} className="flex flex-col gap-1">
                  <div className="flex items-center gap-2">
                    <label htmlFor={id} className="sr-only">
                      {t('studio.fields.question', { number: index + 1, language: LOCALE_NAMES[language] })}
                    </label>
                    <input
                      id={id}
                      lang={language}
                      className={`field min-w-0 flex-1 ${error ? 'border-danger' : ''}`}
                      value={question}
                      disabled={!editable}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `${id}-error` : undefined}
                      onChange={(event) => patch(changeStarter(form, language, index, event.target.value))}
                    />
                    <button
                      type="button"
                      className="btn-ghost shrink-0 px-2"
                      aria-label={t('studio.fields.removeQuestion', { number: index + 1, language: LOCALE_NAMES[language] })}
                      disabled={!editable}
                      onClick={() => patch(removeStarter(form, language, index))}
                    >
                      <span className="i-lucide-trash-2" aria-hidden="true" />
                    </button>
                  </div>
                  {error && (
                    <p id={`${id}-error`} className="m-0 text-sm text-danger">
                      {error}
                    </p>
                  )}
                </div>
              );
            })}
            <button type="button" className="btn-ghost self-start px-2 text-sm" disabled={!editable || questions.length >= STARTERS_MAX} onClick={() => patch(addStarter(form, language))}>
              <span className="i-lucide-plus" aria-hidden="true" />
              {t('studio.fields.addQuestion')}
            </button>
          </fieldset>
        );
      })}
      <AddLanguage id="starters-language" label={t('studio.fields.startersLanguage')} taken={languages} disabled={!editable} onAdd={(language) => patch(addStarterLanguage(form, language))} />
    </EditorSection>
  );
};

/** The name and introduction in other languages, each optional. */
export const TranslationsSection = ({ editor, editable }: { editor: Editor; editable: boolean }) => {
  const { t } = useTranslation();
  const form = useSelector(editor, (state) => state.context.form);
  const problems = useSelector(editor, (state) => state.context.problems);
  const problemText = useProblemText();
  const patch = (change: Partial<AgentForm>) => editor.send({ type: 'field.change', patch: change });
  const languages = languagesOf(form.translations);
  return (
    <EditorSection id="studio-languages" title={t('studio.sections.languages')} hint={t('studio.fields.translationsHint')}>
      {languages.map((language) => {
        const words = form.translations[language]!;
        const name = LOCALE_NAMES[language];
        return (
          <fieldset key={language} aria-labelledby={`translation-${language}-title`} className="m-0 flex flex-col gap-3 rounded-lg border border-line p-3" data-testid={`translation-${language}`}>
            <LanguageHeading id={`translation-${language}-title`} language={language} removeLabel={t('studio.fields.removeLanguage', { language: name })} disabled={!editable} onRemove={() => patch(removeTranslation(form, language))} />
            <CountedField
              id={`translation-${language}-name`}
              label={t('studio.fields.translatedName', { language: name })}
              value={words.name}
              max={AGENT_NAME_MAX}
              error={problemText(problems[`translations.${language}.name`], { max: AGENT_NAME_MAX })}
              disabled={!editable}
              onValue={(value) => patch(changeTranslation(form, language, { name: value }))}
            />
            <CountedField
              id={`translation-${language}-intro`}
              label={t('studio.fields.translatedIntro', { language: name })}
              value={words.intro}
              max={AGENT_INTRO_MAX}
              multiline="short"
              error={problemText(problems[`translations.${language}.intro`], { max: AGENT_INTRO_MAX })}
              disabled={!editable}
              onValue={(value) => patch(changeTranslation(form, language, { intro: value }))}
            />
          </fieldset>
        );
      })}
      <AddLanguage id="translations-language" label={t('studio.fields.translationsLanguage')} taken={languages} disabled={!editable} onAdd={(language) => patch(addTranslation(form, language))} />
    </EditorSection>
  );
};
