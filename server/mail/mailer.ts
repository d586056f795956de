import { createTransport } from 'nodemailer';
import type { ResponderLanguage } from '../agents/runtime';

/** Where mail goes out (SMTP_URL), from whom (MAIL_FROM), and the site links in it lead to (PUBLIC_URL). */
export type MailSettings = { url: string; from: string; publicUrl: string };

export type Mailer = {
  /** Sends a reset link to the account's address, in the person's language. */
  sendResetLink(to: string, path: string, language: ResponderLanguage, expiresAt: Date): Promise<void>;
  close(): void;
};

/**
 * SMTP_URL turns on mail (`smtp://user:pass@host:587`, `smtps://…:465`). A link in a mail must
 * lead to this site whatever the request's Host says (a forged Host would send someone's reset
 * link to another site), so PUBLIC_URL is required with it.
 */
export function mailSettingsFromEnv(env: NodeJS.ProcessEnv): MailSettings | null {
  const url = env.SMTP_URL?.trim();
  if (!url) return null;
  if (!/^smtps?:\/\//i.test(url)) throw new Error('SMTP_URL must be smtp://… or smtps://…');
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, '');
  if (!publicUrl || !/^https?:\/\/[^/]+$/i.test(publicUrl)) throw new Error('PUBLIC_URL (the site as people reach it, e.g. https://chat.example.com) is required when SMTP_URL is set');
  return { url, from: env.MAIL_FROM?.trim() || `no-reply@${new URL(publicUrl).hostname}`, publicUrl };
}

const RESET_WORDS: Record<ResponderLanguage, { subject: string; body: (link: string, until: string) => string }> = {
  'zh-CN': { subject: '重置您的密码', body: (link, until) => `有人请求重置此账号的密码。如果是您本人，请打开以下链接设置新密码（${until} 前有效，仅可使用一次）：\n\n${link}\n\n如果不是您，请忽略此邮件，您的密码不会改变。` },
  'en-US': { subject: 'Reset your password', body: (link, until) => `Someone asked to reset the password of this account. If it was you, open this link to choose a new one (it works once, until ${until}):\n\n${link}\n\nIf it was not you, ignore this mail: your password stays as it is.` },
  'fr-FR': { subject: 'Réinitialiser votre mot de passe', body: (link, until) => `Quelqu’un a demandé à réinitialiser le mot de passe de ce compte. Si c’est vous, ouvrez ce lien pour en choisir un nouveau (valable une fois, jusqu’au ${until}) :\n\n${link}\n\nSinon, ignorez ce message : votre mot de passe ne change pas.` },
  'de-DE': { subject: 'Passwort zurücksetzen', body: (link, until) => `Jemand hat das Zurücksetzen des Passworts für dieses Konto angefordert. Wenn Sie es waren, öffnen Sie diesen Link, um ein neues zu wählen (einmal gültig, bis ${until}):\n\n${link}\n\nWenn nicht, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.` },
  ja: { subject: 'パスワードの再設定', body: (link, until) => `このアカウントのパスワード再設定が依頼されました。ご本人の場合は、次のリンクを開いて新しいパスワードを設定してください（${until} まで、1 回のみ有効）。\n\n${link}\n\nお心当たりがない場合は、このメールを無視してください。パスワードは変更されません。` },
};

export function createMailer(settings: MailSettings): Mailer {
  const transport = createTransport(settings.url);
  return {
    async sendResetLink(to, path, language, expiresAt) {
      const words = RESET_WORDS[language];
      const until = `${expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      await transport.sendMail({ from: settings.from, to, subject: words.subject, text: words.body(`${settings.publicUrl}${path}`, until) });
    },
    close: () => transport.close(),
  };
}
