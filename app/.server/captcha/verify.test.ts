import { describe, expect, it } from "vitest";
import { captchaInfo, captchaSettingsFromEnv, requireCaptcha, VERIFY_URLS } from "./verify";

const env = (p: string, site = "site", secret = "secret") =>
  ({ FLAGSTAFF_CAPTCHA_PROVIDER: p, FLAGSTAFF_CAPTCHA_SITE_KEY: site, FLAGSTAFF_CAPTCHA_SECRET: secret }) as unknown as Env;
const answer = (body: unknown) => (async () => Response.json(body)) as unknown as typeof fetch;

describe("captcha", () => {
  it("reads the provider and needs both keys", () => {
    expect(captchaSettingsFromEnv(env("googlerecaptcha")).provider).toBe("GoogleRecaptcha");
    expect(captchaSettingsFromEnv(env("CloudflareTurnstile", "")).provider).toBe("None");
    expect(captchaInfo(captchaSettingsFromEnv(env("CloudflareTurnstile")), false)).toEqual({ type: "None", siteKey: "" });
    expect(captchaInfo(captchaSettingsFromEnv(env("CloudflareTurnstile")), true)).toEqual({ type: "CloudflareTurnstile", siteKey: "site" });
    expect(VERIFY_URLS.GoogleRecaptcha).toMatch(/siteverify$/);
  });

  it("reCAPTCHA needs success and a score of at least 0.5", async () => {
    const s = captchaSettingsFromEnv(env("GoogleRecaptcha"));
    await expect(requireCaptcha(s, true, "t", "1.2.3.4", answer({ success: true, score: 0.9 }))).resolves.toBeUndefined();
    await expect(requireCaptcha(s, true, "t", "1.2.3.4", answer({ success: true, score: 0.3 }))).rejects.toMatchObject({ code: "captcha.failed" });
    await expect(requireCaptcha(s, true, "t", "1.2.3.4", answer({ success: false }))).rejects.toMatchObject({ status: 400 });
    await expect(requireCaptcha(s, true, undefined, "1.2.3.4", answer({ success: true }))).rejects.toMatchObject({ code: "captcha.failed" });
    await expect(requireCaptcha(s, false, undefined, "1.2.3.4", answer({ success: false }))).resolves.toBeUndefined();
  });
});
