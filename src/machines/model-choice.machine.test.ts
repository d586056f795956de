import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { UsableModel } from '../contract/models';
import {
  MAX_MODEL_CHOICES,
  answeringModel,
  modelChoiceMachine,
  modelIdToSend,
  pickerModels,
  writeChoice,
  type ModelBook,
  type ModelRule,
} from './model-choice.machine';

const model = (id: string, patch: Partial<UsableModel> = {}): UsableModel => ({ id, name: id, contextWindow: null, maxOutput: null, vision: false, isDefault: false, ...patch });
const HOUSE = model('house', { isDefault: true });
const SEEING = model('seeing', { vision: true });
const LONG = model('long');
const MODELS = [HOUSE, SEEING, LONG];
const CHOOSING: ModelRule = { agentId: 'tester', modelId: 'seeing', allowModelChoice: true };
const FIXED: ModelRule = { agentId: 'fixed', modelId: null, allowModelChoice: false };

const start = (fetch: () => Promise<UsableModel[]> = async () => MODELS) => {
  const persisted: ModelBook[] = [];
  const fetchModels = vi.fn(fetch);
  const actor = createActor(
    modelChoiceMachine.provide({
      actors: { fetchModels: fromPromise(() => fetchModels()) },
      actions: { persist: (_, { book }) => void persisted.push(book) },
    }),
  ).start();
  return { actor, persisted, fetchModels };
};

const ready = async (fetch?: () => Promise<UsableModel[]>) => {
  const started = start(fetch);
  started.actor.send({ type: 'agent.seen', rule: CHOOSING });
  started.actor.send({ type: 'agent.seen', rule: FIXED });
  started.actor.send({ type: 'models.wanted' });
  await waitFor(started.actor, (state) => state.matches('ready'));
  return started;
};

describe('the model chosen in the chat', () => {
  it('reads the models once the chat is shown, and only then', async () => {
    const { actor, fetchModels } = start();
    expect(fetchModels).not.toHaveBeenCalled();
    actor.send({ type: 'models.wanted' });
    await waitFor(actor, (state) => state.matches('ready'));
    actor.send({ type: 'models.wanted' });
    expect(fetchModels).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.models).toEqual(MODELS);
  });

  it('keeps a choice per place, sends it with that place’s questions, and keeps the book', async () => {
    const { actor, persisted } = await ready();
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'long' });
    const { context } = actor.getSnapshot();
    expect(modelIdToSend(context, { conversationId: 'conv-1', agentId: 'tester' })).toBe('long');
    expect(modelIdToSend(context, { conversationId: 'conv-2', agentId: 'tester' })).toBeUndefined();
    expect(persisted.at(-1)).toEqual({ 'conv-1': { modelId: 'long', at: 1 } });
  });

  it('takes the agent’s own model chosen as no choice at all', async () => {
    const { actor } = await ready();
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'long' });
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'seeing' });
    expect(actor.getSnapshot().context.book).toEqual({});
    expect(answeringModel(actor.getSnapshot().context, 'conv-1', 'tester')).toBe(SEEING);
  });

  it('takes no choice for an agent that does not let people choose, nor a model not listed', async () => {
    const { actor, persisted } = await ready();
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'fixed', modelId: 'long' });
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'elsewhere' });
    expect(actor.getSnapshot().context.book).toEqual({});
    expect(persisted).toEqual([]);
  });

  it('sends nothing where the agent does not let people choose, whatever the book says', async () => {
    const { actor } = await ready();
    actor.send({ type: 'book.loaded', book: { 'conv-1': { modelId: 'long', at: 1 } } });
    expect(modelIdToSend(actor.getSnapshot().context, { conversationId: 'conv-1', agentId: 'fixed' })).toBeUndefined();
    expect(modelIdToSend(actor.getSnapshot().context, { conversationId: 'conv-1', agentId: 'unseen' })).toBeUndefined();
    expect(modelIdToSend(actor.getSnapshot().context, { conversationId: 'conv-1', agentId: 'tester' })).toBe('long');
  });

  it('moves a new chat’s choice to the conversation it becomes, and back when its first question is refused', async () => {
    const { actor } = await ready();
    actor.send({ type: 'choose', scope: 'new:tester', agentId: 'tester', modelId: 'house' });
    actor.send({ type: 'conversation.started', agentId: 'tester', conversationId: 'conv-9' });
    expect(Object.keys(actor.getSnapshot().context.book)).toEqual(['conv-9']);
    actor.send({ type: 'conversation.discarded', agentId: 'tester', conversationId: 'conv-9' });
    expect(actor.getSnapshot().context.book['new:tester']?.modelId).toBe('house');
  });

  it('forgets a refused choice and says so for that place; a model unknown reads the list again', async () => {
    let list = MODELS;
    const { actor, fetchModels } = await ready(async () => list);
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'long' });
    list = [HOUSE, SEEING];
    actor.send({ type: 'choice.refused', scope: 'conv-1', agentId: 'tester', kind: 'unknown' });
    expect(actor.getSnapshot().context).toMatchObject({ book: {}, refusal: { scope: 'conv-1', kind: 'unknown' }, models: [] });
    await waitFor(actor, (state) => state.matches('ready'));
    expect(fetchModels).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.models).toEqual([HOUSE, SEEING]);
    actor.send({ type: 'asked' });
    expect(actor.getSnapshot().context.refusal).toBeNull();
  });

  it('closes the choice for an agent that no longer allows it, until it is seen again', async () => {
    const { actor } = await ready();
    actor.send({ type: 'choose', scope: 'conv-1', agentId: 'tester', modelId: 'long' });
    actor.send({ type: 'choice.refused', scope: 'conv-1', agentId: 'tester', kind: 'notAllowed' });
    expect(actor.getSnapshot().context.rules.tester?.allowModelChoice).toBe(false);
    actor.send({ type: 'agent.seen', rule: CHOOSING });
    expect(actor.getSnapshot().context.rules.tester?.allowModelChoice).toBe(true);
  });

  it('reads the list again for someone else, with their book', async () => {
    const { actor, fetchModels } = await ready();
    actor.send({ type: 'person.changed', book: { 'conv-5': { modelId: 'house', at: 3 } } });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.models).toEqual([]);
    await waitFor(actor, (state) => state.matches('ready'));
    expect(fetchModels).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().context.book).toEqual({ 'conv-5': { modelId: 'house', at: 3 } });
  });

  it('waits for a retry after the list failed', async () => {
    let fails = true;
    const { actor } = start(async () => {
      if (fails) throw new Error('500');
      return MODELS;
    });
    actor.send({ type: 'models.wanted' });
    await waitFor(actor, (state) => state.matches('failed'));
    fails = false;
    actor.send({ type: 'retry' });
    await waitFor(actor, (state) => state.matches('ready'));
  });
});

describe('the picker’s list and the book', () => {
  it('puts the agent’s own model first, else the default', () => {
    expect(pickerModels(MODELS, CHOOSING).map((item) => item.id)).toEqual(['seeing', 'house', 'long']);
    expect(pickerModels(MODELS, { ...CHOOSING, modelId: 'retired' }).map((item) => item.id)).toEqual(['house', 'seeing', 'long']);
  });

  it('keeps the newest choices past the bound', () => {
    let book: ModelBook = {};
    for (let index = 0; index <= MAX_MODEL_CHOICES; index += 1) book = writeChoice(book, `conv-${index}`, 'long');
    expect(Object.keys(book)).toHaveLength(MAX_MODEL_CHOICES);
    expect(book['conv-0']).toBeUndefined();
    expect(book[`conv-${MAX_MODEL_CHOICES}`]).toEqual({ modelId: 'long', at: MAX_MODEL_CHOICES + 1 });
  });
});
