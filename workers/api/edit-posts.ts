import { Hono } from "hono";
import * as posts from "~/.server/services/posts";
import { postCreateSchema, postUpdateSchema } from "~/core/schemas/post";
import type { ApiContext, ApiEnv } from "./context";
import { defineRoute } from "./registry";

/** Edit — posts (api.md §9), all Admin. */
export const editPosts = new Hono<ApiEnv>();
const tag = "Edit";

const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });

defineRoute(editPosts, { method: "POST", path: "/edit/posts", auth: "Admin", tag, summary: "Create a post", body: postCreateSchema }, async (c, { body, user }) =>
  c.json(await posts.createPost(deps(c), user!.id, body)),
);

defineRoute(editPosts, { method: "PUT", path: "/edit/posts/:id", auth: "Admin", tag, summary: "Edit a post (partial; isPinned alone toggles the pin)", body: postUpdateSchema }, async (c, { body }) =>
  c.json(await posts.updatePost(deps(c), c.req.param("id") ?? "", body)),
);

defineRoute(editPosts, { method: "DELETE", path: "/edit/posts/:id", auth: "Admin", tag, summary: "Delete a post" }, async (c) => {
  await posts.deletePost(c.get("db"), c.req.param("id") ?? "");
  return c.json({ title: c.get("t")("post.deleted"), status: 200 });
});
