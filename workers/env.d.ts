/** Optional settings not declared in wrangler.toml (secrets and per-process values). */
interface Env {
  /** Random per `npm start` process; enables the one-shot first-admin bootstrap call. */
  FLAGSTAFF_BOOTSTRAP_TOKEN?: string;
  /** Random per `npm start` process: the socket relay's proof (workers/hub.ts, scripts/lib/socket-relay.mjs). */
  FLAGSTAFF_RELAY_TOKEN?: string;
  /** The platform's address for links in mail (`https://ctf.example.org`); `npm start` sets its own when unset. */
  FLAGSTAFF_PUBLIC_URL?: string;
  /** SMTP for account mail; mail is off without a host and a sender. */
  FLAGSTAFF_SMTP_HOST?: string;
  FLAGSTAFF_SMTP_PORT?: string;
  FLAGSTAFF_SMTP_USER?: string;
  FLAGSTAFF_SMTP_PASSWORD?: string;
  /** The From address. */
  FLAGSTAFF_SMTP_SENDER?: string;
  /** none | starttls (default) | tls */
  FLAGSTAFF_SMTP_SECURITY?: string;
  /** None | GoogleRecaptcha | CloudflareTurnstile */
  FLAGSTAFF_CAPTCHA_PROVIDER?: string;
  FLAGSTAFF_CAPTCHA_SITE_KEY?: string;
  FLAGSTAFF_CAPTCHA_SECRET?: string;
  /** Days log records are kept (default 30). */
  FLAGSTAFF_LOG_RETENTION_DAYS?: string;
  /** Container agents: comma-separated base URLs (http://127.0.0.1:8788,...). Containers are off without them. */
  FLAGSTAFF_AGENTS?: string;
  /** Shared HMAC secret with the agents (≥ 32 characters). */
  FLAGSTAFF_AGENT_SECRET?: string;
  /** Default (host:port entries) | PlatformProxy (entries are instance UUIDs reached through /api/proxy). */
  FLAGSTAFF_PORT_MAPPING?: string;
  /** "true": capture proxied traffic of challenges that enable it. */
  FLAGSTAFF_TRAFFIC_CAPTURE?: string;
  /** `npm start` only (scripts/start.mjs): build/client's file table, a disk service serving it and one serving its gzipped copies. */
  STATIC_FILES?: Record<string, import("./local-server").StaticFile>;
  STATIC?: Fetcher;
  STATIC_GZIP?: Fetcher;
}
