import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import {
  type CaptchaState,
  captchaReady,
  captchaReducer,
  captchaScriptUrl,
  captchaToken,
  captchaWaiting,
  initialCaptchaState,
  parseCaptchaInfo,
  RECAPTCHA_REFRESH_MS,
} from "~/core/ui/captcha";

/** The parts of Cloudflare Turnstile's explicit-render API used here. */
interface TurnstileApi {
  render(
    element: HTMLElement,
    options: {
      sitekey: string;
      action: string;
      callback: (token: string) => void;
      "expired-callback": () => void;
      "error-callback": () => void;
      "response-field": boolean;
    },
  ): string | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

/** The parts of Google reCAPTCHA v3's API used here. */
interface RecaptchaApi {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): PromiseLike<string>;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
    grecaptcha?: RecaptchaApi;
  }
}

/** One <script> per provider URL for the whole page; a failed load may be tried again on the next mount. */
const scripts = new Map<string, Promise<void>>();

function loadScript(url: string): Promise<void> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(url);
        script.remove();
        reject(new Error(`could not load ${url}`));
      };
      document.head.appendChild(script);
    });
    scripts.set(url, loading);
  }
  return loading;
}

export interface CaptchaHandle {
  state: CaptchaState;
  /** The form may be sent (no captcha, or a token is there). */
  ready: boolean;
  /** A widget has no token yet: the submit button is disabled and says so. */
  waiting: boolean;
  /** Takes the current token away and asks the widget for a new one (tokens are single-use). */
  reset: () => void;
  /** Callback ref of the element Turnstile draws in. */
  containerRef: (element: HTMLDivElement | null) => void;
}

/**
 * The captcha of a public form (login, register, recovery): starts from the page loader's widget (`info`),
 * reads GET /api/captcha and, only for a provider, loads its script and keeps a token. `failure` is the
 * form's failed result: each new one resets the token, which the server has used up.
 */
export function useCaptcha({ action, failure, info }: { action: string; failure?: unknown; info: unknown }): CaptchaHandle {
  // The page's loader knows the widget (what GET /api/captcha answers): the form is ready from its first
  // render, so a quick Enter is not dropped while the call is on its way. The call's answer still applies
  // (a page kept from an earlier load, a setting changed since); the same widget again changes nothing.
  const [state, dispatch] = useReducer(captchaReducer, info, (known) => captchaReducer(initialCaptchaState, { type: "info", info: parseCaptchaInfo(known) }));
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  const resetWidget = useRef<() => void>(() => undefined);

  useEffect(() => {
    const controller = new AbortController();
    fetch("/api/captcha", { headers: { Accept: "application/json" }, credentials: "same-origin", signal: controller.signal })
      .then((response) => (response.ok ? response.json() : null))
      // Unreadable: no widget; the server still refuses a request that needed one.
      .then(
        (body: unknown) => dispatch({ type: "info", info: parseCaptchaInfo(body) }),
        () => {
          if (!controller.signal.aborted) dispatch({ type: "info", info: null });
        },
      );
    return () => controller.abort();
  }, []);

  const provider = "info" in state ? state.info.type : "None";
  const siteKey = "info" in state ? state.info.siteKey : "";

  useEffect(() => {
    const url = captchaScriptUrl({ type: provider, siteKey });
    // Turnstile draws into the form: wait for its element.
    if (!url || (provider === "CloudflareTurnstile" && !container)) return;
    let live = true;
    let unmount = () => {};
    const onToken = (token: string) => {
      if (live) dispatch({ type: "token", token });
    };
    const mount = () => {
      if (provider === "CloudflareTurnstile") {
        const turnstile = window.turnstile;
        if (!turnstile || !container) return void dispatch({ type: "scriptFailed" });
        const id = turnstile.render(container, {
          sitekey: siteKey,
          action,
          callback: onToken,
          "expired-callback": () => live && dispatch({ type: "expired" }),
          "error-callback": () => live && dispatch({ type: "expired" }),
          "response-field": false,
        });
        if (id === undefined) return void dispatch({ type: "scriptFailed" });
        resetWidget.current = () => turnstile.reset(id);
        unmount = () => turnstile.remove(id);
      } else {
        const grecaptcha = window.grecaptcha;
        if (!grecaptcha) return void dispatch({ type: "scriptFailed" });
        const fetchToken = () =>
          grecaptcha.ready(() => {
            grecaptcha.execute(siteKey, { action }).then(onToken, () => live && dispatch({ type: "expired" }));
          });
        fetchToken();
        const refresh = setInterval(fetchToken, RECAPTCHA_REFRESH_MS);
        resetWidget.current = fetchToken;
        unmount = () => clearInterval(refresh);
      }
    };
    loadScript(url).then(
      () => {
        if (!live) return;
        try {
          mount();
        } catch (error) {
          console.error("captcha widget failed:", error);
          dispatch({ type: "scriptFailed" });
        }
      },
      () => {
        if (live) dispatch({ type: "scriptFailed" });
      },
    );
    return () => {
      live = false;
      resetWidget.current = () => undefined;
      unmount();
    };
  }, [provider, siteKey, action, container]);

  const reset = useCallback(() => {
    dispatch({ type: "reset" });
    resetWidget.current();
  }, []);

  useEffect(() => {
    if (failure) reset();
  }, [failure, reset]);

  return { state, ready: captchaReady(state), waiting: captchaWaiting(state), reset, containerRef: setContainer };
}

/** The widget (Turnstile draws here; reCAPTCHA v3 shows its own badge) and the `challenge` field of the form. */
export function Captcha({ captcha: { state, containerRef } }: { captcha: CaptchaHandle }) {
  const { t } = useTranslation();
  const token = captchaToken(state);
  return (
    <>
      {token ? <input type="hidden" name="challenge" value={token} /> : null}
      {"info" in state && state.info.type === "CloudflareTurnstile" ? (
        <div ref={containerRef} className="flex min-h-[65px] justify-center" />
      ) : null}
      {state.phase === "failed" ? <Alert tone="error">{t("captcha.loadFailed")}</Alert> : null}
    </>
  );
}
