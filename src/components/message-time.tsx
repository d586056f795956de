import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../i18n/format';
import { TOUCH_QUERY, useMediaQuery } from './use-media-query';

/**
 * When a message was sent, in the reader's language, with the full date as its tooltip; always
 * there for a screen reader. With a mouse the time shows when the message is hovered or has the
 * focus; a touch screen has no hover, so there it is always shown, small and muted.
 */
export const MessageTime = ({ sentAt }: { sentAt: string }) => {
  const { i18n } = useTranslation();
  const touch = useMediaQuery(TOUCH_QUERY);
  const date = new Date(sentAt);
  if (Number.isNaN(date.getTime())) return null;
  const full = formatDateTime(date, i18n.language, { dateStyle: 'full', timeStyle: 'short' });
  return (
    <time
      dateTime={sentAt}
      title={full}
      className={`me-1 px-1 text-xs text-muted ${touch ? '' : 'opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100'}`}
    >
      {formatDateTime(date, i18n.language, { timeStyle: 'short' })}
    </time>
  );
};
