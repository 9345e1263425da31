import { describe, expect, it } from "vitest";
import { checkAdminSettings, checkSettings, runtimeV8Flags } from "./settings.mjs";

const SECRET = "x".repeat(32);

describe("checkSettings", () => {
  it("accepts an empty environment and the documented values", () => {
    expect(checkSettings({})).toEqual({ problems: [], normalized: {} });
    const env = {
      FLAGSTAFF_PORT: "8787",
      FLAGSTAFF_PORT_MAPPING: "PlatformProxy",
      FLAGSTAFF_CAPTCHA_PROVIDER: "CloudflareTurnstile",
      FLAGSTAFF_SMTP_SECURITY: "tls",
      FLAGSTAFF_SMTP_PORT: "465",
      FLAGSTAFF_TRAFFIC_CAPTURE: "true",
      FLAGSTAFF_DISABLE_RATE_LIMIT: "false",
      FLAGSTAFF_INSPECTOR_PORT: "9229",
      FLAGSTAFF_LOG_RETENTION_DAYS: "7",
      FLAGSTAFF_AGENTS: "http://10.0.0.5:8788, https://docker-2.example.org:8788,",
      FLAGSTAFF_AGENT_SECRET: SECRET,
      FLAGSTAFF_ADMIN_USER: "root.admin",
      FLAGSTAFF_ADMIN_PASSWORD: "Admin1234!",
      // Empty is unset (a shell's `FLAGSTAFF_SMTP_HOST=`).
      FLAGSTAFF_SMTP_HOST: "",
    };
    expect(checkSettings(env)).toEqual({ problems: [], normalized: {} });
  });

  it("passes documented spellings in another case on as the app spells them", () => {
    const { problems, normalized } = checkSettings({
      FLAGSTAFF_PORT_MAPPING: "platformproxy",
      FLAGSTAFF_CAPTCHA_PROVIDER: "cloudflareturnstile",
      FLAGSTAFF_SMTP_SECURITY: "STARTTLS",
      FLAGSTAFF_TRAFFIC_CAPTURE: "True",
      FLAGSTAFF_DISABLE_RATE_LIMIT: " TRUE ",
    });
    expect(problems).toEqual([]);
    expect(normalized).toEqual({
      FLAGSTAFF_PORT_MAPPING: "PlatformProxy",
      FLAGSTAFF_CAPTCHA_PROVIDER: "CloudflareTurnstile",
      FLAGSTAFF_SMTP_SECURITY: "starttls",
      FLAGSTAFF_TRAFFIC_CAPTURE: "true",
      FLAGSTAFF_DISABLE_RATE_LIMIT: "true",
    });
  });

  it.each([
    ["FLAGSTAFF_PORT_MAPPING", "Proxy", /^FLAGSTAFF_PORT_MAPPING must be Default or PlatformProxy, got "Proxy"$/],
    ["FLAGSTAFF_CAPTCHA_PROVIDER", "Turnstile", /^FLAGSTAFF_CAPTCHA_PROVIDER must be None, GoogleRecaptcha or CloudflareTurnstile, got "Turnstile"$/],
    ["FLAGSTAFF_TRAFFIC_CAPTURE", "1", /^FLAGSTAFF_TRAFFIC_CAPTURE must be true or false, got "1"$/],
    ["FLAGSTAFF_DISABLE_RATE_LIMIT", "1", /^FLAGSTAFF_DISABLE_RATE_LIMIT must be true or false/],
    ["FLAGSTAFF_SMTP_SECURITY", "ssl", /^FLAGSTAFF_SMTP_SECURITY must be none, starttls or tls, got "ssl"$/],
    ["FLAGSTAFF_SMTP_PORT", "abc", /^FLAGSTAFF_SMTP_PORT must be a port number \(1–65535\), got "abc"$/],
    ["FLAGSTAFF_PORT", "70000", /^FLAGSTAFF_PORT must be a port number/],
    ["FLAGSTAFF_INSPECTOR_PORT", "abc", /^FLAGSTAFF_INSPECTOR_PORT must be a port number/],
    ["FLAGSTAFF_LOG_RETENTION_DAYS", "0", /^FLAGSTAFF_LOG_RETENTION_DAYS must be a whole number of days above 0/],
  ])("refuses %s=%s naming the variable and what it accepts", (name, value, message) => {
    const { problems } = checkSettings({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
  });

  it.each([
    ["FLAGSTAFF_ADMIN_USER", "ab", /^FLAGSTAFF_ADMIN_USER: User name must be 3 to 15 characters, got "ab"$/],
    ["FLAGSTAFF_ADMIN_USER", "bad name", /^FLAGSTAFF_ADMIN_USER: User name may contain only/],
    ["FLAGSTAFF_ADMIN_PASSWORD", "abcdef", /^FLAGSTAFF_ADMIN_PASSWORD: Password must contain an uppercase letter$/],
    ["FLAGSTAFF_ADMIN_PASSWORD", "Ab1", /^FLAGSTAFF_ADMIN_PASSWORD: Password must be at least 6 characters$/],
  ])("holds the first admin's %s=%s to a registration's rules, apart from the start's own check", (name, value, message) => {
    expect(checkAdminSettings({ [name]: value })).toEqual([expect.stringMatching(message)]);
    // An install whose admin exists ignores both settings: they must not stop it from starting.
    expect(checkSettings({ [name]: value }).problems).toEqual([]);
  });

  it("refuses agents the app would not use: no shared secret, a short one, or no http(s) URL", () => {
    for (const secret of [undefined, "short"]) {
      const { problems } = checkSettings({ FLAGSTAFF_AGENTS: "http://127.0.0.1:8788", FLAGSTAFF_AGENT_SECRET: secret });
      expect(problems).toEqual([expect.stringMatching(/^FLAGSTAFF_AGENTS is set, so FLAGSTAFF_AGENT_SECRET must be .* at least 32 characters/)]);
    }
    expect(checkSettings({ FLAGSTAFF_AGENTS: "10.0.0.5:8788", FLAGSTAFF_AGENT_SECRET: SECRET }).problems).toEqual([
      expect.stringMatching(/^FLAGSTAFF_AGENTS must be comma-separated http\(s\) URLs/),
    ]);
  });

  it("reports every problem at once", () => {
    expect(checkSettings({ FLAGSTAFF_SMTP_PORT: "x", FLAGSTAFF_SMTP_SECURITY: "ssl", FLAGSTAFF_LOG_RETENTION_DAYS: "0" }).problems).toHaveLength(3);
  });
});

describe("runtimeV8Flags", () => {
  it("starts the old generation at 512 MB unless the caller sizes it, and keeps the caller's other flags", () => {
    expect(runtimeV8Flags(undefined)).toBe("--initial-old-space-size=512");
    expect(runtimeV8Flags("--stack-size=2000")).toBe("--initial-old-space-size=512 --stack-size=2000");
    // README's cap for small hosts: alone, or the 512 MB start outgrows it.
    expect(runtimeV8Flags("--max-old-space-size=256")).toBe("--max-old-space-size=256");
    expect(runtimeV8Flags(" --max_old_space_size=256 --stack-size=2000")).toBe("--max_old_space_size=256 --stack-size=2000");
    expect(runtimeV8Flags("--initial-old-space-size=64")).toBe("--initial-old-space-size=64");
  });
});
