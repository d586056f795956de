import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { modelChoiceOf, type ChatActor } from '../../app/chat-runtime';
import type { ModelChoiceActor } from '../../app/model-choice-actors';
import type { Agent } from '../../contract/agents';
import { answeringModel, chosenModel, offersChoice, ownModelOf, pickerModels } from '../../machines/model-choice.machine';

/**
 * The chat's model picker, fed what it follows: the models are asked for once the chat is shown,
 * and the agent in view is told as the server describes it (its own model, whether people may
 * choose another). Nothing is said of an agent not loaded yet: until then no model is named.
 */
export const useModelChoice = (chat: ChatActor, agent: Agent | null): ModelChoiceActor => {
  const choice = modelChoiceOf(chat);
  useEffect(() => choice.send({ type: 'models.wanted' }), [choice]);
  const agentId = agent?.agentId;
  const modelId = agent?.modelId ?? null;
  const allowModelChoice = agent?.allowModelChoice === true;
  useEffect(() => {
    if (agentId) choice.send({ type: 'agent.seen', rule: { agentId, modelId, allowModelChoice } });
  }, [choice, agentId, modelId, allowModelChoice]);
  return choice;
};

type PickerProps = { choice: ModelChoiceActor; scope: string; agentId: string };

/**
 * Where the agent lets people choose: the model that will answer the next question here (and a
 * retry, an edit or a new answer), and the person's models to pick from, the agent's own first
 * and marked. Its names are the registry's, shown as text.
 */
export const ModelPicker = ({ choice, scope, agentId }: PickerProps) => {
  const { t } = useTranslation();
  const context = useSelector(choice, (state) => state.context);
  const ready = useSelector(choice, (state) => state.matches('ready'));
  const failed = useSelector(choice, (state) => state.matches('failed'));
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return undefined;
    const closeOutside = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  const rule = context.rules[agentId];
  const refusal = context.refusal?.scope === scope ? context.refusal : null;
  const notice = refusal && (
    <p role="status" className="m-0 text-sm text-warn" data-testid="model-refused">
      {t(refusal.kind === 'unknown' ? 'chat.model.refusedUnknown' : 'chat.model.refusedNotAllowed')}
    </p>
  );
  if (failed && rule?.allowModelChoice) {
    return (
      <div className="mb-2 flex flex-wrap items-center gap-2 text-sm text-muted">
        <span>{t('chat.model.loadFailed')}</span>
        <button type="button" className="btn-ghost h-7 px-2 py-0 text-xs" onClick={() => choice.send({ type: 'retry' })}>
          {t('app.retry')}
        </button>
      </div>
    );
  }
  if (!ready || !offersChoice(context, agentId)) return notice ? <div className="mb-2">{notice}</div> : null;

  const own = ownModelOf(context.models, rule);
  const answering = answeringModel(context, scope, agentId);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div
      ref={rootRef}
      className="relative mb-2 flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.preventDefault();
        close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="btn-ghost h-8 min-w-0 max-w-full gap-1.5 px-2 py-0 text-sm text-muted"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={t('chat.model.change', { name: answering?.name ?? '' })}
        data-testid="model-picker"
        onClick={() => setOpen((value) => !value)}
      >
        <span className="i-lucide-cpu shrink-0" aria-hidden="true" />
        <span className="min-w-0 truncate" dir="auto">
          {answering?.name}
        </span>
        <span className={`i-lucide-chevron-down shrink-0 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
      </button>
      {notice}
      {open && (
        <div
          id={panelId}
          className="absolute bottom-full start-0 z-30 mb-1 flex max-h-[min(24rem,60vh)] w-80 max-w-[calc(100vw-2rem)] flex-col overflow-y-auto rounded-lg border border-line bg-surface p-2 shadow-lg"
        >
          <p id={`${panelId}-title`} className="m-0 mb-1 px-2 text-xs font-semibold text-muted">
            {t('chat.model.choose')}
          </p>
          <div role="radiogroup" aria-labelledby={`${panelId}-title`} className="flex min-w-0 flex-col gap-0.5">
            {pickerModels(context.models, rule).map((model) => (
              <label
                key={model.id}
                className={`relative flex min-w-0 cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm text-fg hover:bg-raised ${model === answering ? 'bg-raised font-medium' : ''}`}
              >
                {/* The radio itself is invisible and covers the row, so the whole row is what is clicked and focused. */}
                <input
                  type="radio"
                  name={`${panelId}-model`}
                  checked={model === answering}
                  onChange={() => {
                    choice.send({ type: 'choose', scope, agentId, modelId: model.id });
                    close();
                  }}
                  className="absolute inset-0 m-0 cursor-pointer appearance-none rounded-md"
                />
                <span className="min-w-0 flex-1 break-words" dir="auto">
                  {model.name}
                </span>
                {model === own && (
                  <span className="shrink-0 whitespace-nowrap rounded-full border border-line px-2 py-0.5 text-xs font-normal text-muted">{t('chat.model.agentsOwn')}</span>
                )}
                {model.vision && <span className="i-lucide-eye shrink-0 text-muted" role="img" aria-label={t('chat.model.seesImages')} title={t('chat.model.seesImages')} />}
                <span className={`i-lucide-check shrink-0 ${model === answering ? 'text-accent' : 'invisible'}`} aria-hidden="true" />
              </label>
            ))}
          </div>
        </div>
      )}
    </div>
  );
};

/**
 * Shown while an image is attached and a model chosen here will answer: says, before sending,
 * that it will not see the image (the agent's own model is the chat's usual note).
 */
export const ChosenModelImagesNote = ({ choice, scope, agentId }: PickerProps) => {
  const { t } = useTranslation();
  const chosen = useSelector(choice, (state) => chosenModel(state.context, scope, agentId));
  if (!chosen || chosen.vision) return null;
  return (
    <p role="status" className="mb-2 flex items-center gap-1 text-sm text-muted" data-testid="images-unseen">
      <span className="i-lucide-eye-off shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-words">{t('chat.model.imagesUnseen', { name: chosen.name })}</span>
    </p>
  );
};

/** Whether the chat's own note about images applies: no model chosen here answers instead of the agent's. */
export const useAgentModelAnswers = (choice: ModelChoiceActor, scope: string, agentId: string): boolean =>
  useSelector(choice, (state) => chosenModel(state.context, scope, agentId) === null);
