import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import { endpoints } from '../../src/contract/endpoints';
import { createSealer } from '../auth/sealed';
import { fakeModelService } from '../test/fake-model-service';
import { openHarness, type TestApp } from '../test/harness';
import { pngOf } from '../test/png';
import { ask, conversationWith, publishedAgent } from '../test/studio-kit';

/**
 * What the model receives is what the agent says: a question to an agent goes to the provider of
 * the agent's model, with its key, its system prompt and its parameters; the answer says which
 * model wrote it; a person picks another model only where the agent allows it.
 */
let h: Awaited<ReturnType<typeof openHarness>>;
let t: TestApp;
let first: Awaited<ReturnType<typeof fakeModelService>>;
let second: Awaited<ReturnType<typeof fakeModelService>>;
let admin: Awaited<ReturnType<typeof h.loggedIn>>;
let author: Awaited<ReturnType<typeof h.loggedIn>>;
let colleague: Awaited<ReturnType<typeof h.loggedIn>>;
let modelA: string;
let modelB: string;
const KEY_A = 'sk-first-provider-key-0001';
const KEY_B = 'sk-second-provider-key-0002';

beforeAll(async () => {
  h = await openHarness();
  first = await fakeModelService({ answer: 'from the first' });
  second = await fakeModelService({ answer: 'from the second' });
  t = h.makeApp({ runtime: 'registry', sealer: createSealer('s'.repeat(40)), config: { modelProvidersOnPrivateNetwork: true } });
  const company = await h.newCompany('Studio Ltd');
  admin = await h.loggedIn(t, { role: 'admin', companyId: company });
  author = await h.loggedIn(t, { companyId: company });
  colleague = await h.loggedIn(t, { companyId: company });
  const saveProvider = async (name: string, baseUrl: string, apiKey: string) =>
    (await t.post(endpoints.adminModelProviderSave.path, { name, baseUrl, apiKey }, admin.headers)).body.data.id as string;
  const saveModel = async (providerId: string, model: string, extra: Record<string, unknown>) => {
    const reply = await t.post(endpoints.adminModelSave.path, { providerId, model, name: model.toUpperCase(), ...extra }, admin.headers);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    return reply.body.data.id as string;
  };
  modelA = await saveModel(await saveProvider('First', first.baseUrl, KEY_A), 'model-a', { maxOutput: 4096 });
  modelB = await saveModel(await saveProvider('Second', second.baseUrl, KEY_B), 'model-b', { maxOutput: 8192, vision: true });
  expect((await t.post(endpoints.adminModelSetDefault.path, { id: modelA }, admin.headers)).status).toBe(200);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
  await h.close();
});
beforeEach(() => {
  first.reset();
  second.reset();
});

describe('a question to an agent', () => {
  it("reaches its model's provider with that provider's key, the agent's system prompt, model and parameters", async () => {
    const { agentId, versionId } = await publishedAgent(t, author.headers, {
      systemPrompt: 'You are the parameters bot.',
      modelId: modelB,
      parameters: { temperature: 0.3, topP: 0.9, maxOutput: 500 },
    });
    const conversationId = await conversationWith(t, colleague.headers, agentId);
    const { events } = await ask(t, colleague.headers, { conversationId, agentId, text: 'What do you get?' });
    expect(events.at(-1)).toMatchObject({ type: 'end' });
    expect(first.questions()).toHaveLength(0);
    const [sent] = second.questions();
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY_B}`);
    expect(sent!.body).toMatchObject({ model: 'model-b', temperature: 0.3, top_p: 0.9, max_tokens: 500, stream: true });
    expect((sent!.body!.messages as { role: string; content: string }[])[0]).toEqual({ role: 'system', content: 'You are the parameters bot.' });

    // The answer says which model wrote it: in the stream's first event and in the messages.
    expect(events[0]).toMatchObject({ type: 'start', model: { id: modelB, name: 'MODEL-B' } });
    const messages = (await t.get(endpoints.messages.path, { conversationId }, colleague.headers)).body.data as { role: string; model?: unknown }[];
    expect(messages.find((message) => message.role === 'assistant')!.model).toEqual({ id: modelB, name: 'MODEL-B' });
    expect(messages.find((message) => message.role === 'user')!.model).toBeUndefined();
    // The conversation records the version it talks to.
    const conversation = await t.get(endpoints.conversationDetail.path, { conversationId }, colleague.headers);
    expect(conversation.body.data.agentVersionId).toBe(versionId);
  });

  it('of an agent without a model goes to the default model, with no sampling the agent did not ask for', async () => {
    const conversationId = await conversationWith(t, colleague.headers, DEFAULT_AGENT_ID);
    await ask(t, colleague.headers, { conversationId, agentId: DEFAULT_AGENT_ID });
    const [sent] = first.questions();
    expect(sent!.headers.authorization).toBe(`Bearer ${KEY_A}`);
    expect(sent!.body!.model).toBe('model-a');
    for (const field of ['temperature', 'top_p', 'max_tokens']) expect(sent!.body).not.toHaveProperty(field);
  });

  it('asks a later version once it is published, and the conversation says so', async () => {
    const { agentId } = await publishedAgent(t, author.headers, { systemPrompt: 'Version one.' });
    const conversationId = await conversationWith(t, colleague.headers, agentId);
    await ask(t, colleague.headers, { conversationId, agentId });
    expect((first.questions()[0]!.body!.messages as { content: string }[])[0]!.content).toBe('Version one.');
    await t.post(endpoints.agentSave.path, { agentId, name: 'Test Bot', systemPrompt: 'Version two.', visibility: 'organisation' }, author.headers);
    // A draft changes nothing for the people chatting.
    await ask(t, colleague.headers, { conversationId, agentId });
    expect((first.questions()[1]!.body!.messages as { content: string }[])[0]!.content).toBe('Version one.');
    const published = await t.post(endpoints.agentPublish.path, { agentId }, author.headers);
    await ask(t, colleague.headers, { conversationId, agentId });
    expect((first.questions()[2]!.body!.messages as { content: string }[])[0]!.content).toBe('Version two.');
    const conversation = await t.get(endpoints.conversationDetail.path, { conversationId }, colleague.headers);
    expect(conversation.body.data.agentVersionId).toBe(published.body.data.versionId);
  });
});

describe('images', () => {
  const upload = async (headers: Record<string, string>) => {
    const form = new FormData();
    form.set('file', new File([pngOf(2, [255, 0, 0]) as Uint8Array<ArrayBuffer>], 'red.png'));
    const response = await t.raw(endpoints.upload.path, { method: 'POST', body: form, headers });
    return ((await response.json()) as { data: Record<string, unknown> }).data;
  };
  type Part = { type: string; text?: string };
  const lastQuestion = (service: typeof first) =>
    (service.questions().at(-1)!.body!.messages as { role: string; content: string | Part[] }[]).filter((m) => m.role === 'user').at(-1)!;

  it('go as image parts to a model that sees images, and are withheld, saying so, from one that does not', async () => {
    const seeing = await publishedAgent(t, author.headers, { modelId: modelB });
    const blind = await publishedAgent(t, author.headers, { modelId: modelA });
    for (const [agent, service, sees] of [[seeing, second, true], [blind, first, false]] as const) {
      const conversationId = await conversationWith(t, colleague.headers, agent.agentId);
      await ask(t, colleague.headers, { conversationId, agentId: agent.agentId, text: 'What colour?', files: [await upload(colleague.headers)] });
      const question = lastQuestion(service);
      if (sees) expect((question.content as Part[]).some((part) => part.type === 'image_url')).toBe(true);
      else expect(question.content).toContain('This agent cannot see images');
    }
    // The market says what the agent's model sees.
    const detail = await t.get(endpoints.agentDetail.path, { agentId: seeing.agentId }, colleague.headers);
    expect(detail.body.data.vision).toBe(true);
  });
});

describe('choosing the model', () => {
  it('is refused where the agent does not allow it, and for a model not in the list', async () => {
    const fixed = await publishedAgent(t, author.headers, { modelId: modelA });
    const conversationId = await conversationWith(t, colleague.headers, fixed.agentId);
    const refused = await ask(t, colleague.headers, { conversationId, agentId: fixed.agentId, modelId: modelB });
    expect(refused.status).toBe(400);
    expect(refused.refusal).toMatchObject({ reason: 'MODEL_CHOICE_NOT_ALLOWED' });
    // Naming the model it answers with anyway is no choice: accepted.
    expect((await ask(t, colleague.headers, { conversationId, agentId: fixed.agentId, modelId: modelA })).status).toBe(200);

    const open = await publishedAgent(t, author.headers, { modelId: modelA, allowModelChoice: true });
    const openConversation = await conversationWith(t, colleague.headers, open.agentId);
    const unknown = await ask(t, colleague.headers, { conversationId: openConversation, agentId: open.agentId, modelId: 'no-such-model' });
    expect(unknown.status).toBe(400);
    expect(unknown.refusal).toMatchObject({ reason: 'MODEL_UNKNOWN' });
  });

  it('is honoured where the agent allows it: the chosen model answers, within what it can write, and is recorded', async () => {
    const open = await publishedAgent(t, author.headers, { modelId: modelB, allowModelChoice: true, parameters: { maxOutput: 6000 } });
    const conversationId = await conversationWith(t, colleague.headers, open.agentId);
    const { events } = await ask(t, colleague.headers, { conversationId, agentId: open.agentId, modelId: modelA });
    expect(events[0]).toMatchObject({ type: 'start', model: { id: modelA } });
    expect(second.questions()).toHaveLength(0);
    // The agent asks for 6000 tokens; the model chosen writes at most 4096.
    expect(first.questions()[0]!.body).toMatchObject({ model: 'model-a', max_tokens: 4096 });
    const messages = (await t.get(endpoints.messages.path, { conversationId }, colleague.headers)).body.data as { role: string; model?: unknown }[];
    expect(messages.find((message) => message.role === 'assistant')!.model).toEqual({ id: modelA, name: 'MODEL-A' });
  });

  it('is refused for a model disabled since: it is no longer in anyone’s list', async () => {
    const open = await publishedAgent(t, author.headers, { modelId: modelA, allowModelChoice: true });
    const conversationId = await conversationWith(t, colleague.headers, open.agentId);
    const providerId = await providerOf(modelB);
    const setEnabled = (enabled: boolean) =>
      t.post(endpoints.adminModelSave.path, { id: modelB, providerId, model: 'model-b', name: 'MODEL-B', maxOutput: 8192, vision: true, enabled }, admin.headers);
    await setEnabled(false);
    try {
      const list = await t.get(endpoints.modelList.path, {}, colleague.headers);
      expect(list.body.data.list.map((m: { id: string }) => m.id)).not.toContain(modelB);
      const refused = await ask(t, colleague.headers, { conversationId, agentId: open.agentId, modelId: modelB });
      expect(refused.status).toBe(400);
      expect(refused.refusal).toMatchObject({ reason: 'MODEL_UNKNOWN' });
    } finally {
      await setEnabled(true);
    }
  });
});

async function providerOf(modelId: string): Promise<string> {
  const list = await t.get(endpoints.adminModelProviderList.path, {}, admin.headers);
  return (list.body.data as { id: string; models: { id: string }[] }[]).find((p) => p.models.some((m) => m.id === modelId))!.id;
}

describe("a preview of an agent's draft", () => {
  it('is answered by the draft for its author, while the market still gets the published version', async () => {
    const { agentId } = await publishedAgent(t, author.headers, { systemPrompt: 'Published prompt.' });
    await t.post(endpoints.agentSave.path, { agentId, name: 'Test Bot', systemPrompt: 'Draft prompt.', modelId: modelB, visibility: 'organisation' }, author.headers);
    const preview = await conversationWith(t, author.headers, agentId, true);
    const { events } = await ask(t, author.headers, { conversationId: preview, agentId });
    expect(events[0]).toMatchObject({ type: 'start', model: { id: modelB } });
    expect((second.questions()[0]!.body!.messages as { content: string }[])[0]!.content).toBe('Draft prompt.');
    const market = await conversationWith(t, colleague.headers, agentId);
    await ask(t, colleague.headers, { conversationId: market, agentId });
    expect((first.questions()[0]!.body!.messages as { content: string }[])[0]!.content).toBe('Published prompt.');
    // Previews are never listed in the history.
    const listed = await t.post(endpoints.conversationList.path, { pageSize: 100 }, author.headers);
    expect(listed.body.data.list.map((c: { conversationId: string }) => c.conversationId)).not.toContain(preview);
    expect((await t.get(endpoints.conversationDetail.path, { conversationId: preview }, author.headers)).body.data.preview).toBe(true);
  });

  it('is refused to anyone who may not edit the agent: a colleague, a visitor; an admin may', async () => {
    const agentId = (await publishedAgent(t, author.headers)).agentId;
    const colleagueTry = await t.post(endpoints.conversationCreate.path, { sourceId: agentId, preview: true }, colleague.headers);
    expect(colleagueTry.status).toBe(404);
    const visitorTry = await t.post(endpoints.conversationCreate.path, { sourceId: agentId, preview: true }, h.visitor());
    expect(visitorTry.status).toBe(401);
    // The author's preview is the author's: someone else asking in it finds no conversation.
    const preview = await conversationWith(t, author.headers, agentId, true);
    expect((await ask(t, colleague.headers, { conversationId: preview, agentId })).status).toBe(404);
    const adminPreview = await conversationWith(t, admin.headers, agentId, true);
    expect((await ask(t, admin.headers, { conversationId: adminPreview, agentId })).status).toBe(200);
  });
});

describe('a retired agent', () => {
  it('answers no more questions (410, AGENT_RETIRED); its conversations stay readable', async () => {
    const { agentId } = await publishedAgent(t, author.headers);
    const conversationId = await conversationWith(t, colleague.headers, agentId);
    await ask(t, colleague.headers, { conversationId, agentId });
    expect((await t.post(endpoints.agentDelete.path, { agentId }, author.headers)).status).toBe(200);
    const refused = await ask(t, colleague.headers, { conversationId, agentId });
    expect(refused.status).toBe(410);
    expect(refused.refusal).toMatchObject({ reason: 'AGENT_RETIRED' });
    const messages = await t.get(endpoints.messages.path, { conversationId }, colleague.headers);
    expect(messages.body.data).toHaveLength(2);
    // Off the market: no new conversation with it.
    expect((await t.post(endpoints.conversationCreate.path, { sourceId: agentId }, colleague.headers)).status).toBe(404);
  });
});

describe('provider keys', () => {
  it('never appear in a log line, an answer or the console', async () => {
    const { agentId } = await publishedAgent(t, author.headers, { modelId: modelB });
    await ask(t, colleague.headers, { conversationId: await conversationWith(t, colleague.headers, agentId), agentId });
    const list = await t.get(endpoints.adminModelProviderList.path, {}, admin.headers);
    expect(JSON.stringify(list.body)).not.toContain(KEY_B);
    expect(list.body.data.find((p: { name: string }) => p.name === 'Second')).toMatchObject({ hasKey: true });
    for (const line of t.lines) {
      expect(line).not.toContain(KEY_A);
      expect(line).not.toContain(KEY_B);
    }
  });
});
