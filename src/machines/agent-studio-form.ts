import { AGENT_CATEGORIES, STARTERS_MAX } from '../contract/agents';
import { MODEL_ERRORS, type UsableModel } from '../contract/models';
import {
  AGENT_INTRO_MAX,
  AGENT_LANGUAGES,
  AGENT_NAME_MAX,
  MAX_OUTPUT_CEILING,
  STARTER_MAX,
  STUDIO_ERRORS,
  SYSTEM_PROMPT_MAX,
  type AgentContent,
  type AgentContentLanguage,
  type AgentVisibility,
} from '../contract/studio';
import { isUnreachable, statusOf } from './error-status';

/**
 * An agent as its author edits it in the studio, and the rules it is checked by before the
 * server is asked: the contract's limits (src/contract/studio.ts), said per field.
 */
export type AgentCategory = (typeof AGENT_CATEGORIES)[number];
export const PARAMETER_FIELDS = ['temperature', 'topP', 'maxOutput'] as const;
export type ParameterField = (typeof PARAMETER_FIELDS)[number];
export type AgentWords = { name: string; intro: string };

export type AgentForm = {
  name: string;
  avatar: string;
  intro: string;
  category: AgentCategory | null;
  systemPrompt: string;
  /** null: whichever model is the default when a question is asked. */
  modelId: string | null;
  /** As typed: an empty text leaves the parameter to the model. */
  parameters: Record<ParameterField, string>;
  /** Starter questions in the languages the author chose. */
  starters: Partial<Record<AgentContentLanguage, string[]>>;
  /** The name and intro in other languages. */
  translations: Partial<Record<AgentContentLanguage, AgentWords>>;
  allowModelChoice: boolean;
  visibility: AgentVisibility;
};

/** What is wrong with a field, as a key the screen translates. */
export type FieldProblem = 'required' | 'tooLong' | 'format' | 'range' | 'noOrganisation';
/** Problems by field: `name`, `parameters.topP`, `starters.ja.2`, `translations.fr-FR.name`, `visibility`... */
export type FormProblems = Partial<Record<string, FieldProblem>>;

export const PARAMETER_RANGES: Record<ParameterField, { min: number; max: number; integer: boolean }> = {
  temperature: { min: 0, max: 2, integer: false },
  topP: { min: 0, max: 1, integer: false },
  maxOutput: { min: 1, max: MAX_OUTPUT_CEILING, integer: true },
};

export const blankForm = (): AgentForm => ({
  name: '',
  avatar: '',
  intro: '',
  category: null,
  systemPrompt: '',
  modelId: null,
  parameters: { temperature: '', topP: '', maxOutput: '' },
  starters: {},
  translations: {},
  allowModelChoice: false,
  visibility: 'private',
});

const typed = (value: number | undefined): string => (value === undefined ? '' : String(value));

/** A number as typed: a decimal comma is read as the point it stands for (0,7 in French or German). */
export const numberOf = (text: string): number => Number(text.trim().replace(',', '.'));

/** The form a saved agent opens with. */
export const formOf = (content: AgentContent): AgentForm => ({
  name: content.name,
  avatar: content.avatar,
  intro: content.intro,
  category: content.category,
  systemPrompt: content.systemPrompt,
  modelId: content.modelId,
  parameters: { temperature: typed(content.parameters.temperature), topP: typed(content.parameters.topP), maxOutput: typed(content.parameters.maxOutput) },
  starters: Object.fromEntries(AGENT_LANGUAGES.flatMap((language) => (content.starters[language] ? [[language, [...content.starters[language]]]] : []))),
  translations: Object.fromEntries(
    AGENT_LANGUAGES.flatMap((language) => {
      const words = content.translations[language];
      return words ? [[language, { name: words.name, intro: words.intro }]] : [];
    }),
  ),
  allowModelChoice: content.allowModelChoice,
  visibility: content.visibility,
});

/** Whether the form differs from what the server holds. */
export const isDirty = ({ form, baseline }: { form: AgentForm; baseline: AgentForm }): boolean => JSON.stringify(form) !== JSON.stringify(baseline);

/** The languages a list is kept in, in the product's order. */
export const languagesOf = (byLanguage: Partial<Record<AgentContentLanguage, unknown>>): AgentContentLanguage[] =>
  AGENT_LANGUAGES.filter((language) => byLanguage[language] !== undefined);

/** The content a save sends: parameters left empty are the model's, blank questions and untouched languages left out. */
export const contentOf = (form: AgentForm): AgentContent => {
  const parameters: AgentContent['parameters'] = {};
  for (const field of PARAMETER_FIELDS) if (form.parameters[field].trim() !== '') parameters[field] = numberOf(form.parameters[field]);
  const starters: AgentContent['starters'] = {};
  for (const language of languagesOf(form.starters)) {
    const questions = (form.starters[language] ?? []).map((question) => question.trim()).filter(Boolean);
    if (questions.length > 0) starters[language] = questions;
  }
  const translations: AgentContent['translations'] = {};
  for (const language of languagesOf(form.translations)) {
    const words = form.translations[language]!;
    if (words.name.trim() || words.intro.trim()) translations[language] = { name: words.name.trim(), intro: words.intro.trim() };
  }
  return {
    name: form.name.trim(),
    avatar: form.avatar,
    intro: form.intro.trim(),
    category: form.category,
    systemPrompt: form.systemPrompt,
    modelId: form.modelId,
    parameters,
    starters,
    translations,
    allowModelChoice: form.allowModelChoice,
    visibility: form.visibility,
  };
};

/** The model a question would go to: the one chosen, else the default. */
export const modelFor = (models: UsableModel[], modelId: string | null): UsableModel | undefined =>
  modelId === null ? models.find((model) => model.isDefault) : models.find((model) => model.id === modelId);

/** The longest answer that may be asked for: what the model writes, when it says. */
export const maxOutputCeiling = (models: UsableModel[], modelId: string | null): number => modelFor(models, modelId)?.maxOutput ?? MAX_OUTPUT_CEILING;

const parameterProblem = (field: ParameterField, text: string, ceiling: number): FieldProblem | null => {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = numberOf(trimmed);
  const range = PARAMETER_RANGES[field];
  if (!Number.isFinite(value) || (range.integer && !Number.isInteger(value))) return 'format';
  const max = field === 'maxOutput' ? Math.min(range.max, ceiling) : range.max;
  return value < range.min || value > max ? 'range' : null;
};

const tooLong = (text: string, max: number) => text.trim().length > max;

/** The contract's rules applied here, each broken one named for its field. */
export const problemsOf = (form: AgentForm, rules: { ceiling: number; companyId: string | null }): FormProblems => {
  const problems: FormProblems = {};
  if (form.name.trim() === '') problems.name = 'required';
  else if (tooLong(form.name, AGENT_NAME_MAX)) problems.name = 'tooLong';
  if (tooLong(form.intro, AGENT_INTRO_MAX)) problems.intro = 'tooLong';
  if (form.systemPrompt.length > SYSTEM_PROMPT_MAX) problems.systemPrompt = 'tooLong';
  for (const field of PARAMETER_FIELDS) {
    const problem = parameterProblem(field, form.parameters[field], rules.ceiling);
    if (problem) problems[`parameters.${field}`] = problem;
  }
  for (const language of languagesOf(form.starters)) {
    (form.starters[language] ?? []).forEach((question, index) => {
      if (tooLong(question, STARTER_MAX)) problems[`starters.${language}.${index}`] = 'tooLong';
    });
  }
  for (const language of languagesOf(form.translations)) {
    const words = form.translations[language]!;
    if (words.name.trim() === '' && words.intro.trim() !== '') problems[`translations.${language}.name`] = 'required';
    else if (tooLong(words.name, AGENT_NAME_MAX)) problems[`translations.${language}.name`] = 'tooLong';
    if (tooLong(words.intro, AGENT_INTRO_MAX)) problems[`translations.${language}.intro`] = 'tooLong';
  }
  if (form.visibility === 'organisation' && rules.companyId === null) problems.visibility = 'noOrganisation';
  return problems;
};

/** Problems left once these fields changed: what was said about a field goes when it changes. */
export const problemsAfterChange = (problems: FormProblems, changed: string[]): FormProblems =>
  Object.fromEntries(Object.entries(problems).filter(([key]) => !changed.some((field) => key === field || key.startsWith(`${field}.`))));

// The lists per language: each helper answers the patch the change makes.

/** Starter questions in one more language, starting with one empty question. */
export const addStarterLanguage = (form: AgentForm, language: AgentContentLanguage): Pick<AgentForm, 'starters'> => ({
  starters: form.starters[language] ? form.starters : { ...form.starters, [language]: [''] },
});

export const removeStarterLanguage = (form: AgentForm, language: AgentContentLanguage): Pick<AgentForm, 'starters'> => {
  const { [language]: _removed, ...starters } = form.starters;
  return { starters };
};

/** One more question in a language, up to the contract's four. */
export const addStarter = (form: AgentForm, language: AgentContentLanguage): Pick<AgentForm, 'starters'> => {
  const questions = form.starters[language] ?? [];
  return { starters: questions.length >= STARTERS_MAX ? form.starters : { ...form.starters, [language]: [...questions, ''] } };
};

export const changeStarter = (form: AgentForm, language: AgentContentLanguage, index: number, text: string): Pick<AgentForm, 'starters'> => ({
  starters: { ...form.starters, [language]: (form.starters[language] ?? []).map((question, at) => (at === index ? text : question)) },
});

export const removeStarter = (form: AgentForm, language: AgentContentLanguage, index: number): Pick<AgentForm, 'starters'> => ({
  starters: { ...form.starters, [language]: (form.starters[language] ?? []).filter((_, at) => at !== index) },
});

export const addTranslation = (form: AgentForm, language: AgentContentLanguage): Pick<AgentForm, 'translations'> => ({
  translations: form.translations[language] ? form.translations : { ...form.translations, [language]: { name: '', intro: '' } },
});

export const changeTranslation = (form: AgentForm, language: AgentContentLanguage, words: Partial<AgentWords>): Pick<AgentForm, 'translations'> => ({
  translations: { ...form.translations, [language]: { name: '', intro: '', ...form.translations[language], ...words } },
});

export const removeTranslation = (form: AgentForm, language: AgentContentLanguage): Pick<AgentForm, 'translations'> => {
  const { [language]: _removed, ...translations } = form.translations;
  return { translations };
};

/** The fields a patch touches, as problem keys start with them. */
export const fieldsOf = (patch: Partial<AgentForm>): string[] => Object.keys(patch);

/** Why a studio call failed: its status (none when nothing answered), the server's reason word, and its words. */
export type StudioFailure = { status: number | undefined; reason: string | null; message: string };

const reasonOf = (error: unknown): string | null =>
  typeof error === 'object' && error !== null && 'reason' in error && typeof (error as { reason: unknown }).reason === 'string' ? (error as { reason: string }).reason : null;

const messageOf = (error: unknown): string => {
  if (typeof error === 'object' && error !== null && 'description' in error && typeof error.description === 'string') return error.description;
  return error instanceof Error ? error.message : '';
};

export const studioFailureOf = (error: unknown): StudioFailure =>
  isUnreachable(error) ? { status: undefined, reason: null, message: '' } : { status: statusOf(error), reason: reasonOf(error), message: messageOf(error) };

/** A file the studio could not read as JSON: refused before the server is asked. */
export const UNREADABLE_FILE = 'UNREADABLE_FILE';

/** The field a refusal is about, so it is said beside it (and goes when that field changes). */
export const FIELD_OF_REASON: Partial<Record<string, keyof AgentForm>> = {
  [STUDIO_ERRORS.avatarRefused]: 'avatar',
  [STUDIO_ERRORS.noOrganisation]: 'visibility',
  [STUDIO_ERRORS.parametersOutOfRange]: 'parameters',
  [MODEL_ERRORS.unknown]: 'modelId',
};
