import { endpoints } from '../../src/contract/endpoints';
import type { ChatEvent } from '../../src/contract/chat';
import type { AgentSaveRequest } from '../../src/contract/studio';
import type { TestApp } from './harness';

type Headers = Record<string, string>;

/** What a test agent says unless the test says otherwise. */
export const agentContent = (overrides: Partial<AgentSaveRequest> = {}): AgentSaveRequest => ({
  name: 'Test Bot',
  intro: 'Answers tests.',
  systemPrompt: 'You are Test Bot.',
  visibility: 'organisation',
  ...overrides,
});

/** Makes an agent and answers its id (throws on a refusal). */
export async function makeAgent(t: TestApp, headers: Headers, overrides: Partial<AgentSaveRequest> = {}): Promise<string> {
  const reply = await t.post(endpoints.agentSave.path, agentContent(overrides), headers);
  if (reply.status !== 200) throw new Error(`agent/save refused: ${JSON.stringify(reply.body)}`);
  return reply.body.data.agentId as string;
}

/** Makes an agent and publishes it; answers its id and live version. */
export async function publishedAgent(t: TestApp, headers: Headers, overrides: Partial<AgentSaveRequest> = {}) {
  const agentId = await makeAgent(t, headers, overrides);
  const published = await t.post(endpoints.agentPublish.path, { agentId }, headers);
  if (published.status !== 200) throw new Error(`agent/publish refused: ${JSON.stringify(published.body)}`);
  return { agentId, versionId: published.body.data.versionId as string };
}

/** A new conversation with the agent (a preview of its draft with `preview`); answers its id. */
export async function conversationWith(t: TestApp, headers: Headers, agentId: string, preview = false): Promise<string> {
  const reply = await t.post(endpoints.conversationCreate.path, { sourceId: agentId, ...(preview ? { preview: true } : {}) }, headers);
  if (reply.status !== 200) throw new Error(`conversation/create refused: ${JSON.stringify(reply.body)}`);
  return reply.body.data.conversationId as string;
}

/** Asks a question and reads the whole answer: its status, its events (a stream), or its refusal (JSON). */
export async function ask(t: TestApp, headers: Headers, body: { conversationId: string; agentId: string; text?: string; modelId?: string; files?: unknown[] }) {
  const response = await t.raw(endpoints.chat.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ text: 'Hello?', ...body }),
  });
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return { status: response.status, events: [] as ChatEvent[], refusal: JSON.parse(text) as { msg: string; reason?: string } };
  }
  const events = text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as ChatEvent);
  return { status: response.status, events, refusal: null };
}
