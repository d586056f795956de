import type { AgentRuntime, HistoryMessage, StreamAnswerInput } from './runtime';

export const OFFLINE_LABEL = 'Offline responder (no model configured)';

const CJK = /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]/;

const lastQuestion = (history: HistoryMessage[]) =>
  [...history].reverse().find((m) => m.role === 'user')?.content.trim() ?? '';

/** One line, at most 80 characters, safe inside a markdown quote. */
function quoted(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 80)}…` : line || '…';
}

function englishAnswer(agentName: string, question: string, turns: number): string {
  return [
    `> **${OFFLINE_LABEL}.** No language model is configured on this server, so this is a canned answer, not ${agentName}'s real reply.`,
    '> To get real answers, set `LLM_BASE_URL` (an OpenAI-compatible base such as `http://localhost:11434/v1`), `LLM_API_KEY` and `LLM_MODEL`, then restart the server.',
    '',
    `You asked: *${quoted(question)}*`,
    '',
    `Here is how ${agentName} would usually work through it:`,
    '',
    '1. Restate the goal in one sentence and note what is missing.',
    '2. Break the question into small steps.',
    '3. Answer each step, with sources or examples.',
    '4. Sum up and suggest a next action.',
    '',
    '| Item | Value |',
    '|---|---|',
    `| Agent | ${agentName} |`,
    `| Question length | ${question.length} characters |`,
    `| Messages in this conversation | ${turns} |`,
    '| Model | none (offline responder) |',
    '',
    'Configure a model like this before starting the server:',
    '',
    '```bash',
    'export LLM_BASE_URL=http://localhost:11434/v1',
    'export LLM_API_KEY=sk-your-key   # when the service needs one',
    'export LLM_MODEL=qwen2.5:7b',
    'npm start',
    '```',
    '',
    'Once a model is configured, ask again and the real answer will stream here.',
  ].join('\n');
}

function chineseAnswer(agentName: string, question: string, turns: number): string {
  return [
    `> **离线应答器（${OFFLINE_LABEL}）。** 服务器尚未配置语言模型，所以这是一段示例回答，不是「${agentName}」的真实回复。`,
    '> 如需真实回答，请设置 `LLM_BASE_URL`（兼容 OpenAI 的地址，例如 `http://localhost:11434/v1`）、`LLM_API_KEY` 和 `LLM_MODEL`，然后重启服务器。',
    '',
    `你的问题：*${quoted(question)}*`,
    '',
    `「${agentName}」通常会这样处理这个问题：`,
    '',
    '1. 用一句话复述目标，并指出缺少的信息。',
    '2. 把问题拆成几个小步骤。',
    '3. 逐步回答，并给出来源或示例。',
    '4. 总结，并建议下一步。',
    '',
    '| 项目 | 内容 |',
    '|---|---|',
    `| 智能体 | ${agentName} |`,
    `| 问题长度 | ${question.length} 个字符 |`,
    `| 本会话消息数 | ${turns} |`,
    '| 模型 | 无（离线应答器） |',
    '',
    '启动服务器前这样配置模型：',
    '',
    '```bash',
    'export LLM_BASE_URL=http://localhost:11434/v1',
    'export LLM_API_KEY=sk-your-key   # 服务需要时填写',
    'export LLM_MODEL=qwen2.5:7b',
    'npm start',
    '```',
    '',
    '配置好模型后再问一次，真实回答就会在这里流式显示。',
  ].join('\n');
}

/** Splits into small pieces the way a model streams: words, or one or two CJK characters. */
export function tokenize(text: string): string[] {
  return text.match(/[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]{1,2}|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]+\s*|\s+/g) ?? [];
}

export function offlineAnswer(agentName: string, history: HistoryMessage[]): string {
  const question = lastQuestion(history);
  return CJK.test(question)
    ? chineseAnswer(agentName, question, history.length)
    : englishAnswer(agentName, question, history.length);
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });

/** Answers without any model, so the whole chat flow can be tried on one machine. */
export function createOfflineResponder(tokenDelayMs: number): AgentRuntime {
  return {
    label: OFFLINE_LABEL,
    async *streamAnswer({ agent, history, signal }: StreamAnswerInput) {
      for (const token of tokenize(offlineAnswer(agent.name, history))) {
        if (signal.aborted) return;
        await pause(tokenDelayMs, signal);
        if (signal.aborted) return;
        yield token;
      }
    },
  };
}
