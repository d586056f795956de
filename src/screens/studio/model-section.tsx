import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import type { UsableModel } from '../../contract/models';
import { SYSTEM_PROMPT_MAX } from '../../contract/studio';
import { formatNumber } from '../../i18n/format';
import { maxOutputCeiling, modelFor, PARAMETER_FIELDS, PARAMETER_RANGES, type ParameterField, type StudioFailure } from '../../machines/agent-studio-form';
import type { agentStudioMachine } from '../../machines/agent-studio.machine';
import { CountedField, EditorSection, useProblemText } from './editor-fields';
import { useFailureSentence } from './studio-failure';

type Editor = ActorRefFrom<typeof agentStudioMachine>;

/** The system prompt: a large box with its length against the limit. */
export const InstructionsSection = ({ editor, editable }: { editor: Editor; editable: boolean }) => {
  const { t } = useTranslation();
  const systemPrompt = useSelector(editor, (state) => state.context.form.systemPrompt);
  const problem = useSelector(editor, (state) => state.context.problems.systemPrompt);
  const problemText = useProblemText();
  return (
    <EditorSection id="studio-instructions" title={t('studio.sections.instructions')}>
      <CountedField
        id="agent-system-prompt"
        label={t('studio.fields.systemPrompt')}
        hint={t('studio.fields.systemPromptHint')}
        value={systemPrompt}
        max={SYSTEM_PROMPT_MAX}
        multiline="long"
        trims={false}
        error={problemText(problem, { max: SYSTEM_PROMPT_MAX })}
        disabled={!editable}
        onValue={(value) => editor.send({ type: 'field.change', patch: { systemPrompt: value } })}
      />
    </EditorSection>
  );
};

/** What a model can do, in a line: images or text only, its context window, its longest answer. */
const ModelAbilities = ({ model }: { model: UsableModel }) => {
  const { t, i18n } = useTranslation();
  const parts = [
    model.vision ? t('studio.fields.modelVision') : t('studio.fields.modelTextOnly'),
    model.contextWindow === null ? null : t('studio.fields.modelContext', { tokens: formatNumber(model.contextWindow, i18n.language) }),
    model.maxOutput === null ? null : t('studio.fields.modelMaxOutput', { tokens: formatNumber(model.maxOutput, i18n.language) }),
  ].filter(Boolean);
  return (
    <p id="agent-model-abilities" className="m-0 text-xs text-muted" data-testid="model-abilities">
      {parts.join(' · ')}
    </p>
  );
};

const PARAMETER_IDS: Record<ParameterField, string> = { temperature: 'agent-temperature', topP: 'agent-top-p', maxOutput: 'agent-max-output' };

/** The model the agent answers with, whether people may choose another, and its sampling parameters. */
type ModelRefusals = { modelId: StudioFailure | null; parameters: StudioFailure | null };

export const ModelSection = ({ editor, editable, refusals }: { editor: Editor; editable: boolean; refusals: ModelRefusals }) => {
  const { t, i18n } = useTranslation();
  const models = useSelector(editor, (state) => state.context.models);
  const modelId = useSelector(editor, (state) => state.context.form.modelId);
  const allowModelChoice = useSelector(editor, (state) => state.context.form.allowModelChoice);
  const parameters = useSelector(editor, (state) => state.context.form.parameters);
  const problems = useSelector(editor, (state) => state.context.problems);
  const problemText = useProblemText();
  const sentence = useFailureSentence();
  const defaultModel = models.find((model) => model.isDefault);
  const chosen = modelFor(models, modelId);
  const unavailable = modelId !== null && chosen === undefined;
  const ceiling = maxOutputCeiling(models, modelId);
  const { modelId: modelRefusal, parameters: parametersRefusal } = refusals;

  return (
    <EditorSection id="studio-model" title={t('studio.sections.model')}>
      <div className="flex flex-col gap-1">
        <label htmlFor="agent-model" className="text-sm font-medium">
          {t('studio.fields.model')}
        </label>
        <select
          id="agent-model"
          className={`field ${unavailable || modelRefusal ? 'border-danger' : ''}`}
          value={modelId ?? ''}
          disabled={!editable}
          aria-describedby="agent-model-abilities"
          aria-invalid={unavailable || modelRefusal ? true : undefined}
          onChange={(event) => editor.send({ type: 'field.change', patch: { modelId: event.target.value || null } })}
        >
          <option value="">{defaultModel ? t('studio.fields.modelDefault', { name: defaultModel.name }) : t('studio.fields.modelDefaultUnknown')}</option>
          {models.map((model) => (
            <option key={model.id} value={model.id}>
              {model.isDefault ? t('studio.fields.modelIsDefault', { name: model.name }) : model.name}
            </option>
          ))}
          {unavailable && <option value={modelId}>{t('studio.fields.modelUnavailable')}</option>}
        </select>
        {chosen && <ModelAbilities model={chosen} />}
        {unavailable && !modelRefusal && <p className="m-0 text-sm text-danger">{t('studio.refusal.modelUnknown')}</p>}
        {modelRefusal && (
          <p role="alert" className="m-0 text-sm text-danger">
            {sentence(modelRefusal, 'save')}
          </p>
        )}
      </div>
      <div className="flex items-start gap-2 text-sm">
        <input
          id="agent-model-choice"
          type="checkbox"
          className="mt-0.5 h-4 w-4 shrink-0 accent-[rgb(var(--c-accent))]"
          checked={allowModelChoice}
          disabled={!editable}
          aria-describedby="agent-model-choice-hint"
          onChange={(event) => editor.send({ type: 'field.change', patch: { allowModelChoice: event.target.checked } })}
        />
        <div className="flex flex-col gap-0.5">
          <label htmlFor="agent-model-choice" className="font-medium">
            {t('studio.fields.allowModelChoice')}
          </label>
          <p id="agent-model-choice-hint" className="m-0 text-xs text-muted">
            {t('studio.fields.allowModelChoiceHint')}
          </p>
        </div>
      </div>
      <fieldset className="m-0 flex flex-col gap-3 border-0 p-0">
        <legend className="p-0 text-sm font-medium">{t('studio.fields.parameters')}</legend>
        <p className="m-0 text-xs text-muted">{t('studio.fields.parametersHint')}</p>
        <div className="grid gap-3 sm:grid-cols-3">
          {PARAMETER_FIELDS.map((field) => {
            const range = PARAMETER_RANGES[field];
            const max = field === 'maxOutput' ? ceiling : range.max;
            const id = PARAMETER_IDS[field];
            const error = problemText(problems[`parameters.${field}`], { min: range.min, max, integer: range.integer });
            const hint = t(`studio.fields.${field}Hint`, { min: formatNumber(range.min, i18n.language), max: formatNumber(max, i18n.language) });
            return (
              <div key={field} className="flex min-w-0 flex-col gap-1">
                <label htmlFor={id} className="text-sm">
                  {t(`studio.fields.${field}`)}
                </label>
                <input
                  id={id}
                  className={`field ${error ? 'border-danger' : ''}`}
                  inputMode={range.integer ? 'numeric' : 'decimal'}
                  autoComplete="off"
                  value={parameters[field]}
                  disabled={!editable}
                  placeholder={t('studio.fields.parameterUnset')}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${error ? `${id}-error ` : ''}${id}-hint`}
                  onChange={(event) => editor.send({ type: 'field.change', patch: { parameters: { ...parameters, [field]: event.target.value } } })}
                />
                {error && (
                  <p id={`${id}-error`} className="m-0 text-sm text-danger">
                    {error}
                  </p>
                )}
                <p id={`${id}-hint`} className="m-0 text-xs text-muted">
                  {hint}
                </p>
              </div>
            );
          })}
        </div>
        {parametersRefusal && (
          <p role="alert" className="m-0 text-sm text-danger">
            {sentence(parametersRefusal, 'save')}
          </p>
        )}
      </fieldset>
    </EditorSection>
  );
};
