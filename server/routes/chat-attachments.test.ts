import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_AGENT_ID } from '../../src/contract/constants';
import { createOpenAiRuntime } from '../agents/openai-runtime';
import type { ServerConfig } from '../config';
import { agents, modelProviders, models } from '../db/schema';
import { openHarness, type TestApp } from '../test/harness';
import { tinyPdf } from '../test/pdf';
import { pngOf } from '../test/png';

const CHAT = '/api/workflow/sse/agent/chat';
const CREATE = '/api/workflow/im/conversation/create';
const MESSAGES = '/api/workflow/agent-im/messages';
const UPLOAD = '/api/media/upload';
const AGENT = DEFAULT_AGENT_ID;

type Part = { type: string; text?: string; image_url?: { url: string } };
type SentMessage = { role: string; content: string | Part[] };
type Sent = { body: { messages: SentMessage[]; stream_options?: unknown } };

/** An OpenAI-compatible endpoint that keeps every request and answers "ok", reporting its tokens. */
let model: Server;
let baseUrl: string;
const requests: Sent[] = [];
let answer: (res: ServerResponse) => void;
const chunk = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const answerOk = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chunk({ choices: [{ delta: { content: 'ok' }, finish_reason: 'stop' }] }));
  res.write(chunk({ choices: [], usage: { prompt_tokens: 321, completion_tokens: 7, total_tokens: 328 } }));
  res.end('data: [DONE]\n\n');
};

let h: Awaited<ReturnType<typeof openHarness>>;
beforeAll(async () => {
  h = await openHarness();
  model = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      // The questions' requests only: a conversation's first answer is followed by one naming it.
      if (JSON.parse(body).stream) requests.push({ body: JSON.parse(body) });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => model.close(() => resolve()));
  await h.close();
});
beforeEach(() => {
  requests.length = 0;
  answer = answerOk;
});

const appWithModel = (config: Partial<ServerConfig> = {}) =>
  h.makeApp({ runtime: createOpenAiRuntime({ baseUrl, model: 'fake' }), config });

async function upload(t: TestApp, headers: Record<string, string>, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.set('file', new File([bytes as Uint8Array<ArrayBuffer>], name));
  const response = await t.raw(UPLOAD, { method: 'POST', body: form, headers });
  const body = (await response.json()) as { data: Record<string, unknown> };
  return body.data;
}

async function ask(t: TestApp, headers: Record<string, string>, text: string, files: Record<string, unknown>[], conversationId?: string) {
  const id = conversationId ?? (await t.post(CREATE, { sourceId: AGENT }, headers)).body.data.conversationId;
  const response = await t.raw(CHAT, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ conversationId: id, agentId: AGENT, text, files }),
  });
  return { status: response.status, stream: await response.text(), conversationId: id as string };
}

/** The question as the model received it: the last user message. */
const lastQuestion = () => requests.at(-1)!.body.messages.filter((m) => m.role === 'user').at(-1)!;
const textOf = (message: SentMessage) =>
  typeof message.content === 'string' ? message.content : message.content.map((part) => part.text ?? '').join('');

/** The agent answers with a model of the console that sees images, while `run` runs. */
async function withSeeingModel(run: () => Promise<void>) {
  const now = new Date();
  const providerId = `seeing-${now.getTime()}`;
  await h.db.insert(modelProviders).values({ id: providerId, name: 'Seeing', baseUrl, createdAt: now, updatedAt: now });
  await h.db.insert(models).values({ id: providerId, providerId, model: 'fake-vision', displayName: 'Fake vision', vision: true, createdAt: now, updatedAt: now });
  await h.db.update(agents).set({ modelId: providerId }).where(eq(agents.id, AGENT));
  try {
    await run();
  } finally {
    await h.db.update(agents).set({ modelId: null }).where(eq(agents.id, AGENT));
    await h.db.delete(modelProviders).where(eq(modelProviders.id, providerId));
  }
}

describe('attachments the model reads', () => {
  it('shows an image to an agent whose model sees images, as a data URL image part', async () => {
    await withSeeingModel(async () => {
      const t = appWithModel();
      const visitor = h.visitor();
      const png = pngOf(2, [255, 0, 0]);
      const file = await upload(t, visitor, png, 'red.png');
      await ask(t, visitor, 'What colour is this?', [file]);
      const question = lastQuestion();
      expect(Array.isArray(question.content)).toBe(true);
      const parts = question.content as Part[];
      expect(parts[0]).toMatchObject({ type: 'text' });
      expect(parts[0]!.text).toContain('What colour is this?');
      expect(parts[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } });
    });
  });

  it('tells the model in a sentence that an agent without vision cannot see the image, and sends no image part', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const file = await upload(t, visitor, pngOf(2, [0, 0, 255]), 'blue.png');
    await ask(t, visitor, 'Describe it', [file]);
    const question = lastQuestion();
    expect(typeof question.content).toBe('string');
    expect(question.content).toContain('Image "blue.png" attached. This agent cannot see images');
  });

  it('follows the deployment setting for its own model', async () => {
    const t = appWithModel({ attachments: { ...(await import('../config')).defaultConfig.attachments, modelAcceptsImages: true } });
    const visitor = h.visitor();
    await ask(t, visitor, 'Describe it', [await upload(t, visitor, pngOf(2, [0, 255, 0]), 'green.png')]);
    expect((lastQuestion().content as Part[]).some((part) => part.type === 'image_url')).toBe(true);
    const agent = await t.get('/api/workflow/agent/detail', { agentId: AGENT }, visitor);
    expect(agent.body.data.vision).toBe(true);
  });

  it('declines an image over the size limit, saying so', async () => {
    const { defaultConfig } = await import('../config');
    const t = appWithModel({ attachments: { ...defaultConfig.attachments, modelAcceptsImages: true, imageMaxBytes: 50 } });
    const visitor = h.visitor();
    await ask(t, visitor, 'Look', [await upload(t, visitor, pngOf(8, [1, 2, 3]), 'big.png')]);
    expect(typeof lastQuestion().content).toBe('string');
    expect(lastQuestion().content).toMatch(/Image "big.png" not sent: it is \d+ bytes, over the 50-byte limit/);
  });

  it('includes a text file’s text', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const file = await upload(t, visitor, new TextEncoder().encode('name,score\nAda,42\n'), 'scores.csv');
    await ask(t, visitor, 'Who scored best?', [file]);
    expect(lastQuestion().content).toContain('Who scored best?');
    expect(lastQuestion().content).toContain('[File "scores.csv", 18 characters:]\nname,score\nAda,42\n');
  });

  it('includes a PDF’s text', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const file = await upload(t, visitor, tinyPdf(['Quarterly revenue grew by 12 percent']), 'report.pdf');
    await ask(t, visitor, 'Summarise', [file]);
    expect(lastQuestion().content).toContain('Quarterly revenue grew by 12 percent');
  });

  it('cuts file text over the budget and says where', async () => {
    const { defaultConfig } = await import('../config');
    const t = appWithModel({ attachments: { ...defaultConfig.attachments, textCharBudget: 10 } });
    const visitor = h.visitor();
    await ask(t, visitor, 'Read', [await upload(t, visitor, new TextEncoder().encode('0123456789abcdefghij'), 'long.txt')]);
    expect(lastQuestion().content).toContain('0123456789\n[End of file "long.txt".]');
    expect(lastQuestion().content).toContain('[File "long.txt" was cut: only its first 10 of 20 characters are included.]');
    expect(lastQuestion().content).not.toContain('abcdefghij');
  });

  it('reads a file once: a later question sends the stored text even if the bytes are gone', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const file = await upload(t, visitor, new TextEncoder().encode('remember me'), 'note.md');
    const first = await ask(t, visitor, 'Read', [file]);
    await t.storage.delete(file.fileId as string);
    await ask(t, visitor, 'Again', [], first.conversationId);
    const earlier = requests.at(-1)!.body.messages.filter((m) => m.role === 'user')[0]!;
    expect(textOf(earlier)).toContain('remember me');
  });

  it('says clearly when a PDF cannot be read, and still answers', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const broken = new TextEncoder().encode('%PDF-1.7\nthis is no PDF at all');
    const reply = await ask(t, visitor, 'Read', [await upload(t, visitor, broken, 'broken.pdf')]);
    expect(lastQuestion().content).toContain('[File "broken.pdf" could not be read: it is damaged or not in a format that can be read.]');
    expect(reply.stream).toContain('"type":"end"');
  });

  it('refuses another person’s upload', async () => {
    const t = appWithModel();
    const owner = h.visitor();
    const file = await upload(t, owner, new TextEncoder().encode('private'), 'secret.txt');
    const reply = await ask(t, h.visitor(), 'Read', [file]);
    expect(reply.status).toBe(404);
    expect(requests).toHaveLength(0);
  });

  it('stores the tokens the model service reports and shows them with the answer', async () => {
    const t = appWithModel();
    const visitor = h.visitor();
    const { conversationId, stream } = await ask(t, visitor, 'Hello', []);
    expect(requests[0]!.body.stream_options).toEqual({ include_usage: true });
    // the stream's end says it too, so the page shows it without reading the answer again
    expect(stream).toContain('"usage":{"promptTokens":321,"completionTokens":7}');
    const list = (await t.get(MESSAGES, { conversationId }, visitor)).body.data as { role: string; usage?: unknown }[];
    expect(list.find((m) => m.role === 'assistant')!.usage).toEqual({ promptTokens: 321, completionTokens: 7 });
    expect(list.find((m) => m.role === 'user')!.usage).toBeUndefined();
  });
});

describe('attachments without a model', () => {
  it('the offline responder says what it read of each file', async () => {
    const t = h.makeApp();
    const visitor = h.visitor();
    const text = await upload(t, visitor, new TextEncoder().encode('hello file'), 'hello.txt');
    const image = await upload(t, visitor, pngOf(2, [9, 9, 9]), 'grey.png');
    const reply = await ask(t, visitor, 'Read these', [text, image]);
    const written = reply.stream
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; text?: string })
      .map((event) => (event.type === 'delta' ? event.text : ''))
      .join('');
    expect(written).toContain('I read 10 characters of *hello.txt*.');
    expect(written).toContain('This agent cannot see images: of *grey.png* it knows only the name.');
  });
});

describe('attachment settings', () => {
  it('reads MODEL_ACCEPTS_IMAGES as on, off or unset, and the budgets from the environment', async () => {
    const { configFromEnv } = await import('../config');
    expect(configFromEnv({}).attachments.modelAcceptsImages).toBeNull();
    expect(configFromEnv({ MODEL_ACCEPTS_IMAGES: 'on' }).attachments.modelAcceptsImages).toBe(true);
    expect(configFromEnv({ MODEL_ACCEPTS_IMAGES: 'false' }).attachments.modelAcceptsImages).toBe(false);
    expect(() => configFromEnv({ MODEL_ACCEPTS_IMAGES: 'sometimes' })).toThrow(/MODEL_ACCEPTS_IMAGES must be on or off/);
    const set = configFromEnv({ ATTACHMENT_TEXT_CHARS: '5000', ATTACHMENT_IMAGE_MAX_MB: '2', ATTACHMENT_IMAGES_PER_QUESTION: '1', PDF_MAX_PAGES: '20' });
    expect(set.attachments).toMatchObject({ textCharBudget: 5000, imageMaxBytes: 2 * 1024 * 1024, imagesPerRequest: 1, pdfMaxPages: 20 });
    expect(configFromEnv({}).attachments).toMatchObject({ earlierImagesPerRequest: 2, earlierImageBytes: 4 * 1024 * 1024 });
    const earlier = configFromEnv({ ATTACHMENT_EARLIER_IMAGES: '0', ATTACHMENT_EARLIER_IMAGES_MB: '1' });
    expect(earlier.attachments).toMatchObject({ earlierImagesPerRequest: 0, earlierImageBytes: 1024 * 1024 });
    expect(() => configFromEnv({ ATTACHMENT_EARLIER_IMAGES: '-1' })).toThrow(/ATTACHMENT_EARLIER_IMAGES must be a non-negative number/);
  });

  it('sends at most the images allowed per question, in the order attached, and names the rest', async () => {
    const { defaultConfig } = await import('../config');
    const t = appWithModel({ attachments: { ...defaultConfig.attachments, modelAcceptsImages: true, imagesPerRequest: 1 } });
    const visitor = h.visitor();
    const first = await upload(t, visitor, pngOf(2, [1, 1, 1]), 'first.png');
    const second = await upload(t, visitor, pngOf(2, [2, 2, 2]), 'second.png');
    await ask(t, visitor, 'Compare', [first, second]);
    const parts = lastQuestion().content as Part[];
    expect(parts.filter((part) => part.type === 'image_url')).toHaveLength(1);
    expect(parts[0]!.text).toContain('[Image "first.png" attached, shown with this message.]');
    expect(parts[0]!.text).toContain('[Image "second.png" not sent: the limit of 1 images per question is reached.]');
  });

  it('sends earlier questions’ images again only within their budget, naming the others as shown earlier', async () => {
    const { defaultConfig } = await import('../config');
    const t = appWithModel({ attachments: { ...defaultConfig.attachments, modelAcceptsImages: true, earlierImagesPerRequest: 1 } });
    const visitor = h.visitor();
    const red = pngOf(2, [255, 0, 0]);
    const green = pngOf(2, [0, 255, 0]);
    const blue = pngOf(2, [0, 0, 255]);
    const dataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
    const { conversationId } = await ask(t, visitor, 'What colour?', [await upload(t, visitor, red, 'red.png')]);
    await ask(t, visitor, 'And this one?', [await upload(t, visitor, green, 'green.png')], conversationId);
    await ask(t, visitor, 'Which of the three is darkest?', [await upload(t, visitor, blue, 'blue.png')], conversationId);

    const questions = requests.at(-1)!.body.messages.filter((m) => m.role === 'user');
    const imagesIn = (message: SentMessage) =>
      typeof message.content === 'string' ? [] : message.content.flatMap((part) => (part.image_url ? [part.image_url.url] : []));
    // the question being answered, and the newest earlier one within the budget of one
    expect(questions.map(imagesIn)).toEqual([[], [dataUrl(green)], [dataUrl(blue)]]);
    // the oldest picture is still known to exist, by name
    expect(textOf(questions[0]!)).toBe('What colour?\n\n[Image "red.png", shown earlier.]');
    expect(textOf(questions[1]!)).toContain('[Image "green.png" attached, shown with this message.]');
  });

  it('counts the bytes of earlier images against their budget too', async () => {
    const { defaultConfig } = await import('../config');
    const first = pngOf(2, [9, 9, 9]);
    // room for one earlier picture of this size, not two
    const t = appWithModel({
      attachments: { ...defaultConfig.attachments, modelAcceptsImages: true, earlierImagesPerRequest: 10, earlierImageBytes: first.length * 1.5 },
    });
    const visitor = h.visitor();
    const { conversationId } = await ask(t, visitor, 'One', [await upload(t, visitor, first, 'one.png')]);
    await ask(t, visitor, 'Two', [await upload(t, visitor, pngOf(2, [8, 8, 8]), 'two.png')], conversationId);
    await ask(t, visitor, 'Three, with no picture', [], conversationId);
    const questions = requests.at(-1)!.body.messages.filter((m) => m.role === 'user');
    expect(questions.map((message) => (typeof message.content === 'string' ? 0 : message.content.filter((part) => part.image_url).length))).toEqual([0, 1, 0]);
    expect(textOf(questions[0]!)).toContain('[Image "one.png", shown earlier.]');
  });
});
