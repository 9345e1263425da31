import type { SmtpConfig, SmtpSecurity } from "./smtp";

/** SMTP settings from the FLAGSTAFF_SMTP_* bindings, or null when mail is not configured (no host or sender). */
export function smtpConfigFromEnv(env: Env): SmtpConfig | null {
  const host = env.FLAGSTAFF_SMTP_HOST?.trim();
  const sender = env.FLAGSTAFF_SMTP_SENDER?.trim();
  if (!host || !sender) return null;
  const raw = (env.FLAGSTAFF_SMTP_SECURITY ?? "").trim().toLowerCase();
  const security: SmtpSecurity = raw === "tls" || raw === "starttls" || raw === "none" ? raw : "starttls";
  const port = Number(env.FLAGSTAFF_SMTP_PORT) || (security === "tls" ? 465 : 587);
  return {
    host,
    port,
    user: env.FLAGSTAFF_SMTP_USER ?? "",
    password: env.FLAGSTAFF_SMTP_PASSWORD ?? "",
    sender,
    security,
  };
}
