import { Hono } from "hono";
import { captchaInfo, captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { getClientConfig, getPlatformConfig } from "~/.server/services/config";
import type { ApiEnv } from "./context";
import { defineRoute } from "./registry";
import { jsonWithEtag } from "./http-cache";

export const info = new Hono<ApiEnv>();
const tag = "Info";

defineRoute(info, { method: "GET", path: "/config", auth: "Public", tag, summary: "Client configuration" }, async (c) =>
  jsonWithEtag(c, await getClientConfig(c.var.db)),
);

defineRoute(info, { method: "GET", path: "/captcha", auth: "Public", tag, summary: "Captcha widget to render" }, async (c) => {
  const { accountPolicy } = await getPlatformConfig(c.var.db, c.var.now);
  return jsonWithEtag(c, captchaInfo(captchaSettingsFromEnv(c.env), accountPolicy.useCaptcha));
});
