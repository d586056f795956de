import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { agentSaveRequestSchema } from '../contract/studio';
import { content, MODELS } from '../../tests/spa/models/agent-studio-kit';
import {
  addStarter,
  addStarterLanguage,
  addTranslation,
  blankForm,
  changeStarter,
  changeTranslation,
  contentOf,
  formOf,
  maxOutputCeiling,
  problemsAfterChange,
  problemsOf,
  removeStarter,
  removeStarterLanguage,
  removeTranslation,
  studioFailureOf,
} from './agent-studio-form';

const rules = { ceiling: 4096, companyId: 'company-acme' };

describe('the studio’s form', () => {
  it('opens a saved agent and sends it back as it was', () => {
    const saved = content({ parameters: { temperature: 0.4, maxOutput: 800 }, starters: { ja: ['こんにちは'], 'en-US': ['Hi'] }, translations: { 'fr-FR': { name: 'Tuteur', intro: '' } } });
    expect(contentOf(formOf(saved))).toEqual(saved);
  });

  it('sends what the contract accepts: names trimmed, empty parameters and questions left out, untouched languages dropped', () => {
    const form = {
      ...blankForm(),
      name: '  Tutor ',
      parameters: { temperature: ' 0,7 ', topP: '', maxOutput: '1200' },
      starters: { 'en-US': ['  Hello ', '  '], ja: [''] },
      translations: { 'de-DE': { name: '', intro: '' }, 'fr-FR': { name: ' Tuteur ', intro: '' } },
    };
    const sent = contentOf(form);
    expect(sent).toMatchObject({ name: 'Tutor', parameters: { temperature: 0.7, maxOutput: 1200 }, starters: { 'en-US': ['Hello'] }, translations: { 'fr-FR': { name: 'Tuteur', intro: '' } } });
    expect(sent.parameters).not.toHaveProperty('topP');
    expect(v.safeParse(agentSaveRequestSchema, sent).success).toBe(true);
  });

  it('names each broken rule for its field', () => {
    const form = {
      ...blankForm(),
      name: 'x'.repeat(101),
      intro: 'y'.repeat(1001),
      systemPrompt: 'z'.repeat(20_001),
      parameters: { temperature: '-1', topP: '1.5', maxOutput: '2.5' },
      starters: { 'en-US': ['ok', 'q'.repeat(301)] },
      translations: { ja: { name: '', intro: '紹介' }, 'fr-FR': { name: 'n'.repeat(101), intro: '' } },
      visibility: 'organisation' as const,
    };
    expect(problemsOf(form, { ceiling: 4096, companyId: null })).toEqual({
      name: 'tooLong',
      intro: 'tooLong',
      systemPrompt: 'tooLong',
      'parameters.temperature': 'range',
      'parameters.topP': 'range',
      'parameters.maxOutput': 'format',
      'starters.en-US.1': 'tooLong',
      'translations.ja.name': 'required',
      'translations.fr-FR.name': 'tooLong',
      visibility: 'noOrganisation',
    });
    expect(problemsOf({ ...blankForm(), name: 'Tutor', visibility: 'organisation' }, rules)).toEqual({});
  });

  it('bounds the longest answer by what the chosen model writes, else by the contract', () => {
    expect(maxOutputCeiling(MODELS, null)).toBe(4096);
    expect(maxOutputCeiling(MODELS, 'model-seeing')).toBe(2048);
    expect(maxOutputCeiling([{ ...MODELS[0]!, maxOutput: null }], null)).toBe(1_000_000);
    const form = { ...blankForm(), name: 'Tutor', parameters: { temperature: '', topP: '', maxOutput: '3000' } };
    expect(problemsOf(form, { ...rules, ceiling: 2048 })).toEqual({ 'parameters.maxOutput': 'range' });
    expect(problemsOf(form, rules)).toEqual({});
  });

  it('takes back what was said about a field once it changes', () => {
    const problems = { name: 'required' as const, 'parameters.topP': 'range' as const, 'starters.ja.0': 'tooLong' as const };
    expect(problemsAfterChange(problems, ['parameters'])).toEqual({ name: 'required', 'starters.ja.0': 'tooLong' });
    expect(problemsAfterChange(problems, ['starters', 'name'])).toEqual({ 'parameters.topP': 'range' });
  });

  it('edits the questions and words per language, up to four questions', () => {
    let form = { ...blankForm(), ...addStarterLanguage(blankForm(), 'ja') };
    expect(form.starters).toEqual({ ja: [''] });
    for (let i = 0; i < 5; i++) form = { ...form, ...addStarter(form, 'ja') };
    expect(form.starters.ja).toHaveLength(4);
    form = { ...form, ...changeStarter(form, 'ja', 1, '質問') };
    form = { ...form, ...removeStarter(form, 'ja', 0) };
    expect(form.starters.ja).toEqual(['質問', '', '']);
    form = { ...form, ...removeStarterLanguage(form, 'ja') };
    expect(form.starters).toEqual({});
    form = { ...form, ...addTranslation(form, 'de-DE') };
    form = { ...form, ...changeTranslation(form, 'de-DE', { name: 'Lehrer' }) };
    expect(form.translations).toEqual({ 'de-DE': { name: 'Lehrer', intro: '' } });
    form = { ...form, ...removeTranslation(form, 'de-DE') };
    expect(form.translations).toEqual({});
  });

  it('reads a refusal’s status and the server’s reason, and nothing of a call that got no answer', () => {
    expect(studioFailureOf(Object.assign(new Error('x'), { status: 409, reason: 'AGENT_RETIRED', description: 'This agent was retired.' }))).toEqual({
      status: 409,
      reason: 'AGENT_RETIRED',
      message: 'This agent was retired.',
    });
    expect(studioFailureOf(Object.assign(new Error('offline'), { status: 502, unreachable: true }))).toEqual({ status: undefined, reason: null, message: '' });
  });
});
