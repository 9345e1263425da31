import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "~/.server/db/client";
import { getPost, latestPosts, listPosts } from "~/.server/services/posts";
import type { PostDetail, PostInfo } from "~/core/schemas/post";
import { Client, newUser, unique } from "./helpers";
import { newAdmin } from "./content-helpers";

describe("posts (api.md §9, §11)", () => {
  it("creates, reads, updates and deletes a post with an 8-character id", async () => {
    const { client: admin, userName } = await newAdmin();
    const title = unique("post");
    const created = await admin.json<PostDetail>("/api/edit/posts", {
      method: "POST",
      body: { title, summary: "Short", content: "# Hello\n\n**world**", tags: [" news ", "", "news", "ctf"] },
    });
    expect(created.status).toBe(200);
    const post = created.body;
    expect(post.id).toMatch(/^[0-9a-z]{8}$/);
    expect(post).toMatchObject({ title, summary: "Short", content: "# Hello\n\n**world**", isPinned: false, tags: ["news", "ctf"], authorName: userName });
    expect(typeof post.time).toBe("number");

    const anon = new Client();
    const detail = await anon.json<PostDetail>(`/api/posts/${post.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(post);
    // Paths are case-insensitive.
    expect((await anon.json(`/api/Posts/${post.id.toUpperCase()}`)).status).toBe(200);

    const updated = await admin.json<PostDetail>(`/api/edit/posts/${post.id}`, { method: "PUT", body: { content: "changed", summary: null } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title, summary: "Short", content: "changed" });

    const deleted = await admin.json<{ title: string; status: number }>(`/api/edit/posts/${post.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body.status).toBe(200);
    expect((await anon.json(`/api/posts/${post.id}`)).status).toBe(404);
    expect((await admin.json(`/api/edit/posts/${post.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.json(`/api/edit/posts/${post.id}`, { method: "PUT", body: { title: "x" } })).status).toBe(404);
  });

  it("lists pinned posts first, then newest; latest returns at most 20", async () => {
    const { client: admin } = await newAdmin();
    const tag = unique("t");
    const make = async (title: string, isPinned = false) =>
      (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title, tags: [tag], isPinned } })).body;
    const old = await make("old");
    await new Promise((r) => setTimeout(r, 5));
    const pinned = await make("pinned", true);
    await new Promise((r) => setTimeout(r, 5));
    const fresh = await make("fresh");

    const anon = new Client();
    const list = await anon.json<PostInfo[]>("/api/posts");
    expect(list.status).toBe(200);
    const mine = list.body.filter((p) => p.tags.includes(tag));
    expect(mine.map((p) => p.id)).toEqual([pinned.id, fresh.id, old.id]);
    expect("content" in mine[0]!).toBe(false);
    // Every pinned post precedes every unpinned one.
    const firstUnpinned = list.body.findIndex((p) => !p.isPinned);
    expect(list.body.slice(firstUnpinned).every((p) => !p.isPinned)).toBe(true);

    for (let i = 0; i < 21; i++) await make(`bulk ${i}`);
    const latest = await anon.json<PostInfo[]>("/api/posts/latest");
    expect(latest.status).toBe(200);
    expect(latest.body.length).toBe(20);
    expect(latest.body[0]!.isPinned).toBe(true);
  });

  it("lists posts without reading their content from the database", async () => {
    const { client: admin } = await newAdmin();
    const post = (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("long"), content: "x".repeat(50_000) } })).body;
    const statements: string[] = [];
    // A binding that notes the SQL of each statement prepared through it.
    const d1 = {
      prepare: (sql: string) => (statements.push(sql), env.DB.prepare(sql)),
      batch: (list: D1PreparedStatement[]) => env.DB.batch(list),
    } as unknown as D1Database;
    const posts = createDb(d1);

    expect((await listPosts(posts)).some((p) => p.id === post.id)).toBe(true);
    expect((await latestPosts(posts)).length).toBeGreaterThan(0);
    expect(statements.length).toBeGreaterThanOrEqual(2);
    for (const sql of statements) expect(sql).not.toMatch(/"content"/);
    // The post's own page does read it (what the check above looks for).
    expect((await getPost(posts, post.id)).content).toHaveLength(50_000);
    expect(statements.at(-1)).toMatch(/"posts"\."content"/);
  });

  it("toggling only the pin keeps the post's time", async () => {
    const { client: admin } = await newAdmin();
    const post = (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("pin") } })).body;
    await new Promise((r) => setTimeout(r, 5));
    const pinned = await admin.json<PostDetail>(`/api/edit/posts/${post.id}`, { method: "PUT", body: { isPinned: true } });
    expect(pinned.body.isPinned).toBe(true);
    expect(pinned.body.time).toBe(post.time);
    await new Promise((r) => setTimeout(r, 5));
    const edited = await admin.json<PostDetail>(`/api/edit/posts/${post.id}`, { method: "PUT", body: { title: "renamed" } });
    expect(edited.body.time).toBeGreaterThan(post.time);
    expect(edited.body.isPinned).toBe(true);
  });

  it("answers with an ETag and 304 for an unchanged list, and a new ETag after an edit", async () => {
    const { client: admin } = await newAdmin();
    const anon = new Client();
    const first = await anon.fetch("/api/posts/latest");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^W\//);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    await first.text();
    const again = await anon.fetch("/api/posts/latest", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    await admin.json("/api/edit/posts", { method: "POST", body: { title: unique("etag"), isPinned: true } });
    const changed = await anon.fetch("/api/posts/latest", { headers: { "if-none-match": etag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    await changed.text();

    const post = (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("e") } })).body;
    const one = await anon.fetch(`/api/posts/${post.id}`);
    const tag = one.headers.get("etag")!;
    await one.text();
    expect((await anon.fetch(`/api/posts/${post.id}`, { headers: { "if-none-match": tag } })).status).toBe(304);
  });

  it("validates input with localised messages", async () => {
    const { client: admin } = await newAdmin();
    const empty = await admin.json<{ title: string; status: number }>("/api/edit/posts", { method: "POST", body: { title: "   " } });
    expect(empty.status).toBe(400);
    expect(empty.body.status).toBe(400);
    expect((await admin.json("/api/edit/posts", { method: "POST", body: { title: "x".repeat(51) } })).status).toBe(400);
    expect((await admin.json("/api/edit/posts", { method: "POST", body: {} })).status).toBe(400);
    expect((await admin.json("/api/edit/posts", { method: "POST", body: { title: "ok", tags: "notalist" } })).status).toBe(400);

    const ja = new Client({ lang: "ja-JP" });
    const missing = await ja.json<{ title: string }>("/api/posts/zzzzzzzz");
    expect(missing.status).toBe(404);
    expect(missing.body.title).toBe("記事が見つかりません");
    expect((await ja.json("/api/posts/bad-id!")).status).toBe(404);
  });

  it("refuses edits from non-admins", async () => {
    const { client: user } = await newUser();
    expect((await user.json("/api/edit/posts", { method: "POST", body: { title: "nope" } })).status).toBe(403);
    expect((await new Client().json("/api/edit/posts", { method: "POST", body: { title: "nope" } })).status).toBe(401);
    const { client: admin } = await newAdmin();
    const post = (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("p") } })).body;
    expect((await user.json(`/api/edit/posts/${post.id}`, { method: "PUT", body: { title: "x" } })).status).toBe(403);
    expect((await user.json(`/api/edit/posts/${post.id}`, { method: "DELETE" })).status).toBe(403);
  });

  it("stores Markdown as written (rendering makes it inert)", async () => {
    const { client: admin } = await newAdmin();
    const content = "<script>alert(1)</script>[x](javascript:alert(1))";
    const post = (await admin.json<PostDetail>("/api/edit/posts", { method: "POST", body: { title: unique("x"), content } })).body;
    expect((await new Client().json<PostDetail>(`/api/posts/${post.id}`)).body.content).toBe(content);
  });
});
