import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { selectAnswerText, type ChatActorRef, type ChatMessage } from '../machines/chat.machine';
import { AnswerFeedbackButtons, type AnswerFeedbackRef } from './answer-feedback';
import { MessageAttachments } from './attachment-list';
import { describeAgentFailure } from './describe-failure';
import { CopyTextButton } from './copy-text-button';
import { LazyMarkdown } from './markdown/lazy-markdown';
import { QuestionEditor, VersionSwitcher, type VersionEvent } from './message-versions';
import { MessageTime } from './message-time';
import { usePacedText } from './use-paced-text';

/**
 * An answer as markdown; one still arriving is painted within the frame budget. Text that came
 * faster than the page could paint it shows its end at once (the view follows the end), and the
 * part before fills in, in order, over the next frames. Once that happened, the answer's blocks
 * out of view are no longer laid out (`.answer-blocks`): that makes a burst cheap, but costs a
 * steady stream more than it saves.
 */
const AnswerText = ({ content, streaming }: { content: string; streaming: boolean }) => {
  const shown = usePacedText(content, streaming);
  const [burst, setBurst] = useState(false);
  if (shown !== content && !burst) setBurst(true);
  return (
    <div className={burst ? 'answer-blocks' : undefined}>
      <LazyMarkdown source={content} painted={shown.length} streaming={streaming || shown !== content} />
    </div>
  );
};

/**
 * An answer. One being written reads its text from the chat itself when the list is given it
 * (`live`): each delta then re-renders this answer alone, not the list and the screen around it,
 * which read the messages apart from answers' text. The same component before and after the
 * answer ends, so what was painted is kept.
 */
const Answer = ({ message, live }: { message: ChatMessage; live: ChatActorRef | undefined }) => {
  const { t } = useTranslation();
  const streaming = message.status === 'streaming';
  const liveText = useSelector(streaming ? live : undefined, (state) => (state ? selectAnswerText(message.key)(state) : undefined));
  const content = liveText ?? message.content;
  if (streaming && !content) return <span className="text-muted">{t('chat.thinking')}</span>;
  return (
    <div dir="auto" className="break-words" data-testid="answer">
      <AnswerText content={content} streaming={streaming} />
    </div>
  );
};

/** What can be done to sent messages: edit a question, ask for a new answer, show another version. */
export type MessageVersionActions = {
  /** Whether the chat accepts this now (its machine's guards decide): each button is enabled from it. */
  can: (event: VersionEvent) => boolean;
  editing: { key: string; text: string } | null;
  onEditStart: (key: string) => void;
  onEditChange: (text: string) => void;
  onEditSend: () => void;
  onEditCancel: () => void;
  onRegenerate: (key: string) => void;
  onShowVersion: (key: string, offset: -1 | 1) => void;
};

type MessageListProps = {
  messages: ChatMessage[];
  canRetry: boolean;
  onRetry: () => void;
  /** The last answer, cut short with text, can be written on from where it stopped (the chat decides). */
  canContinue?: boolean;
  onContinue?: () => void;
  versions?: MessageVersionActions;
  /** Thumbs up and down on the conversation's stored answers. */
  feedback?: { actor: AnswerFeedbackRef; conversationId: string | null };
  /**
   * The chat the messages come from: an answer being written reads its text from it, so `messages`
   * may hold an older text for it (the screen reads them with `sameApartFromAnswerText`).
   */
  live?: ChatActorRef;
  /** The models the reader may use: an answer's model is named as they are. */
  models?: readonly { id: string; name: string }[];
};

/**
 * Which model wrote an answer, small in its meta line: named as the model list names it now, else
 * as it was named when it wrote, else by its id.
 */
const AnswerModelName = ({ model, models }: { model: NonNullable<ChatMessage['model']>; models: readonly { id: string; name: string }[] | undefined }) => {
  const { t } = useTranslation();
  const name = models?.find((listed) => listed.id === model.id)?.name || model.name || model.id;
  return (
    <span className="me-1 max-w-56 shrink-0 truncate px-1 text-xs text-muted" title={t('chat.model.wroteIt', { name })} data-testid="answer-model">
      <span className="sr-only">{t('chat.model.wroteIt', { name })}</span>
      <span aria-hidden="true" dir="auto">
        {name}
      </span>
    </span>
  );
};

/** What an answer cost, in tokens, when the model service said: small, under the answer. */
const TokenUsageLine = ({ usage }: { usage: NonNullable<ChatMessage['usage']> }) => {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  return (
    <p className="m-0 mt-1 text-xs text-muted" data-testid="token-usage">
      {t('chat.usage', { prompt: number.format(usage.promptTokens), completion: number.format(usage.completionTokens) })}
    </p>
  );
};

/**
 * The conversation's messages; an answer that was cut short or failed says so and offers a retry.
 * A sent question can be edited and an answer asked for again; each makes a new version.
 */
export const MessageList = ({ messages, canRetry, onRetry, canContinue = false, onContinue, versions, feedback, live, models }: MessageListProps) => {
  const { t } = useTranslation();
  const last = messages.at(-1);
  /** A cut-short or failed last answer offers Retry, and then not also a new answer: one way to ask again. */
  const offersRetry = (message: ChatMessage) => canRetry && message === last && (message.status === 'incomplete' || message.status === 'failed');
  const answerComing = last?.role === 'assistant' && last.status === 'streaming';
  // The renderer is fetched once the conversation is shown and the page is idle, and at once when
  // an answer is awaited, so a first answer that comes in a burst is laid out from its end as it
  // comes rather than as plain text until the chunk arrives.
  useEffect(() => {
    if (answerComing) return void import('./markdown/markdown');
    if (typeof requestIdleCallback !== 'function') return undefined;
    const idle = requestIdleCallback(() => void import('./markdown/markdown'), { timeout: 2_000 });
    return () => cancelIdleCallback(idle);
  }, [answerComing]);
  const written = (message: ChatMessage) => message.status !== 'streaming' && message.status !== 'sending';
  // Only a message the server stored can have versions.
  const versioned = versions && ((message: ChatMessage) => message.serverId !== null);
  return (
    <ol className="mx-auto flex w-full max-w-3xl flex-col gap-4 p-4" aria-live="polite" aria-busy={last?.status === 'streaming'}>
      {messages.map((message) => (
        <li
          key={message.key}
          data-role={message.role}
          data-status={message.status}
          className={message.role === 'user' ? 'group flex max-w-[85%] flex-col items-end self-end' : 'group max-w-full'}
        >
          <span className="sr-only">{message.role === 'user' ? t('chat.you') : t('app.name')}</span>
          {message.role === 'assistant' ? (
            <Answer message={message} live={live} />
          ) : versions?.editing?.key === message.key ? (
            <QuestionEditor
              text={versions.editing.text}
              canSend={versions.can({ type: 'edit.send' })}
              onChange={versions.onEditChange}
              onSend={versions.onEditSend}
              onCancel={versions.onEditCancel}
            />
          ) : message.content ? (
            <div dir="auto" className="max-w-full whitespace-pre-wrap break-words rounded-2xl bg-accent px-4 py-2 text-accent-fg" data-testid="question">
              {message.content}
            </div>
          ) : null}
          <MessageAttachments files={message.files} />
          {versions?.editing?.key !== message.key && written(message) && (message.content || versioned?.(message)) && (
            <div className="mt-1 flex flex-wrap items-center gap-y-1">
              {message.sentAt && <MessageTime sentAt={message.sentAt} />}
              {message.role === 'assistant' && message.model && <AnswerModelName model={message.model} models={models} />}
              {versions && versioned?.(message) && <VersionSwitcher
                  message={message}
                  canShow={(offset) => versions.can({ type: 'version.show', key: message.key, offset })}
                  onShow={(offset) => versions.onShowVersion(message.key, offset)}
                />}
              {message.content && <CopyTextButton text={message.content} />}
              {versions && versioned?.(message) && message.role === 'user' && (
                <button type="button" className="btn-ghost h-7 gap-1 px-1.5 py-0 text-xs text-muted" disabled={!versions.can({ type: 'edit.start', key: message.key })} onClick={() => versions.onEditStart(message.key)}>
                  <span className="i-lucide-pencil" aria-hidden="true" />
                  {t('chat.edit')}
                </button>
              )}
              {versions && versioned?.(message) && message.role === 'assistant' && !offersRetry(message) && (
                <button type="button" className="btn-ghost h-7 gap-1 px-1.5 py-0 text-xs text-muted" disabled={!versions.can({ type: 'regenerate', key: message.key })} onClick={() => versions.onRegenerate(message.key)}>
                  <span className="i-lucide-refresh-cw" aria-hidden="true" />
                  {t('chat.regenerate')}
                </button>
              )}
              {feedback?.conversationId && message.role === 'assistant' && message.serverId && message.status === 'complete' && (
                <AnswerFeedbackButtons
                  feedback={feedback.actor}
                  conversationId={feedback.conversationId}
                  messageId={message.serverId}
                  stored={message.feedback ?? null}
                />
              )}
            </div>
          )}
          {message.role === 'assistant' && message.usage && written(message) && <TokenUsageLine usage={message.usage} />}
          {(message.status === 'incomplete' || message.status === 'failed') && (
            <div role="status" className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-warn">
              <span>
                {message.status === 'failed' ? t('chat.failed') : t('chat.incomplete')}
                {message.error ? `: ${describeAgentFailure(t, message.error)}` : ''}
              </span>
              {offersRetry(message) && (
                <span className="flex flex-wrap gap-2">
                  <button type="button" className="btn-outline" onClick={onRetry}>
                    <span className="i-lucide-rotate-ccw" aria-hidden="true" />
                    {t('chat.retry')}
                  </button>
                  {canContinue && onContinue && (
                    <button type="button" className="btn-outline" title={t('chat.continueHint')} onClick={onContinue}>
                      <span className="i-lucide-step-forward" aria-hidden="true" />
                      {t('chat.continue')}
                    </button>
                  )}
                </span>
              )}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
};
