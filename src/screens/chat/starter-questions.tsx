import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { agentStarters } from '../../contract/agents';
import type { AgentDetailActor } from './agent-header';

/** A new conversation's starter questions, in the reader's language; one click asks one. */
export const StarterQuestions = ({ detail, onAsk }: { detail: AgentDetailActor; onAsk: (question: string) => void }) => {
  const { t, i18n } = useTranslation();
  const agent = useSelector(detail, (state) => state.context.agent);
  const starters = agent ? agentStarters(agent, i18n.language) : [];
  if (starters.length === 0) return null;
  return (
    <section aria-label={t('chat.starters')} className="mx-auto flex w-full max-w-2xl flex-col gap-2 px-4" data-testid="starters">
      <p className="m-0 text-sm text-muted">{t('chat.starters')}</p>
      <ul className="m-0 grid list-none grid-cols-1 gap-2 p-0 sm:grid-cols-2">
        {starters.map((question) => (
          <li key={question}>
            <button
              type="button"
              dir="auto"
              className="h-full w-full rounded-xl border border-line bg-surface px-4 py-3 text-start text-sm text-fg transition-colors hover:border-accent focus-visible:outline-2 focus-visible:outline-accent focus-visible:outline-offset-2"
              onClick={() => onAsk(question)}
            >
              {question}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
};
