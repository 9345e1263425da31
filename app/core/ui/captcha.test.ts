import { describe, expect, it } from "vitest";
import {
  type CaptchaInfo,
  captchaReady,
  captchaReducer,
  captchaScriptUrl,
  type CaptchaState,
  captchaToken,
  captchaWaiting,
  initialCaptchaState,
  parseCaptchaInfo,
} from "./captcha";

const turnstile: CaptchaInfo = { type: "CloudflareTurnstile", siteKey: "site" };

describe("parseCaptchaInfo", () => {
  it("accepts the three widgets; a provider needs a site key", () => {
    expect(parseCaptchaInfo({ type: "None", siteKey: "" })).toEqual({ type: "None", siteKey: "" });
    expect(parseCaptchaInfo({ type: "CloudflareTurnstile", siteKey: " site " })).toEqual(turnstile);
    expect(parseCaptchaInfo({ type: "googlerecaptcha", siteKey: "k" })).toEqual({ type: "GoogleRecaptcha", siteKey: "k" });
    expect(parseCaptchaInfo({ type: "CloudflareTurnstile", siteKey: "" })).toBeNull();
    expect(parseCaptchaInfo({ type: "hCaptcha", siteKey: "k" })).toBeNull();
    expect(parseCaptchaInfo("None")).toBeNull();
    expect(parseCaptchaInfo(null)).toBeNull();
  });
});

describe("captchaReducer", () => {
  const run = (...events: Parameters<typeof captchaReducer>[1][]): CaptchaState =>
    events.reduce(captchaReducer, initialCaptchaState);

  it("is not ready, and says it waits, until it knows which widget (the button is never disabled silently)", () => {
    expect(captchaReady(initialCaptchaState)).toBe(false);
    expect(captchaWaiting(initialCaptchaState)).toBe(true);
  });

  it("keeps its state when the same widget is announced again (the loader's, then the API's answer)", () => {
    const info = { type: "CloudflareTurnstile" as const, siteKey: "k" };
    const solved = run({ type: "info", info }, { type: "token", token: "t" });
    expect(captchaReducer(solved, { type: "info", info: { ...info } })).toBe(solved);
    const off = run({ type: "info", info: null });
    expect(captchaReducer(off, { type: "info", info: { type: "None", siteKey: "" } })).toBe(off);
    // Another widget (a setting changed since the page loaded) starts over.
    expect(captchaReducer(solved, { type: "info", info: { type: "GoogleRecaptcha", siteKey: "k" } })).toEqual({ phase: "waiting", info: { type: "GoogleRecaptcha", siteKey: "k" } });
    expect(captchaReducer(solved, { type: "info", info: null })).toEqual({ phase: "off" });
  });

  it("None, or an unreadable answer, is ready at once with no token", () => {
    for (const state of [run({ type: "info", info: { type: "None", siteKey: "" } }), run({ type: "info", info: null })]) {
      expect(state).toEqual({ phase: "off" });
      expect(captchaReady(state)).toBe(true);
      expect(captchaWaiting(state)).toBe(false);
      expect(captchaToken(state)).toBeUndefined();
      // Widget events do not apply without a widget.
      expect(captchaReducer(state, { type: "token", token: "t" })).toBe(state);
      expect(captchaReducer(state, { type: "reset" })).toBe(state);
    }
  });

  it("a provider waits for a token, which a reset or expiry takes away", () => {
    const waiting = run({ type: "info", info: turnstile });
    expect(captchaWaiting(waiting)).toBe(true);
    expect(captchaReady(waiting)).toBe(false);

    const solved = captchaReducer(waiting, { type: "token", token: "t1" });
    expect(captchaReady(solved)).toBe(true);
    expect(captchaWaiting(solved)).toBe(false);
    expect(captchaToken(solved)).toBe("t1");
    expect(captchaToken(captchaReducer(solved, { type: "token", token: "t2" }))).toBe("t2");

    for (const event of [{ type: "reset" }, { type: "expired" }] as const) {
      const again = captchaReducer(solved, event);
      expect(again).toEqual({ phase: "waiting", info: turnstile });
      expect(captchaToken(again)).toBeUndefined();
    }
    expect(captchaReducer(waiting, { type: "token", token: "" })).toEqual(waiting);
  });

  it("a script that cannot load keeps the form waiting", () => {
    const failed = run({ type: "info", info: turnstile }, { type: "scriptFailed" });
    expect(failed.phase).toBe("failed");
    expect(captchaWaiting(failed)).toBe(true);
    expect(captchaReady(failed)).toBe(false);
    expect(captchaReducer(failed, { type: "token", token: "late" })).toBe(failed);
  });
});

describe("captchaScriptUrl", () => {
  it("names the provider's script only for a provider", () => {
    expect(captchaScriptUrl(turnstile)).toBe("https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit");
    expect(captchaScriptUrl({ type: "GoogleRecaptcha", siteKey: "a b" })).toBe("https://www.google.com/recaptcha/api.js?render=a%20b");
    expect(captchaScriptUrl({ type: "None", siteKey: "" })).toBeNull();
  });
});
