import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { chatAt, conversation, message, type ChatStateName } from '../../tests/spa/chat-fixtures';
import { harness, type Harness, photo, reach, SETTLED, stored } from '../../tests/spa/chat-states-kit';
import { chatMachine, isAnswering } from './chat.machine';
import { newChatScope, type DraftBook } from './draft-book';

describe('another person at the browser (a sign-out, another account)', () => {
  const never = <T,>(): Promise<T> => new Promise<T>(() => undefined);
  const writing = () => [message('q', 'user', 'Which flour?'), message('a2', 'assistant', 'Ry', { status: 'streaming' })];
  const asked = async (h: Harness) => {
    await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
    h.ask('More?');
    return h;
  };
  /** Every state the chat can rest in, reached with the person before's conversation on screen. */
  const REACH: Record<string, () => Promise<Harness>> = {
    ...Object.fromEntries(SETTLED.map((state) => [state, () => reach(state)])),
    loading: async () => harness({ load: never }),
    loadFailed: async () => {
      const h = harness({ load: () => Promise.reject(new Error('gone')) });
      await waitFor(h.actor, (s) => s.matches('loadFailed'));
      return h;
    },
    creatingConversation: async () => asked(harness({ input: {}, create: never })),
    streaming: async () => {
      const h = await asked(harness());
      h.accept(0, 'q2', 'r2');
      return h;
    },
    confirming: async () => {
      let loads = 0;
      const h = await asked(harness({ load: () => (loads++ === 0 ? Promise.resolve({ conversation: conversation(), messages: stored() }) : never()) }));
      h.streams[0]!.report({ type: 'stream.failed', kind: 'incomplete', message: '' });
      return h;
    },
    resuming: async () => {
      const h = harness({ messages: writing() });
      await waitFor(h.actor, (s) => s.matches('resuming'));
      return h;
    },
    detached: async () => {
      const h = harness({ messages: writing() });
      await waitFor(h.actor, (s) => s.matches('resuming'));
      h.resumes[0]!.report({ type: 'stream.failed', kind: 'network', message: '' });
      return h;
    },
    stopping: async () => {
      const h = await asked(harness({ stop: never }));
      h.accept(0, 'q2', 'r2');
      h.actor.send({ type: 'stop' });
      return h;
    },
    switchingVersion: async () => {
      const h = harness({ select: never });
      await waitFor(h.actor, (s) => s.matches(chatAt('idle')));
      h.actor.send({ type: 'version.show', key: h.keyOf('a2'), offset: -1 });
      return h;
    },
  };
  const newcomer: DraftBook = { [newChatScope('SpecialNoAgentFallback')]: { text: 'Theirs, from before', at: 1 } };

  it('every state the chat can rest in is reached here', () => {
    type Node = { key: string; states: Record<string, Node> };
    const leaves = (node: Node): string[] => Object.values(node.states).flatMap((child) => (Object.keys(child.states).length ? leaves(child) : [child.key]));
    const declared = leaves(chatMachine.root).filter((state) => state !== 'choosing' && state !== 'sending');
    expect(Object.keys(REACH).sort()).toEqual(declared.sort());
  });

  it.each(Object.keys(REACH))('in %s, nothing of the person before stays: a new chat, with the newcomer\'s draft', async (state) => {
    const h = await REACH[state]!();
    await waitFor(h.actor, (s) => s.matches(chatAt(state as ChatStateName)));
    h.actor.send({ type: 'draft.change', text: 'Unsent, by the one before' });
    h.actor.send({ type: 'attachments.change', files: [photo] });
    const persisted = h.persisted.length;
    const settled = h.settled.length;
    const stops = h.stops.length;

    // as the app hands it over: the newcomer's drafts, read from storage
    h.hand({ type: 'session.changed', drafts: newcomer });

    expect(h.actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(isAnswering(h.actor.getSnapshot())).toBe(false);
    expect(h.context()).toMatchObject({
      agentId: 'SpecialNoAgentFallback',
      source: 'agent',
      application: null,
      conversationId: null,
      messages: [],
      draft: 'Theirs, from before',
      drafts: newcomer,
      attachments: [],
      outgoing: null,
      replyKey: null,
      failure: null,
      editing: null,
      versionTarget: null,
      stopWanted: false,
      addressPending: false,
    });
    // nothing is written for anyone, nothing told as settled, no answer stopped on the server
    expect(h.persisted).toHaveLength(persisted);
    expect(h.settled).toHaveLength(settled);
    expect(h.stops).toHaveLength(stops);
  });
});
