import { useSelector } from '@xstate/react';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useChatActor } from '../../app/use-chat-actor';
import { useNearEnd } from '../../components/use-near-end';
import { agentsMarketLogic } from '../../app/agents-actors';
import { AgentCard } from './agent-card';
import { AgentDetailDialog } from './agent-detail-dialog';
import { ApplicationsSection } from './applications-section';
import { CategoryFilter } from './category-filter';
import { useScreenActor } from '../../app/use-screen-actor';

/** The agents market: published agents, searchable, paged as the list nears its end. */
const AgentsMarket = () => {
  const { t } = useTranslation();
  const chat = useChatActor();
  const [, navigate] = useLocation();
  const market = useScreenActor(agentsMarketLogic({ chat, navigate }));
  const items = useSelector(market, (state) => state.context.items);
  const keyword = useSelector(market, (state) => state.context.keyword);
  const category = useSelector(market, (state) => state.context.category);
  const selected = useSelector(market, (state) => state.context.selected);
  const phase = useSelector(market, (state) =>
    state.matches('failed')
      ? 'failed'
      : state.matches('loading') || state.matches('debouncing')
        ? 'loading'
        : state.matches('loadingMore')
          ? 'more'
          : state.matches('moreFailed')
            ? 'moreFailed'
            : 'ready',
  );
  const hasMore = useSelector(market, (state) => state.can({ type: 'loadMore' }));
  const [search, setSearch] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const loadMore = useCallback(() => market.send({ type: 'loadMore' }), [market]);
  const onScroll = useNearEnd(scrollRef, loadMore, items.length);
  const open = useCallback((agentId: string) => market.send({ type: 'agent.open', agentId }), [market]);

  return (
    <div ref={scrollRef} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto" data-testid="agents-market">
      <div className="mx-auto flex w-full max-w-5xl flex-col gap-4 p-4 md:p-6">
        <div>
          <h2 className="m-0 text-2xl font-bold">{t('agents.title')}</h2>
          <p className="m-0 text-muted">{t('agents.subtitle')}</p>
        </div>
        <div className="relative max-w-md">
          <span className="i-lucide-search pointer-events-none absolute start-3 top-1/2 -translate-y-1/2 text-muted" aria-hidden="true" />
          <input
            type="search"
            value={search}
            aria-label={t('agents.search')}
            placeholder={t('agents.search')}
            className="field ps-9"
            onChange={(event) => {
              setSearch(event.target.value);
              market.send({ type: 'search', keyword: event.target.value });
            }}
          />
        </div>
        <ApplicationsSection />
        <CategoryFilter selected={category} onPick={(picked) => market.send({ type: 'category.pick', category: picked })} />
        {phase === 'loading' ? (
          <p role="status" className="text-muted">
            {t('agents.loading')}
          </p>
        ) : phase === 'failed' ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="m-0">{t('agents.failed')}</p>
            <button type="button" className="btn-outline" onClick={() => market.send({ type: 'retry' })}>
              {t('agents.retry')}
            </button>
          </div>
        ) : items.length === 0 ? (
          <p className="text-muted">{keyword ? t('agents.noMatch', { keyword }) : category ? t('agents.noMatchCategory') : t('agents.empty')}</p>
        ) : (
          <>
            <ul aria-label={t('agents.title')} className="m-0 grid list-none grid-cols-1 gap-3 p-0 sm:grid-cols-2 xl:grid-cols-3">
              {items.map((agent) => (
                <AgentCard key={agent.agentId} agent={agent} onOpen={open} />
              ))}
            </ul>
            <div className="pb-4 text-center text-sm text-muted">
              {phase === 'more' ? (
                <p role="status">{t('agents.loadingMore')}</p>
              ) : phase === 'moreFailed' ? (
                <div role="alert" className="flex flex-col items-center gap-2">
                  <p className="m-0">{t('agents.moreFailed')}</p>
                  <button type="button" className="btn-outline" onClick={() => market.send({ type: 'retry' })}>
                    {t('agents.retry')}
                  </button>
                </div>
              ) : hasMore ? null : (
                <p>{t('agents.end')}</p>
              )}
            </div>
          </>
        )}
      </div>
      <AgentDetailDialog
        agent={selected}
        onClose={() => market.send({ type: 'agent.close' })}
        onStart={(agentId) => market.send({ type: 'agent.start', agentId })}
      />
    </div>
  );
};

export default AgentsMarket;
