import type { AgentTranslations } from '../../src/contract/agents';

/**
 * The seeded agents' names and introductions in the product's five languages, by agent id. The
 * agents API sends them beside the stored name and intro, and the market shows the reader's.
 */
export const AGENT_WORDS: Record<string, AgentTranslations> = {
  SpecialNoAgentFallback: {
    'zh-CN': { name: 'Kraken 助手', intro: 'Kraken AI 出品的通用助手：答疑、写作、总结、写代码，也能帮你安排日常。' },
    'en-US': { name: 'Kraken Assistant', intro: 'A general-purpose assistant by Kraken AI: questions, writing, summaries, code and everyday planning.' },
    'fr-FR': { name: 'Assistant Kraken', intro: 'L’assistant polyvalent de Kraken AI : questions, rédaction, résumés, code et organisation du quotidien.' },
    'de-DE': { name: 'Kraken-Assistent', intro: 'Der Allround-Assistent von Kraken AI: Fragen, Texte, Zusammenfassungen, Code und Alltagsplanung.' },
    ja: { name: 'Kraken アシスタント', intro: 'Kraken AI の汎用アシスタント。質問への回答、文章作成、要約、コード、日々の計画をお手伝いします。' },
  },
  'xhs-note-writer': {
    'zh-CN': { name: '小红书笔记写手', intro: '帮你写小红书笔记：吸睛标题、带 emoji 的分段正文、亲切的语气，外加 5 到 10 个话题标签。' },
    'en-US': { name: 'Xiaohongshu Note Writer', intro: 'Writes Xiaohongshu (RED) notes: a catchy title, emoji-rich paragraphs, a personal tone and 5 to 10 hashtags.' },
    'fr-FR': { name: 'Rédacteur de notes Xiaohongshu', intro: 'Rédige des notes Xiaohongshu (RED) : un titre accrocheur, des paragraphes pleins d’emoji, un ton personnel et 5 à 10 hashtags.' },
    'de-DE': { name: 'Xiaohongshu-Notizen-Schreiber', intro: 'Schreibt Xiaohongshu-Notizen (RED): ein packender Titel, Absätze mit Emojis, ein persönlicher Ton und 5 bis 10 Hashtags.' },
    ja: { name: '小紅書ノートライター', intro: '小紅書（RED）のノートを書きます。目を引くタイトル、絵文字を交えた段落、親しみやすい語り口、5〜10 個のハッシュタグ付き。' },
  },
  'linkedin-post-writer': {
    'zh-CN': { name: 'LinkedIn 帖子写手', intro: '把一个想法、一次成果或一条经验写成 LinkedIn 帖子：开头抓人，段落简短，结尾有明确的行动号召。' },
    'en-US': { name: 'LinkedIn Post Writer', intro: 'Turns an idea, a win or a lesson into a LinkedIn post with a strong hook, short paragraphs and a clear call to action.' },
    'fr-FR': { name: 'Rédacteur de posts LinkedIn', intro: 'Transforme une idée, une réussite ou une leçon en post LinkedIn : une accroche forte, des paragraphes courts et un appel à l’action clair.' },
    'de-DE': { name: 'LinkedIn-Beitragsschreiber', intro: 'Macht aus einer Idee, einem Erfolg oder einer Erkenntnis einen LinkedIn-Beitrag mit starkem Einstieg, kurzen Absätzen und klarem Aufruf zum Handeln.' },
    ja: { name: 'LinkedIn 投稿ライター', intro: 'アイデアや成果、学びを LinkedIn の投稿に。引きのある書き出し、短い段落、はっきりした行動の呼びかけで仕上げます。' },
  },
  'xhs-title-polisher': {
    'zh-CN': { name: '小红书爆款标题助手', intro: '为你的笔记给出 10 个小红书标题备选，并说明每个用了什么技巧，方便你挑选和测试。' },
    'en-US': { name: 'Xiaohongshu Title Booster', intro: 'Gives ten Xiaohongshu title options for your note, with the hook each one uses, so you can pick and test.' },
    'fr-FR': { name: 'Titres Xiaohongshu accrocheurs', intro: 'Propose dix titres Xiaohongshu pour votre note, avec l’accroche utilisée par chacun, pour choisir et tester.' },
    'de-DE': { name: 'Xiaohongshu-Titelhelfer', intro: 'Schlägt zehn Xiaohongshu-Titel für Ihre Notiz vor, jeweils mit dem verwendeten Kniff, damit Sie wählen und testen können.' },
    ja: { name: '小紅書バズるタイトル案', intro: 'ノートに合う小紅書のタイトル案を 10 個、それぞれの工夫の説明付きで提案します。選んで試せます。' },
  },
  'linkedin-profile-coach': {
    'zh-CN': { name: 'LinkedIn 个人资料教练', intro: '审阅你的 LinkedIn 标题、个人简介和工作经历要点，并围绕成果重新改写。' },
    'en-US': { name: 'LinkedIn Profile Coach', intro: 'Reviews your LinkedIn headline, About section and experience bullets, and rewrites them around results.' },
    'fr-FR': { name: 'Coach de profil LinkedIn', intro: 'Relit votre titre LinkedIn, votre section « Infos » et vos expériences, puis les réécrit autour de vos résultats.' },
    'de-DE': { name: 'LinkedIn-Profil-Coach', intro: 'Prüft Ihre LinkedIn-Überschrift, den Info-Bereich und Ihre Berufserfahrung und formuliert alles ergebnisorientiert neu.' },
    ja: { name: 'LinkedIn プロフィールコーチ', intro: 'LinkedIn の見出し、自己紹介、職歴の箇条書きを見直し、成果が伝わるように書き直します。' },
  },
  'code-review-buddy': {
    'zh-CN': { name: '代码审查搭档', intro: '审查 diff 或代码片段中的缺陷、安全问题和可读性，并以代码形式给出修改建议。' },
    'en-US': { name: 'Code Review Buddy', intro: 'Reviews a diff or a snippet for bugs, security issues and readability, with suggested fixes as code.' },
    'fr-FR': { name: 'Binôme de revue de code', intro: 'Relit un diff ou un extrait de code pour y trouver bogues, failles de sécurité et problèmes de lisibilité, avec des corrections en code.' },
    'de-DE': { name: 'Code-Review-Partner', intro: 'Prüft einen Diff oder ein Code-Stück auf Fehler, Sicherheitslücken und Lesbarkeit und schlägt Korrekturen als Code vor.' },
    ja: { name: 'コードレビュー相棒', intro: '差分やコード片のバグ、セキュリティ上の問題、読みやすさをレビューし、修正案をコードで示します。' },
  },
  'sql-helper': {
    'zh-CN': { name: 'SQL 查询助手', intro: '根据你的自然语言问题和表结构，编写并讲解 PostgreSQL 与 MySQL 的 SQL。' },
    'en-US': { name: 'SQL Query Helper', intro: 'Writes and explains SQL for PostgreSQL and MySQL from a plain-language question and your table definitions.' },
    'fr-FR': { name: 'Assistant requêtes SQL', intro: 'Écrit et explique du SQL pour PostgreSQL et MySQL à partir d’une question en langage courant et de vos définitions de tables.' },
    'de-DE': { name: 'SQL-Abfragehelfer', intro: 'Schreibt und erklärt SQL für PostgreSQL und MySQL aus einer Frage in Alltagssprache und Ihren Tabellendefinitionen.' },
    ja: { name: 'SQL クエリヘルパー', intro: 'ふだんの言葉での質問とテーブル定義から、PostgreSQL と MySQL の SQL を書いて説明します。' },
  },
  'translator-zh-en-ja': {
    'zh-CN': { name: '中英日翻译官', intro: '在中文、英文和日文之间互译，保留语气和格式，并对难译的说法加以说明。' },
    'en-US': { name: 'Chinese–English–Japanese Translator', intro: 'Translates between Chinese, English and Japanese, keeping tone and formatting, with notes on tricky phrases.' },
    'fr-FR': { name: 'Traducteur chinois-anglais-japonais', intro: 'Traduit entre le chinois, l’anglais et le japonais en gardant le ton et la mise en forme, avec des notes sur les tournures délicates.' },
    'de-DE': { name: 'Übersetzer Chinesisch–Englisch–Japanisch', intro: 'Übersetzt zwischen Chinesisch, Englisch und Japanisch, behält Ton und Formatierung bei und erklärt knifflige Wendungen.' },
    ja: { name: '中英日翻訳者', intro: '中国語・英語・日本語の間で、語調や書式を保ったまま翻訳し、訳しにくい表現には注釈を付けます。' },
  },
  'travel-planner': {
    'zh-CN': { name: '旅行规划师', intro: '按天规划行程，包含路线、预算和预订建议，并根据你的节奏和兴趣调整。' },
    'en-US': { name: 'Travel Planner', intro: 'Plans day-by-day trips with routes, budgets and booking tips, adjusted to your pace and interests.' },
    'fr-FR': { name: 'Planificateur de voyage', intro: 'Prépare des voyages jour par jour avec itinéraires, budgets et conseils de réservation, adaptés à votre rythme et à vos envies.' },
    'de-DE': { name: 'Reiseplaner', intro: 'Plant Reisen Tag für Tag mit Routen, Budget und Buchungstipps, abgestimmt auf Ihr Tempo und Ihre Interessen.' },
    ja: { name: '旅行プランナー', intro: 'ルート、予算、予約のコツを含む日ごとの旅程を、あなたのペースと興味に合わせて作ります。' },
  },
  'meeting-summarizer': {
    'zh-CN': { name: '会议纪要助手', intro: '把会议记录或零散笔记整理成纪要：决定事项、待办、负责人和截止日期。' },
    'en-US': { name: 'Meeting Notes Summarizer', intro: 'Turns a transcript or rough notes into a summary with decisions, action items, owners and due dates.' },
    'fr-FR': { name: 'Synthèse de réunion', intro: 'Transforme une transcription ou des notes en vrac en compte rendu : décisions, actions, responsables et échéances.' },
    'de-DE': { name: 'Besprechungsprotokoll-Helfer', intro: 'Macht aus einem Transkript oder groben Notizen eine Zusammenfassung mit Entscheidungen, Aufgaben, Zuständigen und Fristen.' },
    ja: { name: '議事録まとめ', intro: '文字起こしやメモを、決定事項、アクション、担当者、期限がわかる要約にまとめます。' },
  },
  'kraken-brand-voice': {
    'zh-CN': { name: 'Kraken 品牌语气检查', intro: 'Kraken AI 内部使用：对照 Kraken 品牌语气指南检查文案，并给出符合品牌的改写建议。' },
    'en-US': { name: 'Kraken Brand Voice Checker', intro: 'Internal to Kraken AI: checks copy against the Kraken brand voice guide and suggests on-brand rewrites.' },
    'fr-FR': { name: 'Vérificateur du ton de marque Kraken', intro: 'Usage interne chez Kraken AI : vérifie les textes selon le guide du ton de marque Kraken et propose des reformulations fidèles.' },
    'de-DE': { name: 'Kraken-Markenstimme-Prüfer', intro: 'Intern bei Kraken AI: prüft Texte anhand des Kraken-Leitfadens zur Markenstimme und schlägt passende Umformulierungen vor.' },
    ja: { name: 'Kraken ブランドボイスチェッカー', intro: 'Kraken AI 社内用。文章を Kraken のブランドボイスガイドと照らし合わせ、ブランドに合った書き直しを提案します。' },
  },
  'northwind-campaign-planner': {
    'zh-CN': { name: 'Northwind 营销活动策划', intro: 'Northwind Media 内部使用：策划小红书和 LinkedIn 同步发布的营销活动，并给出发布日历。' },
    'en-US': { name: 'Northwind Campaign Planner', intro: 'Internal to Northwind Media: plans cross-posted campaigns for Xiaohongshu and LinkedIn with a posting calendar.' },
    'fr-FR': { name: 'Planificateur de campagnes Northwind', intro: 'Usage interne chez Northwind Media : planifie des campagnes publiées sur Xiaohongshu et LinkedIn, avec un calendrier de publication.' },
    'de-DE': { name: 'Northwind-Kampagnenplaner', intro: 'Intern bei Northwind Media: plant Kampagnen für Xiaohongshu und LinkedIn zugleich, mit einem Veröffentlichungskalender.' },
    ja: { name: 'Northwind キャンペーンプランナー', intro: 'Northwind Media 社内用。小紅書と LinkedIn に同時展開するキャンペーンを、投稿カレンダー付きで計画します。' },
  },
  'draft-seo-writer': {
    'zh-CN': { name: 'SEO 文章写手（草稿）', intro: '开发中：根据关键词列表撰写 SEO 长文。' },
    'en-US': { name: 'SEO Article Writer (draft)', intro: 'Work in progress: long-form SEO articles from a keyword list.' },
    'fr-FR': { name: 'Rédacteur d’articles SEO (brouillon)', intro: 'En cours de développement : des articles SEO longs à partir d’une liste de mots-clés.' },
    'de-DE': { name: 'SEO-Artikelschreiber (Entwurf)', intro: 'In Arbeit: lange SEO-Artikel aus einer Liste von Suchbegriffen.' },
    ja: { name: 'SEO 記事ライター（下書き）', intro: '開発中：キーワードのリストから SEO 向けの長文記事を書きます。' },
  },
};

/**
 * The seeded applications' names and introductions in the five languages, by application id:
 * the applications list and a workflow conversation's header send them beside the stored words.
 */
export const APPLICATION_WORDS: Record<string, AgentTranslations> = {
  'xhs-note-pipeline': {
    'zh-CN': { name: '小红书笔记流水线', intro: '从一个选题到可直接发布的小红书笔记：调研、成稿、备选标题和话题标签，一次完成。' },
    'en-US': { name: 'Xiaohongshu Note Pipeline', intro: 'From a topic to a ready-to-post Xiaohongshu note: research, draft, title options and hashtags in one run.' },
    'fr-FR': { name: 'Chaîne de notes Xiaohongshu', intro: 'D’un sujet à une note Xiaohongshu prête à publier : recherche, rédaction, propositions de titres et hashtags, en une seule fois.' },
    'de-DE': { name: 'Xiaohongshu-Notiz-Pipeline', intro: 'Vom Thema zur fertigen Xiaohongshu-Notiz: Recherche, Entwurf, Titelvorschläge und Hashtags in einem Durchgang.' },
    ja: { name: '小紅書ノート・パイプライン', intro: 'テーマから投稿できる小紅書ノートまで。リサーチ、下書き、タイトル案、ハッシュタグを一度に仕上げます。' },
  },
  'linkedin-weekly-digest': {
    'zh-CN': { name: 'LinkedIn 每周精选', intro: '汇总你这一周的亮点，起草三篇可排期发布的 LinkedIn 帖子。' },
    'en-US': { name: 'LinkedIn Weekly Digest', intro: 'Collects your week\'s highlights and drafts three LinkedIn posts to schedule.' },
    'fr-FR': { name: 'Synthèse LinkedIn de la semaine', intro: 'Rassemble les temps forts de votre semaine et rédige trois posts LinkedIn à programmer.' },
    'de-DE': { name: 'LinkedIn-Wochenrückblick', intro: 'Sammelt die Highlights Ihrer Woche und entwirft drei LinkedIn-Beiträge zum Einplanen.' },
    ja: { name: 'LinkedIn 週間ダイジェスト', intro: '1 週間のハイライトをまとめ、予約投稿できる LinkedIn 投稿を 3 本下書きします。' },
  },
  'northwind-report-builder': {
    'zh-CN': { name: 'Northwind 报告生成器', intro: 'Northwind Media 内部使用：每周广告活动效果报告。' },
    'en-US': { name: 'Northwind Report Builder', intro: 'Internal to Northwind Media: weekly campaign performance report.' },
    'fr-FR': { name: 'Générateur de rapports Northwind', intro: 'Réservé à Northwind Media : rapport hebdomadaire sur les performances des campagnes.' },
    'de-DE': { name: 'Northwind-Berichtsgenerator', intro: 'Intern für Northwind Media: wöchentlicher Bericht zur Kampagnenleistung.' },
    ja: { name: 'Northwind レポートビルダー', intro: 'Northwind Media 社内向け：キャンペーン成果の週次レポート。' },
  },
};
