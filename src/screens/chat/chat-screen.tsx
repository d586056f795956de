import { useSelector } from '@xstate/react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { useChatActor } from '../../app/use-chat-actor';
import { useRuntime } from '../../app/runtime-context';
import { useChatAttachments } from '../../app/attachment-actors';
import { ChatComposer } from '../../components/chat-composer';
import { describeFailure } from '../../components/describe-failure';
import { MessageList } from '../../components/message-list';
import type { VersionEvent } from '../../components/message-versions';
import { ModalDialog } from '../../components/modal-dialog';
import { SiteHeader } from '../../components/site-header';
import { MOBILE_QUERY, useMediaQuery } from '../../components/use-media-query';
import { useMessageWindow } from '../../components/use-message-window';
import { useStickToBottom } from '../../components/use-stick-to-bottom';
import { useDocumentTitle } from '../../i18n/use-document-title';
import { isAnswering, sameApartFromAnswerText, sameChatApartFromAnswerText, type ChatRoute } from '../../machines/chat.machine';
import { AgentHeaderView, useAgentDetail } from './agent-header';
import { ApplicationHeader } from './application-header';
import { ShareDialog } from './share-dialog';
import { StarterQuestions } from './starter-questions';
import { ConversationHistory } from './conversation-history';
import { useChatHistory } from '../../app/use-chat-history';
import { answerFeedbackLogic } from '../../app/answer-feedback-actors';
import { useScreenActor } from '../../app/use-screen-actor';
import { AnswerFeedbackDialog } from '../../components/answer-feedback';
import { ImagesUnseenNote } from './images-unseen-note';
import { ChosenModelImagesNote, ModelPicker, useAgentModelAnswers, useModelChoice } from './model-picker';
import { newChatScope } from '../../machines/draft-book';
import { HISTORY_ID, HistoryToggle } from './history-toggle';

const AgentsMarket = lazy(() => import('../agents/agents-market'));

/** The sub-path of /chat that shows the agents market instead of a conversation. */
const MARKET_PATH = 'agents';

const combine =
  (...stops: Array<() => void>) =>
  (): void => {
    for (const stop of stops) stop();
  };

const ChatScreen = () => {
  const { t, i18n } = useTranslation();
  const { app } = useRuntime();
  const chat = useChatActor();
  const signedIn = useSelector(app, (state) => state.context.user !== null);
  const [shareOpen, setShareOpen] = useState(false);
  const params = useParams<{ '*': string }>();
  const [location] = useLocation();
  const [searchParams] = useSearchParams();
  const subPath = params['*'] || null;
  const showMarket = subPath === MARKET_PATH;
  const routeId = showMarket ? null : subPath;
  const linkedAgent = searchParams.get('agent');
  useDocumentTitle(showMarket ? t('agents.title') : t('nav.chat'), t('agents.subtitle'));
  const mobile = useMediaQuery(MOBILE_QUERY);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [historyHidden, setHistoryHidden] = useState(false);
  const { screenEvents } = useRuntime();
  useEffect(
    () =>
      combine(
        screenEvents.on('toggleHistory', () => (mobile ? setDrawerOpen((open) => !open) : setHistoryHidden((hidden) => !hidden))),
        screenEvents.on('showHistory', () => (mobile ? setDrawerOpen(true) : setHistoryHidden(false))),
      ),
    [screenEvents, mobile],
  );
  const history = useChatHistory();

  const conversationId = useSelector(chat, (state) => state.context.conversationId);
  const agentId = useSelector(chat, (state) => state.context.agentId);
  const withApplication = useSelector(chat, (state) => state.context.source === 'workflow');
  const application = useSelector(chat, (state) => state.context.application);
  // Not an answer's growing text: that is read by the answer alone (MessageList's `live`).
  const messages = useSelector(chat, (state) => state.context.messages, sameApartFromAnswerText);
  const draft = useSelector(chat, (state) => state.context.draft);
  const failure = useSelector(chat, (state) => state.context.failure);
  const streaming = useSelector(chat, isAnswering);
  const canRetry = useSelector(chat, (state) => state.can({ type: 'retry' }));
  const canContinue = useSelector(chat, (state) => state.can({ type: 'continue' }));
  const loadFailed = useSelector(chat, (state) => state.matches('loadFailed'));
  const editing = useSelector(chat, (state) => state.context.editing);
  // Asked of the snapshot shown, so each version button agrees with what the chat accepts. What
  // the chat accepts does not change with an answer's growing text, so neither does this.
  const versionSnapshot = useSelector(chat, (state) => state, sameChatApartFromAnswerText);
  const versionAccepted = useCallback((event: VersionEvent) => versionSnapshot.can(event), [versionSnapshot]);
  const detached = useSelector(chat, (state) => state.matches('detached'));
  // A new conversation with nothing typed yet offers its agent's starter questions (the chat decides).
  const offerStarters = useSelector(chat, (state) => state.can({ type: 'starter.ask', text: '' }));
  const agentDetail = useAgentDetail(agentId);
  const agent = useSelector(agentDetail, (state) => state.context.agent);
  // The model chosen is kept where the drafts are: per conversation, and per agent for a new chat.
  const modelChoice = useModelChoice(chat, withApplication ? null : agent);
  const modelScope = conversationId ?? newChatScope(agentId);
  const models = useSelector(modelChoice, (state) => state.context.models);
  const agentModelAnswers = useAgentModelAnswers(modelChoice, modelScope, agentId);
  const attachments = useChatAttachments(chat);
  const feedback = useScreenActor(answerFeedbackLogic);
  const imageAttached = attachments.files.some((file) => file.kind === 'image');
  const { ref: scrollRef, atBottom, onScroll, jumpToLatest } = useStickToBottom<HTMLDivElement>(messages);
  const windowed = useMessageWindow(messages, scrollRef, conversationId);

  // The address is reported as it is; the machines decide what it means (open, new chat, market).
  const route = useMemo<ChatRoute>(() => ({ market: showMarket, conversationId: routeId, agentId: linkedAgent }), [showMarket, routeId, linkedAgent]);
  useEffect(() => {
    chat.send({ type: 'route.changed', ...route });
    history.send({ type: 'route.changed', ...route });
  }, [route, chat, history]);

  // Picking a chat (or the market) in the drawer closes it.
  const [seenLocation, setSeenLocation] = useState(location);
  if (seenLocation !== location) {
    setSeenLocation(location);
    setDrawerOpen(false);
  }

  const historyPanel = <ConversationHistory history={history} />;

  return (
    <div className="flex min-h-0 flex-1">
      {mobile ? (
        <ModalDialog
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          label={t('chat.menu')}
          className="m-0 h-full max-h-none w-[min(20rem,85vw)] rounded-none border-y-0 border-s-0"
        >
          {/* The site header steps aside on a phone: its links and menus are here, above the history. */}
          <div className="flex h-full flex-col">
            <SiteHeader menu>
              <button type="button" className="btn-ghost h-9 w-9 shrink-0 p-0" aria-label={t('chat.closeMenu')} onClick={() => setDrawerOpen(false)}>
                <span className="i-lucide-x text-lg" aria-hidden="true" />
              </button>
            </SiteHeader>
            <div className="min-h-0 flex-1">{historyPanel}</div>
          </div>
        </ModalDialog>
      ) : (
        !historyHidden && (
          <aside id={HISTORY_ID} className="flex w-72 shrink-0 flex-col border-e border-line bg-surface">
            {historyPanel}
          </aside>
        )
      )}
      <section className="flex min-w-0 flex-1 flex-col" aria-label={t('nav.chat')}>
        {/* On a phone this is the page's only bar: the site's header gives it its height (theme.css). */}
        <div className="flex items-center gap-2 border-b border-line bg-surface px-2 py-2 sm:px-3" data-testid="chat-bar" data-replaces-site-header={mobile || undefined}>
          {!mobile && <HistoryToggle hidden={historyHidden} onToggle={() => setHistoryHidden((hidden) => !hidden)} />}
          {mobile && (
            <button
              type="button"
              className="btn-ghost h-9 w-9 shrink-0 p-0"
              aria-label={t('chat.openMenu')}
              aria-expanded={drawerOpen}
              aria-haspopup="dialog"
              onClick={() => setDrawerOpen(true)}
            >
              <span className="i-lucide-menu text-lg" aria-hidden="true" />
            </button>
          )}
          {showMarket ? (
            <p className="m-0 flex-1 font-semibold">{t('agents.title')}</p>
          ) : (
            withApplication ? <ApplicationHeader application={application} /> : <AgentHeaderView detail={agentDetail} />
          )}
          {!showMarket && conversationId && (
            <button type="button" className="btn-ghost shrink-0" aria-haspopup="dialog" aria-label={t('share.open')} onClick={() => setShareOpen(true)}>
              <span className="i-lucide-share-2" aria-hidden="true" />
              <span className="hidden sm:inline" aria-hidden="true">
                {t('share.open')}
              </span>
            </button>
          )}
          {/* On a wide screen the history beside the chat has the market's button; a phone's drawer is closed. */}
          {!showMarket && mobile && (
            <Link href="/chat/agents" className="btn-ghost shrink-0" aria-label={t('chat.browseAgents')}>
              <span className="i-lucide-bot" aria-hidden="true" />
              <span className="hidden sm:inline">{t('chat.agents')}</span>
            </Link>
          )}
        </div>
        {showMarket ? (
          <Suspense
            fallback={
              <p role="status" className="p-8 text-center text-muted">
                {t('agents.loading')}
              </p>
            }
          >
            <AgentsMarket />
          </Suspense>
        ) : (
          <>
            <div
              ref={scrollRef}
              onScroll={() => {
                onScroll();
                windowed.onScroll();
              }}
              className="relative min-h-0 flex-1 overflow-y-auto"
            >
              {loadFailed ? (
                <div role="alert" className="p-8 text-center">
                  <p className="mb-4">{t('chat.loadFailed')}</p>
                  <button type="button" className="btn-primary" onClick={() => chat.send({ type: 'reload' })}>
                    {t('chat.reload')}
                  </button>
                </div>
              ) : messages.length === 0 ? (
                <>
                  <p className="p-12 text-center text-xl text-muted">{t('chat.empty')}</p>
                  {offerStarters && <StarterQuestions detail={agentDetail} onAsk={(question) => chat.send({ type: 'starter.ask', text: question })} />}
                </>
              ) : (
                <>
                  {windowed.hidden > 0 && (
                    <div className="flex justify-center pt-4">
                      <button type="button" className="btn-outline" onClick={windowed.revealEarlier}>
                        <span className="i-lucide-chevrons-up" aria-hidden="true" />
                        {t('chat.showEarlier')}
                      </button>
                    </div>
                  )}
                  <MessageList
                    messages={windowed.visible}
                    canRetry={canRetry}
                    onRetry={() => chat.send({ type: 'retry' })}
                    canContinue={canContinue}
                    onContinue={() => chat.send({ type: 'continue' })}
                    versions={{
                      can: versionAccepted,
                      editing,
                      onEditStart: (key) => chat.send({ type: 'edit.start', key }),
                      onEditChange: (text) => chat.send({ type: 'edit.change', text }),
                      onEditSend: () => chat.send({ type: 'edit.send' }),
                      onEditCancel: () => chat.send({ type: 'edit.cancel' }),
                      onRegenerate: (key) => chat.send({ type: 'regenerate', key }),
                      onShowVersion: (key, offset) => chat.send({ type: 'version.show', key, offset }),
                    }}
                    feedback={{ actor: feedback, conversationId }}
                    live={chat}
                    models={models}
                  />
                  <AnswerFeedbackDialog feedback={feedback} />
                </>
              )}
            </div>
            <div className="relative mx-auto w-full max-w-3xl p-4">
              {!atBottom && (
                <button type="button" className="btn-outline absolute -top-12 left-1/2 -translate-x-1/2 bg-surface shadow" onClick={jumpToLatest}>
                  <span className="i-lucide-arrow-down" aria-hidden="true" />
                  {t('chat.jumpToLatest')}
                </button>
              )}
              {detached && (
                <p role="status" className="mb-2 text-sm text-warn">
                  {t('chat.connectionLost')}
                </p>
              )}
              {imageAttached &&
                (agentModelAnswers ? (
                  <ImagesUnseenNote agentId={agentId} />
                ) : (
                  <ChosenModelImagesNote choice={modelChoice} scope={modelScope} agentId={agentId} />
                ))}
              {failure && !canRetry && !loadFailed && (
                <p role="alert" className="mb-2 text-sm text-danger">
                  {describeFailure(t, failure, i18n.language)}
                </p>
              )}
              {!withApplication && <ModelPicker choice={modelChoice} scope={modelScope} agentId={agentId} />}
              <ChatComposer
                value={draft}
                label={t('chat.placeholder')}
                streaming={streaming}
                onChange={(text) => chat.send({ type: 'draft.change', text })}
                onSend={() => chat.send({ type: 'send' })}
                onStop={() => chat.send({ type: 'stop' })}
                attachments={attachments}
                // On a phone the focus would open the keyboard over the conversation just opened.
                arrival={mobile ? undefined : `${routeId ?? 'new'}|${agentId ?? ''}`}
                claimFocus={routeId === null}
              />
            </div>
          </>
        )}
      </section>
      {conversationId && (
        <ShareDialog key={conversationId} open={shareOpen} onClose={() => setShareOpen(false)} conversationId={conversationId} signedIn={signedIn} />
      )}
    </div>
  );
};

export default ChatScreen;
