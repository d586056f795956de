import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor } from 'xstate';
import { chatAt } from '../../tests/spa/chat-fixtures';
import { setup, start } from '../../tests/spa/chat-flow-kit';
import type { Message } from '../contract/messages';
import { isAnswering } from './chat.machine';

describe('the chat machine: failures', () => {
  it.each(['rejected', 'network'] as const)(
    'puts the question back in the box when the server never accepted it (%s)',
    async (kind) => {
      const { actor, ask, streamCall, context } = setup();
      ask('Keep me');
      const call = await streamCall();

      call.fail(kind, kind === 'rejected' ? 'Too many questions today' : '');
      await waitFor(actor, (state) => state.matches(chatAt('idle')));

      expect(context().draft).toBe('Keep me');
      expect(context().messages).toEqual([]);
      expect(context().failure).toEqual({ kind, message: kind === 'rejected' ? 'Too many questions today' : '' });
    },
  );

  it('keeps what was typed meanwhile after the returned question', async () => {
    const { actor, ask, streamCall, context } = setup();
    ask('First question');
    const call = await streamCall();
    actor.send({ type: 'draft.change', text: 'a follow-up' });

    call.fail('network');
    await waitFor(actor, (state) => state.matches(chatAt('idle')));

    expect(context().draft).toBe('First question\na follow-up');
  });

  it('puts the question back when the conversation cannot be created', async () => {
    const { actor, ask, context, transport } = setup({ create: async () => Promise.reject(new Error('No agent')) });
    ask('Hello?');
    await waitFor(actor, (state) => state.matches(chatAt('idle')) && state.context.failure !== null);

    expect(context().draft).toBe('Hello?');
    expect(context().messages).toEqual([]);
    expect(context().failure).toEqual({ kind: 'create', message: 'No agent' });
    expect(transport).not.toHaveBeenCalled();
  });

  it('reads the answer again from the text shown when the stream breaks after the start, without asking again', async () => {
    const { actor, ask, streamCall, resumeCall, reply, question, context, transport } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon a' });

    call.fail('incomplete');
    const resume = await resumeCall();
    expect(actor.getSnapshot().matches('resuming')).toBe(true);
    expect(resume.request).toEqual({ conversationId: 'conv-new', messageId: 'm-reply', offset: 11 });
    resume.emit({ type: 'resume', messageId: 'm-reply', offset: 11 });
    resume.emit({ type: 'delta', messageId: 'm-reply', text: ' time.' });
    resume.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));

    expect(question()).toMatchObject({ content: 'Tell me a story', serverId: 'm-user' });
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
    expect(context().draft).toBe('');
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('keeps what the server stored when the answer was stopped elsewhere, cutting what it never stored', async () => {
    const { actor, ask, streamCall, resumeCall, reply } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon a' });
    call.fail('incomplete');
    const resume = await resumeCall();
    // The server lost its last unsaved second: it has only "Once upon".
    resume.emit({ type: 'resume', messageId: 'm-reply', offset: 9 });
    resume.emit({ type: 'incomplete', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));
    expect(reply()).toMatchObject({ content: 'Once upon', status: 'incomplete', error: null });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });

  it('waits for the connection when the answer cannot be read again, then reads it from where it was', async () => {
    const { actor, ask, streamCall, resumeCall, reply } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    call.fail('network');
    (await resumeCall(0)).fail('network');
    await waitFor(actor, (state) => state.matches('detached'));
    expect(reply()).toMatchObject({ content: 'Once', status: 'incomplete' });

    actor.send({ type: 'connection.restored' });
    const again = await resumeCall(1);
    expect(again.request.offset).toBe(4);
    expect(reply().status).toBe('streaming');
    again.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    again.emit({ type: 'delta', messageId: 'm-reply', text: ' upon a time.' });
    again.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
  });

  it('reads a detached answer again by itself, waiting longer each time up to a bound, and never asks again', async () => {
    const clock = new SimulatedClock();
    const { actor, ask, streamCall, resumeCall, reply, transport } = setup({ clock });
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    // The server restarts: the stream breaks, and so does reading it again.
    call.fail('network');
    (await resumeCall(0)).fail('network');
    await waitFor(actor, (state) => state.matches('detached'));

    let resumes = 1;
    for (const wait of [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]) {
      clock.increment(wait - 1);
      expect(actor.getSnapshot().matches('detached')).toBe(true);
      clock.increment(1);
      const again = await resumeCall(resumes);
      expect(again.request).toMatchObject({ messageId: 'm-reply', offset: 4 });
      resumes += 1;
      again.fail('network');
      await waitFor(actor, (state) => state.matches('detached'));
    }

    // The server answers, but nobody writes the answer any more (left by the server that stopped):
    // no new text, so the waits stay long.
    clock.increment(30_000);
    const orphaned = await resumeCall(resumes);
    resumes += 1;
    orphaned.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    orphaned.fail('incomplete');
    await waitFor(actor, (state) => state.matches('detached'));
    clock.increment(29_999);
    expect(actor.getSnapshot().matches('detached')).toBe(true);

    // The answer is written again: it goes on from where it was; a later loss waits 1 s again.
    clock.increment(1);
    const back = await resumeCall(resumes);
    back.emit({ type: 'resume', messageId: 'm-reply', offset: 4 });
    back.emit({ type: 'delta', messageId: 'm-reply', text: ' upon' });
    back.fail('incomplete');
    await waitFor(actor, (state) => state.matches('detached'));
    clock.increment(999);
    expect(actor.getSnapshot().matches('detached')).toBe(true);
    clock.increment(1);
    const last = await resumeCall(resumes + 1);
    expect(last.request.offset).toBe('Once upon'.length);
    last.emit({ type: 'resume', messageId: 'm-reply', offset: 9 });
    last.emit({ type: 'end', messageIds: ['m-user', 'm-reply'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon', status: 'complete' });
    expect(transport).toHaveBeenCalledTimes(1);
  });

  it('marks the answer failed with the agent message when the agent errs after the start', async () => {
    const { actor, ask, streamCall, reply, context } = setup();
    ask('Hi');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Let me' });
    call.emit({ type: 'error', msg: 'The model is overloaded' });

    call.fail('agent-error', 'The model is overloaded');
    await waitFor(actor, (state) => state.matches(chatAt('failed')));

    expect(reply()).toMatchObject({ content: 'Let me', status: 'failed', error: 'The model is overloaded' });
    expect(context().failure).toEqual({ kind: 'agent-error', message: 'The model is overloaded' });
  });

  it('stop asks the server to stop, and shows exactly the text it stored', async () => {
    const stored: Message = { messageId: 'm-reply', conversationId: 'conv-new', role: 'assistant', content: '1, 2, 3, 4', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:00.000Z' };
    const { actor, ask, streamCall, reply, exchangeSettled, stopAnswer } = setup({ stop: async () => stored });
    ask('Count to a million');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: '1, 2, 3' });

    actor.send({ type: 'stop' });
    expect(actor.getSnapshot().matches('stopping')).toBe(true);
    expect(stopAnswer).toHaveBeenCalledWith({ conversationId: 'conv-new', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(call.signal.aborted).toBe(true);
    expect(reply()).toMatchObject({ content: '1, 2, 3, 4', status: 'incomplete', error: null });
    expect(exchangeSettled).toHaveBeenCalled();

    // what the transport says after the stop changes nothing
    call.emit({ type: 'delta', messageId: 'm-reply', text: ', 5' });
    call.finish();
    expect(reply().content).toBe('1, 2, 3, 4');
  });

  it('a stop pressed before the server took the question stops the answer as soon as it has one', async () => {
    const stored: Message = { messageId: 'm-reply', conversationId: 'conv-new', role: 'assistant', content: '', status: 'incomplete', files: [], createdAt: '2025-01-01T00:00:00.000Z' };
    const { actor, ask, streamCall, stopAnswer, reply } = setup({ stop: async () => stored });
    ask('Count');
    const call = await streamCall();
    actor.send({ type: 'stop' });
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    start(call);
    expect(stopAnswer).toHaveBeenCalledWith({ conversationId: 'conv-new', messageId: 'm-reply' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(reply()).toMatchObject({ content: '', status: 'incomplete' });
  });

  it('keeps the text shown when the stop call fails', async () => {
    const { actor, ask, streamCall, reply } = setup({ stop: async () => Promise.reject(new Error('offline')) });
    ask('Count');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: '1, 2' });
    actor.send({ type: 'stop' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(reply()).toMatchObject({ content: '1, 2', status: 'incomplete' });
  });
});

describe('the chat machine: retry', () => {
  it('answers the stored question again after an incomplete answer, without sending its text', async () => {
    const { actor, ask, streamCall, reply, context, transport } = setup();
    ask('Tell me a story');
    const first = await streamCall(0);
    start(first);
    first.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    first.fail('malformed');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    actor.send({ type: 'retry' });

    const second = await streamCall(1);
    expect(second.request).toEqual({ conversationId: 'conv-new', agentId: 'SpecialNoAgentFallback', retryMessageId: 'm-user' });
    expect(second.request).not.toHaveProperty('text');
    expect(actor.getSnapshot().matches('streaming')).toBe(true);
    expect(context().messages).toHaveLength(2);
    expect(reply()).toMatchObject({ content: '', status: 'streaming' });

    start(second, { userMessageId: 'm-user', replyMessageId: 'm-reply-2' });
    second.emit({ type: 'delta', messageId: 'm-reply-2', text: 'Once upon a time.' });
    second.emit({ type: 'end', messageIds: ['m-user', 'm-reply-2'] });
    await waitFor(actor, (state) => state.matches(chatAt('done')));
    expect(reply()).toMatchObject({ content: 'Once upon a time.', status: 'complete' });
    expect(transport).toHaveBeenCalledTimes(2);
  });

  it('puts the earlier partial answer back when the server refuses the retry', async () => {
    const { actor, ask, streamCall, reply } = setup();
    ask('Tell me a story');
    const first = await streamCall(0);
    start(first);
    first.emit({ type: 'delta', messageId: 'm-reply', text: 'Once upon' });
    first.fail('malformed');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    actor.send({ type: 'retry' });
    const second = await streamCall(1);
    second.fail('rejected', 'Too many requests, try again in a minute.');
    await waitFor(actor, (state) => state.matches(chatAt('incomplete')));

    expect(reply()).toMatchObject({ content: 'Once upon', status: 'incomplete', error: 'Too many requests, try again in a minute.' });
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });

  it('can retry a failed or stopped answer too, but not a question the server never took', async () => {
    const { actor, ask, streamCall } = setup({ stop: async () => Promise.reject(new Error('offline')) });
    ask('Hi');
    const first = await streamCall(0);
    first.fail('rejected', 'nope');
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);

    actor.send({ type: 'send' });
    const second = await streamCall(1);
    start(second);
    actor.send({ type: 'stop' });
    await waitFor(actor, (state) => state.matches(chatAt('cancelled')));
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(true);
  });
});

describe('the chat machine: another person at the browser', () => {
  it('forgets an answer being streamed when the person signs out: nothing of it stays, and it is no longer read, not stopped', async () => {
    const { actor, ask, streamCall, context, stopAnswer, exchangeSettled } = setup();
    ask('What is my bank password hint?');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Your hint is' });
    actor.send({ type: 'draft.change', text: 'and my PIN?' });

    actor.send({ type: 'session.changed', drafts: {} });

    expect(actor.getSnapshot().value).toEqual(chatAt('idle'));
    expect(isAnswering(actor.getSnapshot())).toBe(false);
    expect(context()).toMatchObject({ conversationId: null, messages: [], draft: '', drafts: {}, attachments: [], outgoing: null, replyKey: null });
    // the page stops reading; the answer goes on on the server, for its owner to find
    expect(call.signal.aborted).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    call.emit({ type: 'delta', messageId: 'm-reply', text: ' the name of your cat' });
    expect(context().messages).toEqual([]);
    expect(exchangeSettled).not.toHaveBeenCalled();
  });

  it('forgets an answer being read again, and stops reading it', async () => {
    const { actor, ask, streamCall, resumeCall, context, stopAnswer } = setup();
    ask('Tell me a story');
    const call = await streamCall();
    start(call);
    call.emit({ type: 'delta', messageId: 'm-reply', text: 'Once' });
    call.fail('incomplete');
    const resume = await resumeCall();

    actor.send({ type: 'session.changed', drafts: {} });

    expect(resume.signal.aborted).toBe(true);
    expect(stopAnswer).not.toHaveBeenCalled();
    expect(context()).toMatchObject({ conversationId: null, messages: [] });
  });

  it("gives the newcomer their own drafts, never the text the person before left in the box", async () => {
    const { actor, context } = setup({ input: { conversationId: 'conv-3' } });
    await waitFor(actor, (state) => state.matches(chatAt('idle')));
    actor.send({ type: 'draft.change', text: "Ada's unsent words" });
    const theirs = { 'new:SpecialNoAgentFallback': { text: "Grace's own", at: 1 } };

    actor.send({ type: 'session.changed', drafts: theirs });
    expect(context()).toMatchObject({ conversationId: null, agentId: 'SpecialNoAgentFallback', draft: "Grace's own", drafts: theirs });
    actor.send({ type: 'conversation.open', conversationId: 'conv-3' });
    expect(context().draft).toBe('');
  });
});
