import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { applicationsListLogic } from '../../app/agents-actors';
import { useChatActor } from '../../app/use-chat-actor';
import { useScreenActor } from '../../app/use-screen-actor';
import { AgentAvatar } from '../../components/agent-avatar';
import { agentWords } from '../../contract/agents';

/**
 * One row, scrolled sideways when it holds more than fits, and as tall while it loads or failed as
 * once loaded: the categories and agents below never move when the applications arrive (a grid
 * growing by a row of cards moved them down on a phone as the market loaded).
 */
const ROW = 'm-0 flex list-none snap-x gap-3 overflow-x-auto p-0 pb-1';
const PLACE = 'h-28 w-64 shrink-0 snap-start list-none sm:w-72';

/** Published applications (workflows) in the market; starting one opens a workflow conversation. */
export const ApplicationsSection = () => {
  const { t, i18n } = useTranslation();
  const chat = useChatActor();
  const [, navigate] = useLocation();
  const list = useScreenActor(applicationsListLogic({ chat, navigate }));
  const items = useSelector(list, (state) => state.context.items);
  const phase = useSelector(list, (state) => String(state.value));
  if (phase === 'ready' && items.length === 0) return null;
  return (
    <section aria-labelledby="market-applications" className="flex flex-col gap-2" data-testid="applications">
      <div>
        <h3 id="market-applications" className="m-0 text-lg font-semibold">
          {t('agents.applications')}
        </h3>
        <p className="m-0 text-sm text-muted">{t('agents.applicationsHint')}</p>
      </div>
      {phase === 'loading' ? (
        <>
          <p role="status" className="sr-only">
            {t('agents.applicationsLoading')}
          </p>
          <ul className={ROW} aria-hidden="true" data-testid="applications-loading">
            {[0, 1].map((place) => (
              <li key={place} className={`${PLACE} animate-pulse rounded-xl border border-line bg-raised`} />
            ))}
          </ul>
        </>
      ) : phase === 'failed' ? (
        <div role="alert" className="flex h-28 items-center gap-2 text-sm">
          <p className="m-0">{t('agents.applicationsFailed')}</p>
          <button type="button" className="btn-outline" onClick={() => list.send({ type: 'retry' })}>
            {t('agents.retry')}
          </button>
        </div>
      ) : (
        <ul className={ROW}>
          {items.map((application) => {
            const { name, intro } = agentWords(application, i18n.language);
            return (
              <li key={application.applicationId} className={PLACE}>
                <button
                  type="button"
                  className="flex h-full w-full items-start gap-3 overflow-hidden rounded-xl border border-line bg-surface p-3 text-start text-fg shadow-sm transition-colors hover:border-accent focus-visible:outline-2 focus-visible:outline-accent focus-visible:outline-offset-2"
                  aria-label={t('agents.startApplication', { name })}
                  data-testid="application-card"
                  onClick={() => list.send({ type: 'application.start', applicationId: application.applicationId })}
                >
                  <AgentAvatar src={application.avatar} name={name} size={36} />
                  <span className="min-w-0">
                    <span className="line-clamp-2 hyphens-auto font-semibold leading-snug [overflow-wrap:anywhere]" title={name}>{name}</span>
                    <span className="line-clamp-2 text-sm text-muted">{intro}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
};
