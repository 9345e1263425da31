import { AppError, badRequest } from "~/core/errors";
import { sendSmtp, type SmtpConfig, SmtpUnconfirmed } from "./smtp";
import { type MailKind, renderAccountMail } from "./templates";

/** How a mail went: accepted by the server, or sent whole without its reply in time (it may arrive). */
export type MailOutcome = "sent" | "unconfirmed";

/**
 * Sends an account mail in the recipient's language. 400 `mail.not_configured` without SMTP settings;
 * a failed delivery is answered with 502 `mail.send_failed` (the caller logs it for the admins).
 */
export async function sendAccountMail(
  smtp: SmtpConfig | null,
  kind: MailKind,
  input: { to: string; language: string; platform: string; userName: string; link: string; customTheme?: string | null },
): Promise<MailOutcome> {
  if (!smtp) throw badRequest("mail.not_configured");
  const { subject, text, html } = renderAccountMail(kind, input);
  try {
    await sendSmtp(smtp, { to: input.to, fromName: input.platform, subject, text, html });
    return "sent";
  } catch (err) {
    if (err instanceof SmtpUnconfirmed) {
      console.warn("mail sent, not confirmed in time:", err.message);
      return "unconfirmed";
    }
    console.error("mail delivery failed:", err instanceof Error ? err.message : err);
    throw new AppError(502, "mail.send_failed");
  }
}
