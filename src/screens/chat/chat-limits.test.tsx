import { act, fireEvent, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Switch } from 'wouter';
import { endpoints } from '../../contract/endpoints';
import { initI18n } from '../../i18n';
import { failBody } from '../../../tests/msw/handlers';
import { server } from '../../../tests/msw/server';
import { chatRefusedHandler } from '../../../tests/msw/sse';
import { renderWithRuntime } from '../../../tests/spa/harness';
import ChatScreen from './chat-screen';

/** What a person reads when the server refuses because a quota is used up (429 with Retry-After). */

const QUESTIONS_SPENT = 'You have reached the limit of 20 questions a minute for a visitor. Please wait 42 seconds and try again.';
const CONVERSATIONS_SPENT = 'You have reached the limit of 30 new conversations a minute for a visitor. Please wait 42 seconds and try again.';
const UPLOADS_SPENT = 'You have reached the limit of 100 MB of uploads a day for a visitor. Please wait 3600 seconds and try again.';

const openChat = async (locale = 'en-US') => {
  const view = await renderWithRuntime(
    <Switch>
      <Route path="/chat" component={ChatScreen} />
      <Route path="/chat/*" component={ChatScreen} />
    </Switch>,
    { url: '/chat' },
  );
  if (locale !== 'en-US') {
    await act(async () => {
      await initI18n(locale);
    });
  }
  return view;
};

const box = () => screen.getByRole('textbox');
const attach = (file: File) => fireEvent.change(screen.getByTestId('attach-input'), { target: { files: [file] } });
const uploadRefused = (headers: Record<string, string>) =>
  server.use(http.post(endpoints.upload.path, () => HttpResponse.json(failBody(UPLOADS_SPENT), { status: 429, headers })));

beforeEach(() => {
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:local-preview');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
});
afterEach(async () => {
  vi.restoreAllMocks();
  await initI18n('en-US');
});

describe('a question refused for a used-up quota', () => {
  it('says so in English with when to try again, and keeps the question in the box', async () => {
    server.use(chatRefusedHandler(429, QUESTIONS_SPENT, { 'Retry-After': '42' }));
    const view = await openChat();

    await view.user.type(box(), 'One more question{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('You’ve reached the limit on questions for now. Please try again in 42 seconds.');
    expect(box()).toHaveValue('One more question');
    expect(screen.queryByTestId('question')).toBeNull();
  });

  it('says so in French, rounding a long wait up to hours', async () => {
    server.use(chatRefusedHandler(429, QUESTIONS_SPENT, { 'Retry-After': '5400' }));
    const view = await openChat('fr-FR');

    await view.user.type(box(), 'Encore une question{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Vous avez atteint la limite de questions pour le moment. Réessayez dans 2 heures.',
    );
    expect(box()).toHaveValue('Encore une question');
  });

  it('says to try again later when the refusal does not say when (a proxy’s 429)', async () => {
    server.use(chatRefusedHandler(429, 'Too Many Requests'));
    const view = await openChat();

    await view.user.type(box(), 'Hello{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('You’ve reached the limit on questions for now. Please try again later.');
    expect(box()).toHaveValue('Hello');
  });
});

describe('a new conversation refused because too many were started lately', () => {
  const creationRefused = (headers: Record<string, string>) =>
    server.use(http.post(endpoints.conversationCreate.path, () => HttpResponse.json(failBody(CONVERSATIONS_SPENT), { status: 429, headers })));

  it('says so in English with when to try again, and keeps the question in the box', async () => {
    creationRefused({ 'Retry-After': '42' });
    const view = await openChat();

    await view.user.type(box(), 'A new topic{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You’ve started the most new conversations allowed for now. Please try again in 42 seconds.');
    expect(alert).not.toHaveTextContent('You have reached the limit of 30');
    expect(box()).toHaveValue('A new topic');
  });

  it('says so in German, and says later when the refusal does not say when', async () => {
    creationRefused({});
    const view = await openChat('de-DE');

    await view.user.type(box(), 'Ein neues Thema{Enter}');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sie haben das Limit für neue Chats vorerst erreicht. Bitte versuchen Sie es später erneut.');
    expect(box()).toHaveValue('Ein neues Thema');
  });
});

describe('an upload refused for a used-up quota', () => {
  it('says so in English beside the file, with when to try again', async () => {
    uploadRefused({ 'Retry-After': '3600' });
    await openChat();

    attach(new File([new Uint8Array(8)], 'cat.png', { type: 'image/png' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('cat.png was not uploaded: you’ve reached the upload limit. Please try again in 1 hour.');
  });

  it('says so in Japanese', async () => {
    uploadRefused({ 'Retry-After': '30' });
    await openChat('ja');

    attach(new File([new Uint8Array(8)], 'cat.png', { type: 'image/png' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'cat.png はアップロードされませんでした：アップロードの上限に達しました。30 秒後にもう一度お試しください。',
    );
  });
});
