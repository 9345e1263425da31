/** Widgets GET /api/captcha can ask for (app/.server/captcha/verify.ts). */
export type CaptchaType = "None" | "GoogleRecaptcha" | "CloudflareTurnstile";

export interface CaptchaInfo {
  type: CaptchaType;
  siteKey: string;
}

/**
 * The form side of a captcha:
 * - `loading`: GET /api/captcha has not answered yet;
 * - `off`: no captcha (None, or the answer could not be read: the server then decides);
 * - `waiting`: a provider widget is loading or has no valid token;
 * - `solved`: the widget gave a token, sent as `challenge`;
 * - `failed`: the provider script could not be loaded.
 */
export type CaptchaState =
  | { phase: "loading" }
  | { phase: "off" }
  | { phase: "waiting"; info: CaptchaInfo }
  | { phase: "solved"; info: CaptchaInfo; token: string }
  | { phase: "failed"; info: CaptchaInfo };

export type CaptchaEvent =
  | { type: "info"; info: CaptchaInfo | null }
  | { type: "token"; token: string }
  | { type: "expired" }
  | { type: "reset" }
  | { type: "scriptFailed" };

export const initialCaptchaState: CaptchaState = { phase: "loading" };

const TYPES: readonly CaptchaType[] = ["None", "GoogleRecaptcha", "CloudflareTurnstile"];

/** Reads the body of GET /api/captcha; null when it is not a known widget with a site key (or None). */
export function parseCaptchaInfo(body: unknown): CaptchaInfo | null {
  if (typeof body !== "object" || body === null) return null;
  const { type, siteKey } = body as { type?: unknown; siteKey?: unknown };
  const known = TYPES.find((t) => typeof type === "string" && t.toLowerCase() === type.toLowerCase());
  if (!known) return null;
  if (known === "None") return { type: "None", siteKey: "" };
  if (typeof siteKey !== "string" || siteKey.trim() === "") return null;
  return { type: known, siteKey: siteKey.trim() };
}

export function captchaReducer(state: CaptchaState, event: CaptchaEvent): CaptchaState {
  switch (event.type) {
    case "info":
      if (!event.info || event.info.type === "None") return state.phase === "off" ? state : { phase: "off" };
      // The widget already known (the page's loader said it first): its token, if any, stays.
      if ("info" in state && state.info.type === event.info.type && state.info.siteKey === event.info.siteKey) return state;
      return { phase: "waiting", info: event.info };
    case "token":
      if (state.phase !== "waiting" && state.phase !== "solved") return state;
      return event.token ? { phase: "solved", info: state.info, token: event.token } : { phase: "waiting", info: state.info };
    case "expired":
    case "reset":
      // A used or expired token is worthless: wait for the widget's next one.
      if (state.phase !== "solved") return state;
      return { phase: "waiting", info: state.info };
    case "scriptFailed":
      if (state.phase !== "waiting") return state;
      return { phase: "failed", info: state.info };
  }
}

/** The form may be sent: no captcha, or the widget has a token. */
export function captchaReady(state: CaptchaState): boolean {
  return state.phase === "off" || state.phase === "solved";
}

/**
 * The form cannot be sent yet: a provider widget has no token, or which widget is not known yet. The submit
 * button is disabled and says "Please wait for captcha..." (never disabled without saying why).
 */
export function captchaWaiting(state: CaptchaState): boolean {
  return state.phase === "loading" || state.phase === "waiting" || state.phase === "failed";
}

/** The `challenge` field to send: the token, or nothing. */
export function captchaToken(state: CaptchaState): string | undefined {
  return state.phase === "solved" ? state.token : undefined;
}

/** The provider script: loaded only when GET /api/captcha asks for its widget. */
export function captchaScriptUrl(info: CaptchaInfo): string | null {
  switch (info.type) {
    case "CloudflareTurnstile":
      return "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
    case "GoogleRecaptcha":
      // reCAPTCHA v3 (score based, as the server checks): the site key selects the invisible widget.
      return `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(info.siteKey)}`;
    case "None":
      return null;
  }
}

/** reCAPTCHA v3 tokens live two minutes; a fresh one is fetched before that. */
export const RECAPTCHA_REFRESH_MS = 100_000;
