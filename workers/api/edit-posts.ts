import { Hono } from "hono";
import * as posts from "~/.server/services/posts";
import { postCreateSchema, postUpdateSchema } from "~/core/schemas/post";
import type { ApiContext, ApiEnv } from "./context";
import { logEvent } from "./log";
import { defineRoute } from "./registry";

/** Edit — posts (api.md §9), all Admin. */
export const editPosts = new Hono<ApiEnv>();
const tag = "Edit";

const deps = (c: ApiContext) => ({ db: c.get("db"), now: c.get("now") });

defineRoute(editPosts, { method: "POST", path: "/edit/posts", auth: "Admin", tag, summary: "Create a post", body: postCreateSchema }, async (c, { body, user }) => {
  const post = await posts.createPost(deps(c), user!.id, body);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "postCreated", params: { title: post.title, id: post.id } }, status: "Success" });
  return c.json(post);
});

defineRoute(editPosts, { method: "PUT", path: "/edit/posts/:id", auth: "Admin", tag, summary: "Edit a post (partial; isPinned alone toggles the pin)", body: postUpdateSchema }, async (c, { body }) => {
  const post = await posts.updatePost(deps(c), c.req.param("id") ?? "", body);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "postEdited", params: { title: post.title, id: post.id } }, status: "Success" });
  return c.json(post);
});

defineRoute(editPosts, { method: "DELETE", path: "/edit/posts/:id", auth: "Admin", tag, summary: "Delete a post" }, async (c) => {
  const id = c.req.param("id") ?? "";
  await posts.deletePost(c.get("db"), id);
  await logEvent(c, { level: "Information", logger: "Admin", text: { key: "postDeleted", params: { id } }, status: "Success" });
  return c.json({ title: c.get("t")("post.deleted"), status: 200 });
});
