import { badRequest } from "~/core/errors";

export const CAPTCHA_PROVIDERS = ["None", "GoogleRecaptcha", "CloudflareTurnstile"] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

export const VERIFY_URLS: Record<Exclude<CaptchaProvider, "None">, string> = {
  GoogleRecaptcha: "https://www.google.com/recaptcha/api/siteverify",
  CloudflareTurnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
};

/** reCAPTCHA v3 answers with a score; below this the request is refused. */
export const RECAPTCHA_MIN_SCORE = 0.5;

export interface CaptchaSettings {
  provider: CaptchaProvider;
  siteKey: string;
  secret: string;
}

/** Provider and keys from FLAGSTAFF_CAPTCHA_*; a provider without both keys counts as None. */
export function captchaSettingsFromEnv(env: Env): CaptchaSettings {
  const raw = (env.FLAGSTAFF_CAPTCHA_PROVIDER ?? "").trim();
  const provider = CAPTCHA_PROVIDERS.find((p) => p.toLowerCase() === raw.toLowerCase()) ?? "None";
  const siteKey = env.FLAGSTAFF_CAPTCHA_SITE_KEY?.trim() ?? "";
  const secret = env.FLAGSTAFF_CAPTCHA_SECRET?.trim() ?? "";
  if (provider === "None" || !siteKey || !secret) return { provider: "None", siteKey: "", secret: "" };
  return { provider, siteKey, secret };
}

/** What GET /api/captcha tells the client: the widget to draw, or None when the policy's useCaptcha is off. */
export function captchaInfo(settings: CaptchaSettings, useCaptcha: boolean): { type: CaptchaProvider; siteKey: string } {
  if (!useCaptcha || settings.provider === "None") return { type: "None", siteKey: "" };
  return { type: settings.provider, siteKey: settings.siteKey };
}

/**
 * Verifies a widget token with the provider's verify endpoint (the secret never leaves the server).
 * Does nothing when captcha is off; throws 400 `captcha.failed` otherwise.
 */
export async function requireCaptcha(
  settings: CaptchaSettings,
  useCaptcha: boolean,
  token: string | undefined,
  ip: string,
  fetcher: typeof fetch = fetch,
): Promise<void> {
  if (!useCaptcha || settings.provider === "None") return;
  if (!token) throw badRequest("captcha.failed");
  const form = new URLSearchParams({ secret: settings.secret, response: token, remoteip: ip });
  let result: { success?: boolean; score?: number };
  try {
    const res = await fetcher(VERIFY_URLS[settings.provider], {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    result = await res.json();
  } catch (err) {
    console.error("captcha verification failed:", err instanceof Error ? err.message : err);
    throw badRequest("captcha.failed");
  }
  if (result.success !== true) throw badRequest("captcha.failed");
  if (settings.provider === "GoogleRecaptcha" && typeof result.score === "number" && result.score < RECAPTCHA_MIN_SCORE) {
    throw badRequest("captcha.failed");
  }
}
