import { brandButtonColours } from "~/core/colour";
import { type Language, languageFromAcceptLanguage } from "~/core/i18n/languages";

export type MailKind = "verify" | "reset" | "changeEmail";

interface Texts {
  subject: string;
  greeting: string;
  body: string;
  action: string;
  expiry: string;
  ignore: string;
}

/** Mail texts by language; `{platform}` and `{user}` are filled in. */
const TEXTS: Record<Language, Record<MailKind, Texts>> = {
  "en-US": {
    verify: {
      subject: "Verify your {platform} account",
      greeting: "Hello {user},",
      body: "Thank you for registering on {platform}. Please open the link below to activate your account.",
      action: "Activate my account",
      expiry: "This link can be used once and expires in 3 hours.",
      ignore: "If you did not register, you can ignore this email.",
    },
    reset: {
      subject: "Reset your {platform} password",
      greeting: "Hello {user},",
      body: "We received a request to reset the password of your {platform} account. Open the link below to choose a new password.",
      action: "Reset my password",
      expiry: "This link can be used once and expires in 3 hours.",
      ignore: "If you did not ask for this, you can ignore this email; your password stays the same.",
    },
    changeEmail: {
      subject: "Confirm your new email address for {platform}",
      greeting: "Hello {user},",
      body: "Please open the link below to use this address for your {platform} account.",
      action: "Confirm my email address",
      expiry: "This link can be used once and expires in 3 hours.",
      ignore: "If you did not ask for this, you can ignore this email.",
    },
  },
  "ja-JP": {
    verify: {
      subject: "{platform} アカウントの確認",
      greeting: "{user} さん、こんにちは。",
      body: "{platform} にご登録いただきありがとうございます。下のリンクを開いてアカウントを有効にしてください。",
      action: "アカウントを有効にする",
      expiry: "このリンクは 1 回だけ使用でき、3 時間で期限が切れます。",
      ignore: "登録した覚えがない場合は、このメールを無視してください。",
    },
    reset: {
      subject: "{platform} のパスワード再設定",
      greeting: "{user} さん、こんにちは。",
      body: "{platform} アカウントのパスワード再設定のリクエストを受け付けました。下のリンクを開いて新しいパスワードを設定してください。",
      action: "パスワードを再設定する",
      expiry: "このリンクは 1 回だけ使用でき、3 時間で期限が切れます。",
      ignore: "心当たりがない場合は、このメールを無視してください。パスワードは変更されません。",
    },
    changeEmail: {
      subject: "{platform} の新しいメールアドレスの確認",
      greeting: "{user} さん、こんにちは。",
      body: "下のリンクを開いて、このアドレスを {platform} アカウントのメールアドレスにしてください。",
      action: "メールアドレスを確認する",
      expiry: "このリンクは 1 回だけ使用でき、3 時間で期限が切れます。",
      ignore: "心当たりがない場合は、このメールを無視してください。",
    },
  },
  "zh-CN": {
    verify: {
      subject: "验证你的 {platform} 账号",
      greeting: "{user}，你好：",
      body: "感谢你注册 {platform}。请打开下面的链接激活你的账号。",
      action: "激活我的账号",
      expiry: "此链接只能使用一次，3 小时后失效。",
      ignore: "如果你没有注册，请忽略这封邮件。",
    },
    reset: {
      subject: "重置你的 {platform} 密码",
      greeting: "{user}，你好：",
      body: "我们收到了重置你的 {platform} 账号密码的请求。请打开下面的链接设置新密码。",
      action: "重置我的密码",
      expiry: "此链接只能使用一次，3 小时后失效。",
      ignore: "如果这不是你本人的操作，请忽略这封邮件，你的密码不会改变。",
    },
    changeEmail: {
      subject: "确认你在 {platform} 的新邮箱地址",
      greeting: "{user}，你好：",
      body: "请打开下面的链接，将此地址设为你的 {platform} 账号邮箱。",
      action: "确认我的邮箱地址",
      expiry: "此链接只能使用一次，3 小时后失效。",
      ignore: "如果这不是你本人的操作，请忽略这封邮件。",
    },
  },
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!);

/**
 * The subject, plain-text and HTML parts of an account mail in the user's language (en-US fallback). The
 * button is drawn in the platform's colour (`customTheme`, the admin's setting; the default colour without
 * one), its text white or near-black, whichever reads better on it.
 */
export function renderAccountMail(
  kind: MailKind,
  input: { language: string; platform: string; userName: string; link: string; customTheme?: string | null },
): { subject: string; text: string; html: string } {
  const lang = languageFromAcceptLanguage(input.language);
  const t = TEXTS[lang][kind];
  const fill = (s: string) => s.replaceAll("{platform}", input.platform).replaceAll("{user}", input.userName);
  const subject = fill(t.subject);
  const text = [fill(t.greeting), "", fill(t.body), "", input.link, "", t.expiry, t.ignore, "", `— ${input.platform}`, ""].join("\n");
  const h = (s: string) => escapeHtml(fill(s));
  const link = escapeHtml(input.link);
  const button = brandButtonColours(input.customTheme);
  const html = `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2328">
<p>${h(t.greeting)}</p>
<p>${h(t.body)}</p>
<p><a href="${link}" style="display:inline-block;padding:8px 16px;background:${button.background};color:${button.text};border-radius:6px;text-decoration:none">${h(t.action)}</a></p>
<p style="font-size:13px;color:#57606a">${link}</p>
<p style="font-size:13px;color:#57606a">${h(t.expiry)}<br>${h(t.ignore)}</p>
<p>— ${escapeHtml(input.platform)}</p>
</body></html>
`;
  return { subject, text, html };
}
