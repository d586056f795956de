import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { historyInput, historyLogic, historyOwner } from './chat-actors';
import { useRuntime } from './runtime-context';
import { useScreenActor } from './use-screen-actor';

/**
 * The chat history's actor for as long as the chat screen shows, kept in step with the rest of
 * the app: refreshed when an exchange changes the list, when the window regains focus, and when
 * someone else signs in; its pending deletions are sent when the screen closes.
 */
export const useChatHistory = () => {
  const { app, toast, dismissToast, screenEvents } = useRuntime();
  const [, navigate] = useLocation();
  const [logic] = useState(() => historyLogic({ app, toast, dismissToast, navigate }));
  const history = useScreenActor(logic, { input: historyInput(app) });

  useEffect(() => screenEvents.on('updateChatList', () => history.send({ type: 'refresh' })), [history, screenEvents]);
  // Leaving the chat screen, or the page (a reload, a closed tab), deletes at once what was
  // waiting for its undo window.
  useEffect(() => {
    const onPageHide = () => history.send({ type: 'history.close' });
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      history.send({ type: 'history.close' });
    };
  }, [history]);
  useEffect(() => {
    const onFocus = () => history.send({ type: 'window.focus' });
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [history]);
  // Logging in or out changes whose chats these are.
  const owner = useSelector(app, historyOwner);
  const [seenOwner, setSeenOwner] = useState(owner);
  if (seenOwner !== owner) {
    setSeenOwner(owner);
    history.send({ type: 'refresh' });
  }
  return history;
};
