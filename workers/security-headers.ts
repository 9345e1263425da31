import { isHttpsUrl } from "~/core/http/path";

/**
 * Security headers for every response of the Worker (pages, API, uploaded files). Pages get a strict
 * Content-Security-Policy with a per-request script nonce (set by app/entry.server.tsx through
 * `pageCsp`); everything else gets a policy that allows nothing, except PDFs, which our own pages show
 * in an iframe (writeups), so they may be framed by the same origin.
 */

/** Providers whose widget scripts and frames a page may load; matches FLAGSTAFF_CAPTCHA_PROVIDER. */
export type CaptchaProviderName = "None" | "GoogleRecaptcha" | "CloudflareTurnstile";

const CAPTCHA_SOURCES: Record<Exclude<CaptchaProviderName, "None">, { script: string[]; frame: string[]; connect: string[] }> = {
  CloudflareTurnstile: {
    script: ["https://challenges.cloudflare.com"],
    frame: ["https://challenges.cloudflare.com"],
    connect: ["https://challenges.cloudflare.com"],
  },
  GoogleRecaptcha: {
    script: ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    frame: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    connect: ["https://www.google.com/recaptcha/"],
  },
};

/** 128 random bits, base64: a fresh script nonce for one page response. */
export function makeNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/**
 * The page policy. Scripts: our own files and inline scripts carrying the nonce (React Router's
 * hydration data, the theme script). Styles: inline style attributes are needed (React `style` props,
 * the admin's brand colours). Sockets: the same origin only (`'self'` covers ws/wss of the page's host
 * in CSP 3; the explicit ws:/wss: hosts are for browsers that do not). Captcha hosts only when a
 * provider is configured.
 */
export function pageCsp(nonce: string, host: string, captcha: CaptchaProviderName = "None"): string {
  const extra = captcha === "None" ? { script: [], frame: [], connect: [] } : CAPTCHA_SOURCES[captcha];
  const join = (list: string[]) => (list.length ? ` ${list.join(" ")}` : "");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${join(extra.script)}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ws://${host} wss://${host}${join(extra.connect)}`,
    `frame-src 'self'${join(extra.frame)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Nothing may load or run: API answers, error bodies, downloads. */
export const NONE_CSP = "default-src 'none'; frame-ancestors 'none'";
/** PDFs (writeups) are shown in an iframe of our own pages. */
export const PDF_CSP = "default-src 'none'; frame-ancestors 'self'";
/** An HTML document that did not come through the page renderer: no inline script may run. */
const FALLBACK_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

const PERMISSIONS_POLICY =
  "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()";

export function isSecureRequest(request: Request): boolean {
  return isHttpsUrl(request.url) || request.headers.get("x-forwarded-proto") === "https";
}

/** The headers every response carries, given its content type (and any CSP it already has). */
export function securityHeaderValues(
  request: Request,
  contentType: string,
  existingCsp: string | null,
): Record<string, string> {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  const pdf = type === "application/pdf";
  let csp: string;
  if (pdf) csp = PDF_CSP;
  else if (existingCsp) csp = /frame-ancestors/.test(existingCsp) ? existingCsp : `${existingCsp}; frame-ancestors 'none'`;
  else csp = type === "text/html" ? FALLBACK_PAGE_CSP : NONE_CSP;
  const headers: Record<string, string> = {
    "Content-Security-Policy": csp,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": pdf ? "SAMEORIGIN" : "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
    "Cross-Origin-Opener-Policy": "same-origin",
  };
  if (isSecureRequest(request)) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** Adds the security headers to a response; WebSocket upgrades pass through untouched. */
export function withSecurityHeaders(request: Request, response: Response): Response {
  if (response.status === 101 || response.webSocket) return response;
  const values = securityHeaderValues(
    request,
    response.headers.get("content-type") ?? "",
    response.headers.get("content-security-policy"),
  );
  let out = response;
  try {
    for (const [name, value] of Object.entries(values)) out.headers.set(name, value);
  } catch {
    // Immutable headers (a response fetched from another service): copy it once.
    out = new Response(response.body, response);
    for (const [name, value] of Object.entries(values)) out.headers.set(name, value);
  }
  return out;
}
