import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, conversation } from '../../tests/spa/chat-fixtures';
import { application, harness, reach } from '../../tests/spa/chat-states-kit';
import { draftIn, newChatScope } from './draft-book';

describe('new chats', () => {
  it('a new chat with an application keeps the application; with an agent, none', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    expect(h.context()).toMatchObject({ agentId: 'app-1', source: 'workflow', application, conversationId: null, messages: [] });
    h.actor.send({ type: 'conversation.new', agentId: 'baker', application });
    expect(h.context()).toMatchObject({ agentId: 'baker', source: 'agent', application: null });
  });

  it('a new chat forgets the ids of the last exchange and a wish to stop', async () => {
    const done = await reach('done');
    done.actor.send({ type: 'conversation.new' });
    expect(done.context().messageIds).toEqual([]);
    const h = await reach('idle');
    h.ask('More?');
    h.actor.send({ type: 'stop' });
    expect(h.context().stopWanted).toBe(true);
    h.actor.send({ type: 'conversation.new' });
    expect(h.context().stopWanted).toBe(false);
  });

  it('a new chat, by the button or by a link to an agent, leaves an answer being written for a blank page', async () => {
    for (const leave of [
      { type: 'conversation.new', agentId: 'baker' },
      { type: 'route.changed', market: false, conversationId: null, agentId: 'baker' },
    ] as const) {
      const h = await reach('idle');
      h.ask('More?');
      h.accept(0, 'q2', 'r2');
      h.actor.send(leave);
      expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
      expect(h.context()).toMatchObject({ agentId: 'baker', conversationId: null, messages: [] });
    }
  });

  it('an edit or a new answer sent after a Stop wished for a refused one is not stopped', async () => {
    for (const again of ['edit', 'regenerate'] as const) {
      const h = await reach('idle');
      const go = () => {
        if (again === 'edit') {
          h.actor.send({ type: 'edit.start', key: h.keyOf('q') });
          h.actor.send({ type: 'edit.change', text: 'Which rye?' });
          h.actor.send({ type: 'edit.send' });
        } else h.actor.send({ type: 'regenerate', key: h.keyOf('a2') });
      };
      go();
      h.actor.send({ type: 'stop' });
      h.streams[0]!.report({ type: 'stream.failed', kind: 'rejected', message: 'No' });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      expect(h.context().stopWanted).toBe(true);
      h.actor.send({ type: 'edit.cancel' });
      go();
      expect(h.context().stopWanted).toBe(false);
      h.accept(1, 'q', 'a3');
      expect(h.actor.getSnapshot().value).toBe('streaming');
      expect(h.stops).toEqual([]);
    }
  });

  it('a new chat with no agent named keeps the one in use, and its application', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    h.actor.send({ type: 'conversation.new' });
    expect(h.context()).toMatchObject({ agentId: 'app-1', source: 'workflow', application });
  });

  it('starters are offered only in an agent chat with nothing said or typed', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'conversation.new', agentId: 'app-1', source: 'workflow', application });
    h.actor.send({ type: 'starter.ask', text: 'Plan my week' });
    expect(h.creates).toEqual([]);
    h.actor.send({ type: 'conversation.new', agentId: 'baker' });
    h.actor.send({ type: 'starter.ask', text: 'Bake bread' });
    await waitFor(h.actor, (s) => s.matches('streaming'));
    expect(h.streams.at(-1)!.request).toMatchObject({ text: 'Bake bread' });
    expect(draftIn(h.persisted.at(-1)!, newChatScope('baker'))).toBe('');
  });

  it('the address: the market changes nothing; another conversation opens; the created one is only noted', async () => {
    const h = await reach('idle');
    h.actor.send({ type: 'route.changed', market: true, conversationId: 'conv-2', agentId: 'baker' });
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: 'baker' });
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: null });
    expect(h.context()).toMatchObject({ conversationId: 'conv-1', agentId: 'SpecialNoAgentFallback' });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    // the address naming the open conversation is no news
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-1', agentId: null });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.context().messages).toHaveLength(2);
    // a new chat created here: the address naming it is only noted
    h.actor.send({ type: 'conversation.new', agentId: 'baker' });
    h.ask('Rye?');
    await waitFor(h.actor, (s) => s.matches('streaming'));
    expect(h.context().addressPending).toBe(true);
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-other', agentId: null });
    expect(h.actor.getSnapshot().value).toBe('loading');
  });

  it('"/chat" after an application\'s conversation starts a new one with that application', async () => {
    const h = harness({ loaded: conversation({ source: 'workflow', sourceId: 'app-1', application }) });
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.actor.send({ type: 'route.changed', market: false, conversationId: null, agentId: null });
    expect(h.context()).toMatchObject({ conversationId: null, agentId: 'app-1', source: 'workflow', application, messages: [] });
  });

  it('the address naming the conversation just created notes it, and only that one', async () => {
    const h = harness({ input: { agentId: 'baker' } });
    h.ask('Rye?');
    await waitFor(h.actor, (s) => s.matches('streaming'));
    h.actor.send({ type: 'route.changed', market: true, conversationId: null, agentId: null });
    expect(h.context().addressPending).toBe(true);
    h.actor.send({ type: 'route.changed', market: false, conversationId: 'conv-new', agentId: null });
    expect(h.context().addressPending).toBe(false);
    expect(h.actor.getSnapshot().value).toBe('streaming');
    // later, "/chat" is the new-chat button
    h.actor.send({ type: 'route.changed', market: false, conversationId: null, agentId: null });
    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(h.context()).toMatchObject({ conversationId: null, agentId: 'baker', messages: [] });
  });
});
