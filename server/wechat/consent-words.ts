import type { ResponderLanguage } from '../agents/runtime';

export type ConsentWords = {
  title: string;
  asks: (host: string) => string;
  userLabel: string;
  suggested: (n: number) => string;
  sameName: string;
  allow: string;
  cancel: string;
  simulator: string;
  failedTitle: string;
  cancelledTitle: string;
  cancelledText: string;
  backTo: (host: string) => string;
};

/** The simulator's consent page in the five languages of the product, chosen by Accept-Language. */
export const CONSENT_WORDS: Record<ResponderLanguage, ConsentWords> = {
  'en-US': {
    title: 'Sign in with WeChat',
    asks: (host) => `${host} asks for your WeChat nickname and avatar.`,
    userLabel: 'Simulated WeChat user',
    suggested: (n) => `WeChat user ${n}`,
    sameName: 'The same name signs in as the same WeChat user again.',
    allow: 'Allow',
    cancel: 'Cancel',
    simulator: 'WeChat simulator: this server has no WeChat app configured (WECHAT_APP_ID, WECHAT_APP_SECRET), so it stands in for WeChat’s authorisation page.',
    failedTitle: 'WeChat authorisation failed',
    cancelledTitle: 'You did not sign in',
    cancelledText: 'Nothing was shared with the site. You can close this page.',
    backTo: (host) => `Back to ${host}`,
  },
  'zh-CN': {
    title: '使用微信登录',
    asks: (host) => `${host} 申请获取你的微信昵称和头像。`,
    userLabel: '模拟的微信用户',
    suggested: (n) => `微信用户 ${n}`,
    sameName: '下次用同一个名字，会登录同一个微信用户。',
    allow: '允许',
    cancel: '取消',
    simulator: '微信模拟器：这台服务器没有配置微信应用（WECHAT_APP_ID、WECHAT_APP_SECRET），所以由它代替微信的授权页面。',
    failedTitle: '微信授权失败',
    cancelledTitle: '你没有登录',
    cancelledText: '没有向该网站提供任何信息。你可以关闭此页面。',
    backTo: (host) => `返回 ${host}`,
  },
  'fr-FR': {
    title: 'Se connecter avec WeChat',
    asks: (host) => `${host} demande votre pseudo et votre photo WeChat.`,
    userLabel: 'Utilisateur WeChat simulé',
    suggested: (n) => `Utilisateur WeChat ${n}`,
    sameName: 'Le même nom reconnecte le même utilisateur WeChat.',
    allow: 'Autoriser',
    cancel: 'Annuler',
    simulator: 'Simulateur WeChat : aucune application WeChat n’est configurée sur ce serveur (WECHAT_APP_ID, WECHAT_APP_SECRET), il remplace donc la page d’autorisation de WeChat.',
    failedTitle: 'Échec de l’autorisation WeChat',
    cancelledTitle: 'Vous ne vous êtes pas connecté',
    cancelledText: 'Rien n’a été transmis au site. Vous pouvez fermer cette page.',
    backTo: (host) => `Revenir à ${host}`,
  },
  'de-DE': {
    title: 'Mit WeChat anmelden',
    asks: (host) => `${host} möchte Ihren WeChat-Spitznamen und Ihr Profilbild erhalten.`,
    userLabel: 'Simulierter WeChat-Nutzer',
    suggested: (n) => `WeChat-Nutzer ${n}`,
    sameName: 'Derselbe Name meldet wieder denselben WeChat-Nutzer an.',
    allow: 'Zulassen',
    cancel: 'Abbrechen',
    simulator: 'WeChat-Simulator: Auf diesem Server ist keine WeChat-App eingerichtet (WECHAT_APP_ID, WECHAT_APP_SECRET), daher ersetzt er die Autorisierungsseite von WeChat.',
    failedTitle: 'WeChat-Autorisierung fehlgeschlagen',
    cancelledTitle: 'Sie haben sich nicht angemeldet',
    cancelledText: 'Es wurde nichts an die Website weitergegeben. Sie können diese Seite schließen.',
    backTo: (host) => `Zurück zu ${host}`,
  },
  ja: {
    title: 'WeChat でログイン',
    asks: (host) => `${host} が WeChat のニックネームとアイコンの利用を求めています。`,
    userLabel: 'シミュレートする WeChat ユーザー',
    suggested: (n) => `WeChat ユーザー ${n}`,
    sameName: '同じ名前なら、同じ WeChat ユーザーとしてログインします。',
    allow: '許可',
    cancel: 'キャンセル',
    simulator: 'WeChat シミュレーター：このサーバーには WeChat アプリが設定されていない（WECHAT_APP_ID、WECHAT_APP_SECRET）ため、WeChat の認証ページの代わりをしています。',
    failedTitle: 'WeChat の認証に失敗しました',
    cancelledTitle: 'ログインしませんでした',
    cancelledText: 'サイトには何も共有されていません。このページは閉じてかまいません。',
    backTo: (host) => `${host} に戻る`,
  },
};
