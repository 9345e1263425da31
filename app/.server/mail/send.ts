import { AppError, badRequest } from "~/core/errors";
import { sendSmtp, type SmtpConfig } from "./smtp";
import { type MailKind, renderAccountMail } from "./templates";

/**
 * Sends an account mail in the recipient's language. 400 `mail.not_configured` without SMTP settings;
 * a failed delivery is logged and answered with 502 `mail.send_failed`.
 */
export async function sendAccountMail(
  smtp: SmtpConfig | null,
  kind: MailKind,
  input: { to: string; language: string; platform: string; userName: string; link: string },
): Promise<void> {
  if (!smtp) throw badRequest("mail.not_configured");
  const { subject, text, html } = renderAccountMail(kind, input);
  try {
    await sendSmtp(smtp, { to: input.to, fromName: input.platform, subject, text, html });
  } catch (err) {
    console.error("mail delivery failed:", err instanceof Error ? err.message : err);
    throw new AppError(502, "mail.send_failed");
  }
}
