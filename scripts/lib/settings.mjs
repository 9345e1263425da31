// The launcher's check of the documented settings (README.md "Configuration") before anything starts. The
// app reads most of them leniently — an unknown FLAGSTAFF_PORT_MAPPING is Default, a FLAGSTAFF_TRAFFIC_CAPTURE
// other than "true" is off — so a misspelt value would otherwise be ignored without a word. Documented
// spellings are accepted in any case and passed on as the app spells them; an empty value is unset.
import { readFileSync } from "node:fs";
import { AGENT_SECRET_MIN_LENGTH } from "../../app/core/agent-protocol.ts";
import { passwordSchema, userNameSchema } from "../../app/core/schemas/account.ts";

const CHOICES = {
  FLAGSTAFF_PORT_MAPPING: ["Default", "PlatformProxy"],
  FLAGSTAFF_CAPTCHA_PROVIDER: ["None", "GoogleRecaptcha", "CloudflareTurnstile"],
  FLAGSTAFF_SMTP_SECURITY: ["none", "starttls", "tls"],
  FLAGSTAFF_TRAFFIC_CAPTURE: ["true", "false"],
  FLAGSTAFF_DISABLE_RATE_LIMIT: ["true", "false"],
};

const PORTS = ["FLAGSTAFF_PORT", "FLAGSTAFF_SMTP_PORT", "FLAGSTAFF_INSPECTOR_PORT"];

const listed = (values) => (values.length === 1 ? values[0] : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`);

let englishErrors;
/** The English text of one of the schemas' messages (i18n keys of the `errors` namespace). */
function englishError(key) {
  englishErrors ??= JSON.parse(readFileSync(new URL("../../app/locales/en-US/errors.json", import.meta.url), "utf8"));
  const text = key.split(".").reduce((node, part) => node?.[part], englishErrors);
  return typeof text === "string" ? text : key;
}

/** The first problem the app's own schema finds with `value`, in English, or undefined. */
function schemaProblem(schema, value) {
  const result = schema.safeParse(value);
  return result.success ? undefined : englishError(result.error.issues[0].message);
}

/**
 * Checks the FLAGSTAFF_* settings in `env`. Returns the problems, one line each naming the variable and
 * what it accepts, and the values to pass on instead (a documented spelling in another case).
 */
export function checkSettings(env) {
  const problems = [];
  const normalized = {};
  const value = (name) => {
    const raw = env[name]?.trim();
    return raw ? raw : undefined;
  };

  for (const [name, choices] of Object.entries(CHOICES)) {
    const raw = value(name);
    if (raw === undefined) continue;
    const choice = choices.find((c) => c.toLowerCase() === raw.toLowerCase());
    if (choice === undefined) problems.push(`${name} must be ${listed(choices)}, got "${raw}"`);
    else if (choice !== env[name]) normalized[name] = choice;
  }

  for (const name of PORTS) {
    const raw = value(name);
    if (raw === undefined) continue;
    const port = Number(raw);
    if (!/^\d+$/.test(raw) || port < 1 || port > 65535) problems.push(`${name} must be a port number (1–65535), got "${raw}"`);
  }

  const retention = value("FLAGSTAFF_LOG_RETENTION_DAYS");
  if (retention !== undefined && !(/^\d+$/.test(retention) && Number(retention) > 0)) {
    problems.push(`FLAGSTAFF_LOG_RETENTION_DAYS must be a whole number of days above 0, got "${retention}"`);
  }

  const agents = value("FLAGSTAFF_AGENTS");
  if (agents !== undefined) {
    const urls = agents.split(",").map((url) => url.trim()).filter(Boolean);
    const wrong = urls.filter((url) => !/^https?:\/\/[^/]/.test(url));
    if (wrong.length > 0 || urls.length === 0) {
      problems.push(`FLAGSTAFF_AGENTS must be comma-separated http(s) URLs of container agents, got "${agents}"`);
    }
    if ((env.FLAGSTAFF_AGENT_SECRET ?? "").length < AGENT_SECRET_MIN_LENGTH) {
      problems.push(
        `FLAGSTAFF_AGENTS is set, so FLAGSTAFF_AGENT_SECRET must be the agents' shared secret of at least ${AGENT_SECRET_MIN_LENGTH} characters (openssl rand -hex 32); without it containers are off`,
      );
    }
  }

  return { problems, normalized };
}

/**
 * The first admin's settings held to a registration's rules (api.md §3): the problems, one line each. Asked
 * only when the first admin is made — an install whose admin exists ignores both settings (README), so a
 * value an older release accepted must not stop it from starting.
 */
export function checkAdminSettings(env) {
  const problems = [];
  if (env.FLAGSTAFF_ADMIN_USER) {
    const problem = schemaProblem(userNameSchema, env.FLAGSTAFF_ADMIN_USER);
    if (problem) problems.push(`FLAGSTAFF_ADMIN_USER: ${problem}, got "${env.FLAGSTAFF_ADMIN_USER}"`);
  }
  if (env.FLAGSTAFF_ADMIN_PASSWORD) {
    const problem = schemaProblem(passwordSchema, env.FLAGSTAFF_ADMIN_PASSWORD);
    if (problem) problems.push(`FLAGSTAFF_ADMIN_PASSWORD: ${problem}`);
  }
  return problems;
}

/** The runtime's default old generation start (scripts/start.mjs says why). */
export const DEFAULT_RUNTIME_V8_FLAGS = "--initial-old-space-size=512";

/**
 * The V8 flags the runtime gets: the default, then the caller's — unless the caller sizes the old generation
 * itself (`--max-old-space-size` or `--initial-old-space-size`, with `_` or `-`): then the caller's alone. A
 * cap under the default's 512 MB start did not hold beside it (a runtime given `--max-old-space-size=256` grew
 * past 850 MB; alone, it levelled near 435 MB).
 */
export function runtimeV8Flags(callerFlags) {
  const caller = (callerFlags ?? "").trim();
  if (/--(max|initial)[-_]old[-_]space[-_]size\b/.test(caller)) return caller;
  return [DEFAULT_RUNTIME_V8_FLAGS, caller].filter(Boolean).join(" ");
}
