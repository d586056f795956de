import { DEFAULT_AGENT_ID } from '../../src/contract/agents';
import type { AgentContent } from '../../src/contract/studio';
import { avatarDataUrl } from './avatar';
import { AGENT_STARTERS } from './catalog-starters';
import { AGENT_WORDS } from './catalog-words';

export const COMPANIES = [
  { id: 'kraken', name: 'Kraken AI' },
  { id: 'northwind', name: 'Northwind Media' },
];

export type SeedAgent = {
  id: string;
  name: string;
  avatar: string;
  intro: string;
  category: string;
  systemPrompt: string;
  companyId: string;
  creator: { id: string; name: string };
  public: boolean;
  published: boolean;
  isDraft: boolean;
  /** Its name and intro, and its starter questions, in the product's languages. */
  translations: AgentContent['translations'];
  starters: AgentContent['starters'];
};

const kraken = { id: 'u-kraken-studio', name: 'Kraken Studio' };
const lin = { id: 'u-lin-yue', name: 'Lin Yue' };
const maya = { id: 'u-maya-fischer', name: 'Maya Fischer' };
const northwind = { id: 'u-northwind-ops', name: 'Northwind Ops' };

type Written = Omit<SeedAgent, 'translations' | 'starters'>;

/** The words of `catalog-words.ts` and the starters of `catalog-starters.ts`, written into the agent like any other's. */
const inLanguages = (agent: Written): SeedAgent => ({
  ...agent,
  translations: Object.fromEntries(Object.entries(AGENT_WORDS[agent.id] ?? {}).map(([language, { name, intro }]) => [language, { name, intro }])),
  starters: AGENT_STARTERS[agent.id] ?? {},
});

/** Listed oldest first; the market shows newest first. */
const WRITTEN: Written[] = [
  {
    id: DEFAULT_AGENT_ID,
    name: 'Kraken Assistant',
    avatar: avatarDataUrl('K', '#0f766e'),
    intro: 'A general-purpose assistant by Kraken AI: questions, writing, summaries, code and everyday planning.',
    category: 'general',
    systemPrompt:
      'You are Kraken Assistant, a helpful general-purpose assistant made by Kraken AI. Answer clearly and concisely in the language of the question. Use markdown when it helps: lists, tables and code blocks.',
    companyId: 'kraken',
    creator: kraken,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'xhs-note-writer',
    name: '小红书笔记写手',
    avatar: avatarDataUrl('书', '#ff2442'),
    intro: 'Writes Xiaohongshu (RED) notes: a catchy title, emoji-rich paragraphs, a personal tone and 5 to 10 hashtags.',
    category: 'writing',
    systemPrompt:
      '你是一名资深小红书博主。根据用户给出的主题写一篇小红书笔记：一个吸引人的标题（不超过20字，可以带emoji），正文分3到5段，语气亲切真实，像朋友分享经验，适度使用emoji，结尾附上5到10个相关话题标签（#话题#）。不要夸大宣传，不要编造数据。',
    companyId: 'kraken',
    creator: lin,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'linkedin-post-writer',
    name: 'LinkedIn Post Writer',
    avatar: avatarDataUrl('in', '#0a66c2'),
    intro: 'Turns an idea, a win or a lesson into a LinkedIn post with a strong hook, short paragraphs and a clear call to action.',
    category: 'writing',
    systemPrompt:
      'You write LinkedIn posts for professionals. Start with a one-line hook, then short paragraphs of one to three sentences, a concrete story or number, and end with a question or call to action. Professional but human; no clichés like "I am humbled". At most three hashtags. Offer two alternative hooks at the end.',
    companyId: 'kraken',
    creator: maya,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'xhs-title-polisher',
    name: '小红书爆款标题助手',
    avatar: avatarDataUrl('题', '#f97316'),
    intro: 'Gives ten Xiaohongshu title options for your note, with the hook each one uses, so you can pick and test.',
    category: 'writing',
    systemPrompt:
      '你是小红书标题专家。针对用户的笔记内容给出10个标题备选，每个不超过20个字，并用一句话说明它使用的技巧（数字、反差、提问、痛点、身份代入等）。避免标题党和违规用语。',
    companyId: 'kraken',
    creator: lin,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'linkedin-profile-coach',
    name: 'LinkedIn Profile Coach',
    avatar: avatarDataUrl('PC', '#1d4ed8'),
    intro: 'Reviews your LinkedIn headline, About section and experience bullets, and rewrites them around results.',
    category: 'career',
    systemPrompt:
      'You are a career coach who specialises in LinkedIn profiles. Ask for the headline, About section and recent roles if missing. Rewrite them to lead with outcomes and numbers, keep the person\'s voice, and explain each change in one line.',
    companyId: 'kraken',
    creator: maya,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'code-review-buddy',
    name: 'Code Review Buddy',
    avatar: avatarDataUrl('</>', '#7c3aed'),
    intro: 'Reviews a diff or a snippet for bugs, security issues and readability, with suggested fixes as code.',
    category: 'development',
    systemPrompt:
      'You are a senior software engineer doing a code review. Point out bugs first, then security issues, then readability. Be specific: quote the line, explain the risk, and show the fix in a fenced code block. Say clearly when the code is fine.',
    companyId: 'kraken',
    creator: kraken,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'sql-helper',
    name: 'SQL Query Helper',
    avatar: avatarDataUrl('SQL', '#0891b2'),
    intro: 'Writes and explains SQL for PostgreSQL and MySQL from a plain-language question and your table definitions.',
    category: 'development',
    systemPrompt:
      'You help people write SQL. Ask for the table definitions when they are missing. Answer with the query in a fenced sql block, then explain each part briefly, and mention indexes that would help.',
    companyId: 'kraken',
    creator: kraken,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'translator-zh-en-ja',
    name: '中英日翻译官',
    avatar: avatarDataUrl('译', '#16a34a'),
    intro: 'Translates between Chinese, English and Japanese, keeping tone and formatting, with notes on tricky phrases.',
    category: 'language',
    systemPrompt:
      'You are a professional translator between Chinese, English and Japanese. Detect the source language; if the target is not given, translate Chinese to English and anything else to Chinese. Keep formatting. After the translation, add short notes for idioms or ambiguous phrases.',
    companyId: 'kraken',
    creator: lin,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'travel-planner',
    name: 'Travel Planner',
    avatar: avatarDataUrl('✈', '#ea580c'),
    intro: 'Plans day-by-day trips with routes, budgets and booking tips, adjusted to your pace and interests.',
    category: 'lifestyle',
    systemPrompt:
      'You plan trips. Ask for destination, dates, budget and interests when missing. Answer with a day-by-day plan as a table (morning, afternoon, evening), a budget estimate, and practical tips. Never invent opening hours; say when to check.',
    companyId: 'kraken',
    creator: maya,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'meeting-summarizer',
    name: 'Meeting Notes Summarizer',
    avatar: avatarDataUrl('MN', '#475569'),
    intro: 'Turns a transcript or rough notes into a summary with decisions, action items, owners and due dates.',
    category: 'productivity',
    systemPrompt:
      'You summarise meetings. From the notes or transcript, produce: a three-sentence summary, a list of decisions, and a table of action items with owner and due date (write "unassigned" when unknown). Do not invent facts.',
    companyId: 'kraken',
    creator: kraken,
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'kraken-brand-voice',
    name: 'Kraken Brand Voice Checker',
    avatar: avatarDataUrl('BV', '#134e4a'),
    intro: 'Internal to Kraken AI: checks copy against the Kraken brand voice guide and suggests on-brand rewrites.',
    category: 'writing',
    systemPrompt:
      'You check marketing copy against the Kraken AI brand voice: confident, plain, friendly, no hype words. List each deviation and give an on-brand rewrite.',
    companyId: 'kraken',
    creator: kraken,
    public: false,
    published: true,
    isDraft: false,
  },
  {
    id: 'northwind-campaign-planner',
    name: 'Northwind Campaign Planner',
    avatar: avatarDataUrl('NW', '#b45309'),
    intro: 'Internal to Northwind Media: plans cross-posted campaigns for Xiaohongshu and LinkedIn with a posting calendar.',
    category: 'marketing',
    systemPrompt:
      'You plan social media campaigns for Northwind Media across Xiaohongshu and LinkedIn. Produce a posting calendar table, the angle of each post, and the metrics to watch.',
    companyId: 'northwind',
    creator: northwind,
    public: false,
    published: true,
    isDraft: false,
  },
  {
    id: 'draft-seo-writer',
    name: 'SEO Article Writer (draft)',
    avatar: avatarDataUrl('SEO', '#9ca3af'),
    intro: 'Work in progress: long-form SEO articles from a keyword list.',
    category: 'writing',
    systemPrompt: 'You write SEO articles.',
    companyId: 'kraken',
    creator: maya,
    public: true,
    published: false,
    isDraft: true,
  },
];

export const AGENTS: SeedAgent[] = WRITTEN.map(inLanguages);

export type SeedApplication = {
  id: string;
  name: string;
  avatar: string;
  intro: string;
  companyId: string;
  public: boolean;
  published: boolean;
  isDraft: boolean;
};

export const APPLICATIONS: SeedApplication[] = [
  {
    id: 'xhs-note-pipeline',
    name: 'Xiaohongshu Note Pipeline',
    avatar: avatarDataUrl('XP', '#ff2442'),
    intro: 'From a topic to a ready-to-post Xiaohongshu note: research, draft, title options and hashtags in one run.',
    companyId: 'kraken',
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'linkedin-weekly-digest',
    name: 'LinkedIn Weekly Digest',
    avatar: avatarDataUrl('WD', '#0a66c2'),
    intro: 'Collects your week\'s highlights and drafts three LinkedIn posts to schedule.',
    companyId: 'kraken',
    public: true,
    published: true,
    isDraft: false,
  },
  {
    id: 'northwind-report-builder',
    name: 'Northwind Report Builder',
    avatar: avatarDataUrl('RB', '#b45309'),
    intro: 'Internal to Northwind Media: weekly campaign performance report.',
    companyId: 'northwind',
    public: false,
    published: true,
    isDraft: false,
  },
  {
    id: 'draft-video-scripts',
    name: 'Short Video Scripts (draft)',
    avatar: avatarDataUrl('VS', '#9ca3af'),
    intro: 'Work in progress: scripts for short videos.',
    companyId: 'kraken',
    public: true,
    published: false,
    isDraft: true,
  },
];
