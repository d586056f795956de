import { describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../i18n';
import { describeAgentFailure, describeFailure } from './describe-failure';

/** What the server sends in the error event and stores on the failed answer. */
const SERVER_TEXT = 'The agent could not answer this time. Please try again. (ref 7F3K-92QA)';

const expected: Record<string, string> = {
  'zh-CN': '智能体这次未能回答，请重试。参考编号：7F3K-92QA',
  'en-US': 'The agent could not answer this time. Please try again. Reference: 7F3K-92QA',
  'fr-FR': 'L’agent n’a pas pu répondre cette fois-ci. Veuillez réessayer. Référence : 7F3K-92QA',
  'de-DE': 'Der Agent konnte diesmal nicht antworten. Bitte versuchen Sie es erneut. Referenz: 7F3K-92QA',
  ja: 'エージェントは今回応答できませんでした。もう一度お試しください。参照番号：7F3K-92QA',
};

describe('a failed answer', () => {
  it.each(Object.keys(expected))('reads in %s with the reference to quote to support', async (locale) => {
    await initI18n(locale);
    const t = i18n.t.bind(i18n);
    // Live, from the stream's error event, and later from the stored message in history.
    expect(describeFailure(t, { kind: 'agent-error', message: SERVER_TEXT }, locale)).toBe(expected[locale]);
    expect(describeAgentFailure(t, SERVER_TEXT)).toBe(expected[locale]);
  });

  it('stored by an older server without a reference is shown as it was', async () => {
    await initI18n('en-US');
    const t = i18n.t.bind(i18n);
    expect(describeAgentFailure(t, 'Something old')).toBe('Something old');
    expect(describeFailure(t, { kind: 'agent-error', message: '' }, 'en-US')).toBe('Something went wrong while answering.');
  });
});

describe('a refused question', () => {
  const TOO_LONG = 'Invalid request: text: Invalid length: Expected <=8000 but received 30000';

  it('says why in the reader\'s language, never in the server\'s English', async () => {
    await initI18n('zh-CN');
    const t = i18n.t.bind(i18n);
    const tooLong = describeFailure(t, { kind: 'rejected', message: TOO_LONG, status: 400 }, 'zh-CN');
    expect(tooLong).toBe('消息没有发出，已放回输入框，请重试。 (消息超过 8,000 个字符的上限。)');
    expect(tooLong).not.toContain('Invalid');
    const other = describeFailure(t, { kind: 'rejected', message: 'Invalid request: files: Invalid length', status: 400 }, 'zh-CN');
    expect(other).toContain(i18n.t('errors.refusal.badRequest'));
    expect(other).not.toContain('Invalid');
    expect(describeFailure(t, { kind: 'rejected', message: 'Conversation not found', status: 404 }, 'zh-CN')).not.toContain('not found');
    expect(describeFailure(t, { kind: 'create', message: 'Agent is offline', status: 400 }, 'zh-CN')).not.toContain('offline');
    expect(describeFailure(t, { kind: 'rejected', message: 'boom', status: 500, newAnswer: true }, 'zh-CN')).not.toContain('boom');
    // The server's disk is full: the question was refused before anything was stored.
    const full = describeFailure(t, { kind: 'rejected', message: 'The server has no room left to store messages.', status: 507 }, 'zh-CN');
    expect(full).toContain('服务器存储空间已满');
    expect(full).toContain('已放回输入框');
  });

  it('in English too, with the limit from the contract', async () => {
    await initI18n('en-US');
    const t = i18n.t.bind(i18n);
    expect(describeFailure(t, { kind: 'rejected', message: TOO_LONG, status: 400 }, 'en-US')).toBe(
      'Your message was not sent; it is back in the box. Try again. (The message is longer than the limit of 8,000 characters.)',
    );
    // A stream that broke before any answer: no reason to give.
    expect(describeFailure(t, { kind: 'malformed', message: '' }, 'en-US')).toBe('Your message was not sent; it is back in the box. Try again.');
  });
});
