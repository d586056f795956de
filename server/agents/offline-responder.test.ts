import { describe, expect, it } from 'vitest';
import { createOfflineResponder, OFFLINE_LABEL, offlineAnswer } from './offline-responder';

const agent = { id: 'x', name: 'Kraken Assistant', systemPrompt: '' };

async function answer(question: string, delay = 0, signal = new AbortController().signal) {
  const pieces: string[] = [];
  for await (const piece of createOfflineResponder(delay).streamAnswer({ agent, history: [{ role: 'user', content: question }], signal }))
    pieces.push(piece);
  return pieces;
}

describe('offline responder', () => {
  it('says plainly that no model is configured and how to configure one, in English', async () => {
    const text = (await answer('How do I plan a product launch?')).join('');
    expect(text).toContain(OFFLINE_LABEL);
    expect(text).toMatch(/No language model is configured/);
    for (const name of ['LLM_BASE_URL', 'LLM_API_KEY', 'LLM_MODEL']) expect(text).toContain(name);
    expect(text).toContain('How do I plan a product launch?');
  });

  it('still answers with a list, a table and a code block', () => {
    const text = offlineAnswer('Kraken Assistant', [{ role: 'user', content: 'hello' }]);
    expect(text).toMatch(/^1\. /m);
    expect(text).toMatch(/^\| .+ \|$/m);
    expect(text).toMatch(/^\|---\|---\|$/m);
    expect(text).toMatch(/^```bash\n[\s\S]+\n```$/m);
  });

  it('answers in Chinese when the question has CJK characters', async () => {
    const text = (await answer('帮我写一篇小红书笔记')).join('');
    expect(text).toContain('服务器尚未配置语言模型');
    expect(text).toContain('LLM_BASE_URL');
    expect(text).toContain('帮我写一篇小红书笔记');
  });

  it('streams many small tokens that add up to the answer', async () => {
    const pieces = await answer('hello there');
    expect(pieces.length).toBeGreaterThan(50);
    expect(pieces.join('')).toBe(offlineAnswer('Kraken Assistant', [{ role: 'user', content: 'hello there' }]));
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const pieces = await answer('hello', 5, controller.signal);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(pieces.length).toBeLessThan(30);
  });
});
