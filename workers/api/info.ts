import { Hono } from "hono";
import { captchaInfo, captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { getClientConfig, getPlatformConfig } from "~/.server/services/config";
import { portMappingOf } from "~/.server/services/containers";
import type { ApiEnv } from "./context";
import { defineRoute } from "./registry";
import { jsonWithEtag } from "./http-cache";
import { enforceLimit, limiters } from "./middleware";
import * as posts from "~/.server/services/posts";

export const info = new Hono<ApiEnv>();
const tag = "Info";

defineRoute(info, { method: "GET", path: "/config", auth: "Public", tag, summary: "Client configuration (ETag/Last-Modified, 304)" }, async (c) =>
  jsonWithEtag(c, await getClientConfig(c.get("db"), portMappingOf(c.env))),
);

defineRoute(info, { method: "GET", path: "/captcha", auth: "Public", tag, summary: "Captcha widget to render (ETag/Last-Modified, 304)" }, async (c) => {
  const { accountPolicy } = await getPlatformConfig(c.get("db"), c.get("now"));
  return jsonWithEtag(c, captchaInfo(captchaSettingsFromEnv(c.env), accountPolicy.useCaptcha));
});

// ── Posts (api.md §11) ───────────────────────────────────────────────────────────────────────────────

defineRoute(info, { method: "GET", path: "/posts/latest", auth: "Public", tag, summary: "Latest posts (at most 20, pinned first; ETag/Last-Modified, 304)" }, async (c) =>
  jsonWithEtag(c, await posts.latestPosts(c.get("db"))),
);

defineRoute(info, { method: "GET", path: "/posts", auth: "Public", tag, summary: "All posts, pinned first, then newest (ETag/Last-Modified, 304)" }, async (c, { user }) => {
  enforceLimit(c, limiters.query, [user ? `u:${user.id}` : `ip:${c.get("ip")}`]);
  return jsonWithEtag(c, await posts.listPosts(c.get("db")));
});

defineRoute(info, { method: "GET", path: "/posts/:id", auth: "Public", tag, summary: "One post with its content (ETag/Last-Modified, 304)" }, async (c) =>
  jsonWithEtag(c, await posts.getPost(c.get("db"), c.req.param("id") ?? "")),
);
