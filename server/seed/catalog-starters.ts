import type { AgentLanguage } from '../../src/contract/agents';

/**
 * The seeded agents' starter questions in the product's five languages, by agent id: what a new
 * conversation offers to ask with one click. The agents API sends the English ones as the agent's
 * own and the others beside its translated name and intro.
 */
export const AGENT_STARTERS: Record<string, Record<AgentLanguage, string[]>> = {
  SpecialNoAgentFallback: {
    'zh-CN': ['帮我把这周的待办排个优先级', '用三句话解释什么是向量数据库', '给我写一封礼貌的请假邮件'],
    'en-US': ['Help me prioritise my to-do list for this week', 'Explain vector databases in three sentences', 'Write a polite email asking for a day off'],
    'fr-FR': ['Aide-moi à prioriser ma liste de tâches de la semaine', 'Explique les bases de données vectorielles en trois phrases', 'Rédige un e-mail poli pour demander un jour de congé'],
    'de-DE': ['Hilf mir, meine Aufgaben für diese Woche zu priorisieren', 'Erkläre Vektordatenbanken in drei Sätzen', 'Schreib eine höfliche E-Mail, um einen Tag Urlaub zu beantragen'],
    ja: ['今週のやることリストに優先順位をつけて', 'ベクトルデータベースを3文で説明して', '休暇をお願いする丁寧なメールを書いて'],
  },
  'xhs-note-writer': {
    'zh-CN': ['写一篇周末露营装备清单的笔记', '分享一家宝藏咖啡店的探店笔记', '写一篇新手护肤步骤的干货笔记'],
    'en-US': ['Write a note about a weekend camping gear list', 'Write a café discovery note about a hidden gem', 'Write a practical note on a beginner skincare routine'],
    'fr-FR': ['Écris une note sur l’équipement pour un week-end en camping', 'Écris une note sur un petit café coup de cœur', 'Écris une note pratique sur une routine de soin pour débutants'],
    'de-DE': ['Schreib eine Notiz über eine Packliste fürs Campingwochenende', 'Schreib eine Notiz über ein verstecktes Lieblingscafé', 'Schreib eine praktische Notiz über Hautpflege für Einsteiger'],
    ja: ['週末キャンプの持ち物リストのノートを書いて', '隠れ家カフェの訪問ノートを書いて', '初心者向けスキンケア手順のお役立ちノートを書いて'],
  },
  'linkedin-post-writer': {
    'zh-CN': ['把我刚完成的项目写成一篇 LinkedIn 帖子', '写一篇关于一次失败中学到的经验的帖子', '写一篇宣布我换新工作的帖子'],
    'en-US': ['Turn the project I just shipped into a LinkedIn post', 'Write a post about a lesson I learned from a failure', 'Write a post announcing my new job'],
    'fr-FR': ['Transforme le projet que je viens de livrer en post LinkedIn', 'Écris un post sur une leçon tirée d’un échec', 'Écris un post pour annoncer mon nouveau poste'],
    'de-DE': ['Mach aus meinem gerade abgeschlossenen Projekt einen LinkedIn-Beitrag', 'Schreib einen Beitrag über eine Lehre aus einem Misserfolg', 'Schreib einen Beitrag, der meinen neuen Job ankündigt'],
    ja: ['完了したばかりのプロジェクトを LinkedIn 投稿にして', '失敗から学んだことについての投稿を書いて', '転職の報告をする投稿を書いて'],
  },
  'xhs-title-polisher': {
    'zh-CN': ['给我的减脂早餐笔记想 10 个标题', '给一篇租房避坑指南起标题', '给一篇城市周末游笔记起标题'],
    'en-US': ['Give me 10 titles for my healthy breakfast note', 'Suggest titles for a guide to renting without pitfalls', 'Suggest titles for a city weekend trip note'],
    'fr-FR': ['Propose 10 titres pour ma note sur un petit-déjeuner léger', 'Propose des titres pour un guide de location sans pièges', 'Propose des titres pour une note sur un week-end en ville'],
    'de-DE': ['Gib mir 10 Titel für meine Notiz über ein leichtes Frühstück', 'Schlag Titel für einen Ratgeber zur Wohnungssuche ohne Fallen vor', 'Schlag Titel für eine Notiz über ein Städtewochenende vor'],
    ja: ['ヘルシー朝ごはんのノートにタイトルを10個考えて', '賃貸の失敗しない選び方ガイドのタイトルを考えて', '街歩き週末旅ノートのタイトルを考えて'],
  },
  'linkedin-profile-coach': {
    'zh-CN': ['帮我改写 LinkedIn 个人标题', '审阅我的“关于”部分', '把我的工作经历改写成以成果为导向'],
    'en-US': ['Rewrite my LinkedIn headline', 'Review my About section', 'Rewrite my experience bullets around results'],
    'fr-FR': ['Réécris mon titre LinkedIn', 'Relis ma section « Infos »', 'Réécris mes expériences autour de mes résultats'],
    'de-DE': ['Formuliere meine LinkedIn-Überschrift neu', 'Prüfe meinen Info-Bereich', 'Formuliere meine Berufserfahrung ergebnisorientiert um'],
    ja: ['LinkedIn のヘッドラインを書き直して', '「概要」欄を添削して', '職歴を成果中心に書き直して'],
  },
  'code-review-buddy': {
    'zh-CN': ['审查这段代码有没有安全问题', '这个函数怎样写更易读？', '帮我找出这段代码里的 bug'],
    'en-US': ['Check this code for security issues', 'How can I make this function more readable?', 'Help me find the bug in this snippet'],
    'fr-FR': ['Vérifie ce code pour des failles de sécurité', 'Comment rendre cette fonction plus lisible ?', 'Aide-moi à trouver le bogue dans cet extrait'],
    'de-DE': ['Prüfe diesen Code auf Sicherheitslücken', 'Wie wird diese Funktion lesbarer?', 'Hilf mir, den Fehler in diesem Ausschnitt zu finden'],
    ja: ['このコードにセキュリティ上の問題がないか見て', 'この関数をもっと読みやすくするには？', 'このコードのバグを探すのを手伝って'],
  },
  'sql-helper': {
    'zh-CN': ['查出上个月每个客户的订单总额', '解释一下 LEFT JOIN 和 INNER JOIN 的区别', '这条慢查询该加什么索引？'],
    'en-US': ['Total each customer’s orders for last month', 'Explain the difference between LEFT JOIN and INNER JOIN', 'Which index would speed up this slow query?'],
    'fr-FR': ['Total des commandes de chaque client le mois dernier', 'Explique la différence entre LEFT JOIN et INNER JOIN', 'Quel index accélérerait cette requête lente ?'],
    'de-DE': ['Summe der Bestellungen je Kunde im letzten Monat', 'Erkläre den Unterschied zwischen LEFT JOIN und INNER JOIN', 'Welcher Index beschleunigt diese langsame Abfrage?'],
    ja: ['先月の顧客ごとの注文合計を出して', 'LEFT JOIN と INNER JOIN の違いを説明して', 'この遅いクエリにはどんなインデックスが効く？'],
  },
  'translator-zh-en-ja': {
    'zh-CN': ['把这段话翻译成地道的英文', '把这封邮件翻译成礼貌的日语', '“画蛇添足”用英文怎么说最自然？'],
    'en-US': ['Translate this paragraph into natural Chinese', 'Translate this email into polite Japanese', 'What is the most natural English for 画蛇添足?'],
    'fr-FR': ['Traduis ce paragraphe en chinois naturel', 'Traduis cet e-mail en japonais poli', 'Comment dire 画蛇添足 en anglais naturel ?'],
    'de-DE': ['Übersetze diesen Absatz in natürliches Chinesisch', 'Übersetze diese E-Mail in höfliches Japanisch', 'Wie sagt man 画蛇添足 am natürlichsten auf Englisch?'],
    ja: ['この段落を自然な英語に訳して', 'このメールを丁寧な中国語に訳して', '「蛇足」は英語で自然に言うと？'],
  },
  'travel-planner': {
    'zh-CN': ['帮我规划 5 天的京都行程', '周末两天去杭州怎么安排？', '带孩子去新加坡玩，预算怎么做？'],
    'en-US': ['Plan a 5-day trip to Kyoto', 'How should I spend a weekend in Lisbon?', 'Budget a family trip to Singapore with kids'],
    'fr-FR': ['Prépare un voyage de 5 jours à Kyoto', 'Comment passer un week-end à Lisbonne ?', 'Établis le budget d’un voyage en famille à Singapour'],
    'de-DE': ['Plane eine 5-tägige Reise nach Kyoto', 'Wie verbringe ich ein Wochenende in Lissabon?', 'Erstelle ein Budget für eine Familienreise nach Singapur'],
    ja: ['京都5日間の旅程を立てて', '週末のリスボンはどう回ればいい？', '子連れシンガポール旅行の予算を組んで'],
  },
  'meeting-summarizer': {
    'zh-CN': ['把这份会议记录整理成纪要', '列出这次会议的行动项和负责人', '把这段讨论总结成三条结论'],
    'en-US': ['Turn these meeting notes into minutes', 'List the action items and owners from this meeting', 'Sum up this discussion in three conclusions'],
    'fr-FR': ['Transforme ces notes en compte rendu de réunion', 'Liste les actions et leurs responsables pour cette réunion', 'Résume cette discussion en trois conclusions'],
    'de-DE': ['Mach aus diesen Notizen ein Besprechungsprotokoll', 'Liste die Aufgaben und Verantwortlichen dieser Besprechung auf', 'Fasse diese Diskussion in drei Ergebnissen zusammen'],
    ja: ['この会議メモを議事録にまとめて', 'この会議のアクションアイテムと担当者を挙げて', 'この議論を3つの結論に要約して'],
  },
  'kraken-brand-voice': {
    'zh-CN': ['这段文案符合 Kraken 的品牌语气吗？', '把这条产品公告改得更符合品牌风格', '给我三个符合品牌语气的标语'],
    'en-US': ['Does this copy match the Kraken brand voice?', 'Make this product announcement more on-brand', 'Give me three on-brand taglines'],
    'fr-FR': ['Ce texte respecte-t-il le ton de la marque Kraken ?', 'Rends cette annonce produit plus fidèle à la marque', 'Propose trois slogans fidèles à la marque'],
    'de-DE': ['Passt dieser Text zur Markenstimme von Kraken?', 'Formuliere diese Produktankündigung markengerechter', 'Gib mir drei markengerechte Slogans'],
    ja: ['この文章は Kraken のブランドボイスに合っている？', 'この製品告知をもっとブランドらしく書き直して', 'ブランドらしいキャッチコピーを3つ考えて'],
  },
  'northwind-campaign-planner': {
    'zh-CN': ['为新品上市规划一个两周的推广日历', '同一个活动，小红书和 LinkedIn 各怎么发？', '给这次活动定三个可衡量的目标'],
    'en-US': ['Plan a two-week posting calendar for a product launch', 'How should one campaign differ on Xiaohongshu and LinkedIn?', 'Set three measurable goals for this campaign'],
    'fr-FR': ['Prépare un calendrier de publication sur deux semaines pour un lancement', 'Comment adapter une campagne à Xiaohongshu et à LinkedIn ?', 'Fixe trois objectifs mesurables pour cette campagne'],
    'de-DE': ['Plane einen zweiwöchigen Veröffentlichungskalender für einen Produktstart', 'Wie unterscheidet sich eine Kampagne auf Xiaohongshu und LinkedIn?', 'Lege drei messbare Ziele für diese Kampagne fest'],
    ja: ['新商品発売に向けた2週間の投稿カレンダーを作って', '同じキャンペーンを小紅書と LinkedIn でどう変える？', 'このキャンペーンに測定できる目標を3つ決めて'],
  },
  'draft-seo-writer': {
    'zh-CN': ['围绕这些关键词写一篇长文', '给这篇文章拟一个 SEO 标题', '为这个关键词列一个文章大纲'],
    'en-US': ['Write a long-form article around these keywords', 'Suggest an SEO title for this article', 'Outline an article for this keyword'],
    'fr-FR': ['Écris un article de fond autour de ces mots-clés', 'Propose un titre SEO pour cet article', 'Fais le plan d’un article pour ce mot-clé'],
    'de-DE': ['Schreib einen ausführlichen Artikel zu diesen Suchbegriffen', 'Schlag einen SEO-Titel für diesen Artikel vor', 'Gliedere einen Artikel zu diesem Suchbegriff'],
    ja: ['このキーワードで長文記事を書いて', 'この記事の SEO タイトルを考えて', 'このキーワードで記事の構成案を作って'],
  },
};
