import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../machines/chat.machine';
import { MessageAttachments } from './attachment-list';
import { describeAgentFailure } from './describe-failure';
import { CopyTextButton } from './copy-text-button';
import { LazyMarkdown } from './markdown/lazy-markdown';

type MessageListProps = {
  messages: ChatMessage[];
  canRetry: boolean;
  onRetry: () => void;
};

/** The conversation's messages; an answer that was cut short or failed says so and offers a retry. */
export const MessageList = ({ messages, canRetry, onRetry }: MessageListProps) => {
  const { t } = useTranslation();
  const last = messages.at(-1);
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
          {message.role === 'assistant' && message.status === 'streaming' && !message.content ? (
            <span className="text-muted">{t('chat.thinking')}</span>
          ) : message.role === 'assistant' ? (
            <div dir="auto" className="break-words" data-testid="answer">
              <LazyMarkdown source={message.content} streaming={message.status === 'streaming'} />
            </div>
          ) : message.content ? (
            <div dir="auto" className="max-w-full whitespace-pre-wrap break-words rounded-2xl bg-accent px-4 py-2 text-accent-fg" data-testid="question">
              {message.content}
            </div>
          ) : null}
          <MessageAttachments files={message.files} />
          {message.content && message.status !== 'streaming' && message.status !== 'sending' && (
            <div className="mt-1 flex">
              <CopyTextButton text={message.content} />
            </div>
          )}
          {(message.status === 'incomplete' || message.status === 'failed') && (
            <div role="status" className="mt-2 flex items-center gap-3 text-sm text-warn">
              <span>
                {message.status === 'failed' ? t('chat.failed') : t('chat.incomplete')}
                {message.error ? `: ${describeAgentFailure(t, message.error)}` : ''}
              </span>
              {canRetry && message === last && (
                <button type="button" className="btn-outline" onClick={onRetry}>
                  <span className="i-lucide-rotate-ccw" aria-hidden="true" />
                  {t('chat.retry')}
                </button>
              )}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
};
