import { countChars } from '../../src/contract/tasks';
import type { AgentRuntime, AttachmentNote, HistoryMessage, ResponderLanguage, StreamAnswerInput } from './runtime';

export const OFFLINE_LABEL = 'Offline responder (no model configured)';

const CJK = /[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]/;

const lastAsked = (history: HistoryMessage[]) => [...history].reverse().find((m) => m.role === 'user');
const lastQuestion = (history: HistoryMessage[]) => {
  const asked = lastAsked(history);
  return (asked?.asked?.text ?? asked?.content ?? '').trim();
};

/** One line, at most 80 characters, safe inside a markdown quote. */
function quoted(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 80)}…` : line || '…';
}

type Words = {
  notice: (agent: string) => string;
  configure: string;
  asked: (question: string) => string;
  approach: (agent: string) => string;
  steps: [string, string, string, string];
  table: { item: string; value: string; agent: string; question: string; length: (n: number) => string; turns: string; model: string; none: string };
  before: string;
  keyHint: string;
  after: string;
  /** One line per attachment of the question: what reached the model, honestly. */
  file: (note: AttachmentNote) => string;
};

type Outcome = AttachmentNote['outcome'];

const MODEL_ENV = '`LLM_BASE_URL`';

/** The canned answer's sentences in each of the product's languages. */
const WORDS: Record<ResponderLanguage, Words> = {
  'en-US': {
    notice: (agent) => `> **${OFFLINE_LABEL}.** No language model is configured on this server, so this is a canned answer, not ${agent}'s real reply.`,
    configure: `> To get real answers, set ${MODEL_ENV} (an OpenAI-compatible base such as \`http://localhost:11434/v1\`), \`LLM_API_KEY\` and \`LLM_MODEL\`, then restart the server.`,
    asked: (question) => `You asked: *${question}*`,
    approach: (agent) => `Here is how ${agent} would usually work through it:`,
    steps: ['Restate the goal in one sentence and note what is missing.', 'Break the question into small steps.', 'Answer each step, with sources or examples.', 'Sum up and suggest a next action.'],
    table: { item: 'Item', value: 'Value', agent: 'Agent', question: 'Question length', length: (n) => `${n} characters`, turns: 'Messages in this conversation', model: 'Model', none: 'none (offline responder)' },
    before: 'Configure a model like this before starting the server:',
    keyHint: 'when the service needs one',
    after: 'Once a model is configured, ask again and the real answer will stream here.',
    file: (note) =>
      note.outcome === 'read'
        ? `I read ${note.chars} characters of *${note.name}*${note.chars < note.total ? ` (cut: the file has ${note.total})` : ''}.`
        : ({
            'image-sent': `The image *${note.name}* would be shown to the model.`,
            'image-shown-earlier': `The image *${note.name}* was shown earlier; only its name is sent again.`,
            'image-unseen': `This agent cannot see images: of *${note.name}* it knows only the name.`,
            'image-too-large': `The image *${note.name}* is too large to send.`,
            unreadable: `*${note.name}* could not be read.`,
            'over-budget': `*${note.name}* was left out: the limit for attachments is reached.`,
            missing: `*${note.name}* is no longer available.`,
            'not-text': `*${note.name}* has no text to read.`,
          } satisfies Record<Exclude<Outcome, 'read'>, string>)[note.outcome],
  },
  'zh-CN': {
    notice: (agent) => `> **离线应答器（${OFFLINE_LABEL}）。** 服务器尚未配置语言模型，所以这是一段示例回答，不是“${agent}”的真实回复。`,
    configure: `> 如需真实回答，请设置 ${MODEL_ENV}（兼容 OpenAI 的地址，例如 \`http://localhost:11434/v1\`）、\`LLM_API_KEY\` 和 \`LLM_MODEL\`，然后重启服务器。`,
    asked: (question) => `你的问题：*${question}*`,
    approach: (agent) => `“${agent}”通常会这样处理这个问题：`,
    steps: ['用一句话复述目标，并指出缺少的信息。', '把问题拆成几个小步骤。', '逐步回答，并给出来源或示例。', '总结，并建议下一步。'],
    table: { item: '项目', value: '内容', agent: '智能体', question: '问题长度', length: (n) => `${n} 个字符`, turns: '本会话消息数', model: '模型', none: '无（离线应答器）' },
    before: '启动服务器前这样配置模型：',
    keyHint: '服务需要时填写',
    after: '配置好模型后再问一次，真实回答就会在这里流式显示。',
    file: (note) =>
      note.outcome === 'read'
        ? `我读取了 *${note.name}* 的 ${note.chars} 个字符${note.chars < note.total ? `（已截断：文件共 ${note.total} 个字符）` : ''}。`
        : ({
            'image-sent': `图片 *${note.name}* 会发送给模型查看。`,
            'image-shown-earlier': `图片 *${note.name}* 之前已发送过，这次只重新附上文件名。`,
            'image-unseen': `这个智能体看不到图片：关于 *${note.name}*，它只知道文件名。`,
            'image-too-large': `图片 *${note.name}* 太大，无法发送。`,
            unreadable: `无法读取 *${note.name}*。`,
            'over-budget': `*${note.name}* 未包含在内：已达到附件的上限。`,
            missing: `*${note.name}* 已不可用。`,
            'not-text': `*${note.name}* 没有可读取的文字。`,
          } satisfies Record<Exclude<Outcome, 'read'>, string>)[note.outcome],
  },
  'fr-FR': {
    notice: (agent) => `> **Répondeur hors ligne (${OFFLINE_LABEL}).** Aucun modèle de langage n’est configuré sur ce serveur : voici une réponse type, pas la vraie réponse de ${agent}.`,
    configure: `> Pour obtenir de vraies réponses, définissez ${MODEL_ENV} (une adresse compatible OpenAI, par exemple \`http://localhost:11434/v1\`), \`LLM_API_KEY\` et \`LLM_MODEL\`, puis redémarrez le serveur.`,
    asked: (question) => `Votre question : *${question}*`,
    approach: (agent) => `Voici comment ${agent} s’y prendrait d’habitude :`,
    steps: ['Reformuler l’objectif en une phrase et relever ce qui manque.', 'Découper la question en petites étapes.', 'Répondre à chaque étape, avec des sources ou des exemples.', 'Résumer et proposer une suite.'],
    table: { item: 'Élément', value: 'Valeur', agent: 'Agent', question: 'Longueur de la question', length: (n) => `${n} caractères`, turns: 'Messages dans cette conversation', model: 'Modèle', none: 'aucun (répondeur hors ligne)' },
    before: 'Configurez un modèle ainsi avant de démarrer le serveur :',
    keyHint: 'si le service en demande une',
    after: 'Une fois le modèle configuré, reposez votre question : la vraie réponse s’affichera ici au fil de l’eau.',
    file: (note) =>
      note.outcome === 'read'
        ? `J’ai lu ${note.chars} caractères de *${note.name}*${note.chars < note.total ? ` (tronqué : le fichier en compte ${note.total})` : ''}.`
        : ({
            'image-sent': `L’image *${note.name}* serait montrée au modèle.`,
            'image-shown-earlier': `L’image *${note.name}* a déjà été montrée : seul son nom est renvoyé.`,
            'image-unseen': `Cet agent ne voit pas les images : de *${note.name}*, il ne connaît que le nom.`,
            'image-too-large': `L’image *${note.name}* est trop lourde pour être envoyée.`,
            unreadable: `*${note.name}* n’a pas pu être lu.`,
            'over-budget': `*${note.name}* a été laissé de côté : la limite des pièces jointes est atteinte.`,
            missing: `*${note.name}* n’est plus disponible.`,
            'not-text': `*${note.name}* ne contient pas de texte à lire.`,
          } satisfies Record<Exclude<Outcome, 'read'>, string>)[note.outcome],
  },
  'de-DE': {
    notice: (agent) => `> **Offline-Antwort (${OFFLINE_LABEL}).** Auf diesem Server ist kein Sprachmodell eingerichtet. Dies ist daher eine Beispielantwort, nicht die echte Antwort von ${agent}.`,
    configure: `> Für echte Antworten setzen Sie ${MODEL_ENV} (eine OpenAI-kompatible Adresse wie \`http://localhost:11434/v1\`), \`LLM_API_KEY\` und \`LLM_MODEL\` und starten den Server neu.`,
    asked: (question) => `Ihre Frage: *${question}*`,
    approach: (agent) => `So würde ${agent} die Frage normalerweise angehen:`,
    steps: ['Das Ziel in einem Satz zusammenfassen und festhalten, was fehlt.', 'Die Frage in kleine Schritte zerlegen.', 'Jeden Schritt beantworten, mit Quellen oder Beispielen.', 'Zusammenfassen und einen nächsten Schritt vorschlagen.'],
    table: { item: 'Eintrag', value: 'Wert', agent: 'Agent', question: 'Länge der Frage', length: (n) => `${n} Zeichen`, turns: 'Nachrichten in diesem Chat', model: 'Modell', none: 'keines (Offline-Antwort)' },
    before: 'Richten Sie vor dem Start des Servers ein Modell so ein:',
    keyHint: 'falls der Dienst einen verlangt',
    after: 'Sobald ein Modell eingerichtet ist, fragen Sie erneut, und die echte Antwort erscheint hier.',
    file: (note) =>
      note.outcome === 'read'
        ? `Ich habe ${note.chars} Zeichen aus *${note.name}* gelesen${note.chars < note.total ? ` (gekürzt: die Datei hat ${note.total})` : ''}.`
        : ({
            'image-sent': `Das Bild *${note.name}* würde dem Modell gezeigt.`,
            'image-shown-earlier': `Das Bild *${note.name}* wurde schon früher gezeigt; nur sein Name wird erneut gesendet.`,
            'image-unseen': `Dieser Agent kann keine Bilder sehen: von *${note.name}* kennt er nur den Namen.`,
            'image-too-large': `Das Bild *${note.name}* ist zu groß zum Senden.`,
            unreadable: `*${note.name}* konnte nicht gelesen werden.`,
            'over-budget': `*${note.name}* wurde weggelassen: die Grenze für Anhänge ist erreicht.`,
            missing: `*${note.name}* ist nicht mehr verfügbar.`,
            'not-text': `*${note.name}* enthält keinen lesbaren Text.`,
          } satisfies Record<Exclude<Outcome, 'read'>, string>)[note.outcome],
  },
  ja: {
    notice: (agent) => `> **オフライン応答（${OFFLINE_LABEL}）。** このサーバーには言語モデルが設定されていないため、これは定型の回答で、「${agent}」の実際の返答ではありません。`,
    configure: `> 実際の回答を得るには、${MODEL_ENV}（\`http://localhost:11434/v1\` などの OpenAI 互換のアドレス）、\`LLM_API_KEY\`、\`LLM_MODEL\` を設定してサーバーを再起動してください。`,
    asked: (question) => `ご質問：*${question}*`,
    approach: (agent) => `「${agent}」はふだん次のように進めます：`,
    steps: ['目的を一文で言い直し、足りない情報を挙げる。', '質問を小さなステップに分ける。', '各ステップに出典や例を添えて答える。', 'まとめて、次の行動を提案する。'],
    table: { item: '項目', value: '内容', agent: 'エージェント', question: '質問の長さ', length: (n) => `${n} 文字`, turns: 'この会話のメッセージ数', model: 'モデル', none: 'なし（オフライン応答）' },
    before: 'サーバーを起動する前に、次のようにモデルを設定します：',
    keyHint: 'サービスが必要とする場合',
    after: 'モデルを設定したらもう一度質問してください。実際の回答がここに表示されます。',
    file: (note) =>
      note.outcome === 'read'
        ? `*${note.name}* から ${note.chars} 文字を読み取りました${note.chars < note.total ? `（切り詰め：ファイル全体は ${note.total} 文字）` : ''}。`
        : ({
            'image-sent': `画像 *${note.name}* はモデルに渡されます。`,
            'image-shown-earlier': `画像 *${note.name}* は以前に渡し済みのため、今回はファイル名だけを送ります。`,
            'image-unseen': `このエージェントは画像を見られません。*${note.name}* についてはファイル名しか分かりません。`,
            'image-too-large': `画像 *${note.name}* は大きすぎて送れません。`,
            unreadable: `*${note.name}* を読み取れませんでした。`,
            'over-budget': `*${note.name}* は含めていません：添付ファイルの上限に達しました。`,
            missing: `*${note.name}* はもう利用できません。`,
            'not-text': `*${note.name}* には読み取れる文字がありません。`,
          } satisfies Record<Exclude<Outcome, 'read'>, string>)[note.outcome],
  },
};

function cannedAnswer(words: Words, agentName: string, question: string, turns: number, notes: AttachmentNote[]): string {
  return [
    words.notice(agentName),
    words.configure,
    '',
    words.asked(quoted(question)),
    '',
    ...(notes.length > 0 ? [...notes.map((note) => `- ${words.file(note)}`), ''] : []),
    words.approach(agentName),
    '',
    ...words.steps.map((step, index) => `${index + 1}. ${step}`),
    '',
    `| ${words.table.item} | ${words.table.value} |`,
    '|---|---|',
    `| ${words.table.agent} | ${agentName} |`,
    `| ${words.table.question} | ${words.table.length(countChars(question))} |`,
    `| ${words.table.turns} | ${turns} |`,
    `| ${words.table.model} | ${words.table.none} |`,
    '',
    words.before,
    '',
    '```bash',
    'export LLM_BASE_URL=http://localhost:11434/v1',
    `export LLM_API_KEY=sk-your-key   # ${words.keyHint}`,
    'export LLM_MODEL=qwen2.5:7b',
    'npm start',
    '```',
    '',
    words.after,
  ].join('\n');
}

/** Splits into small pieces the way a model streams: words, or one or two CJK characters. */
export function tokenize(text: string): string[] {
  return text.match(/[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]{1,2}|[^\s\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3040-\u30FF\uAC00-\uD7AF]+\s*|\s+/g) ?? [];
}

/**
 * The canned answer, in the language the person reads the product in (sent by the SPA as
 * Accept-Language); without one, Chinese for a question in CJK characters, else English.
 */
export function offlineAnswer(agentName: string, history: HistoryMessage[], language?: ResponderLanguage): string {
  const question = lastQuestion(history);
  const words = WORDS[language ?? (CJK.test(question) ? 'zh-CN' : 'en-US')];
  return cannedAnswer(words, agentName, question, history.length, lastAsked(history)?.notes ?? []);
}

/** Waits `ms`, or less when the answer is stopped (as a model's next token would). */
export const pause = (ms: number, signal: AbortSignal) =>
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
    async *streamAnswer({ agent, history, signal, language, continuing }: StreamAnswerInput) {
      const whole = offlineAnswer(agent.name, history, language);
      // Continued: the rest of the same canned answer, from where the stored one stopped.
      const rest = continuing === undefined ? whole : whole.startsWith(continuing) ? whole.slice(continuing.length) : '';
      for (const token of tokenize(rest)) {
        if (signal.aborted) return;
        await pause(tokenDelayMs, signal);
        if (signal.aborted) return;
        yield token;
      }
    },
  };
}
