import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { files, users } from "~/.server/db/schema";
import { blobKey, releaseFile, storeBytes } from "~/.server/storage/files";
import { Client, db, newUser } from "./helpers";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const png = (salt: string) => new Uint8Array([...PNG, ...new TextEncoder().encode(salt)]);

function form(bytes: Uint8Array<ArrayBuffer> | null, name = "a.png", type = "image/png"): FormData {
  const f = new FormData();
  if (bytes) f.append("file", new File([bytes], name, { type }));
  return f;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("PUT /api/account/avatar and GET /assets/{hash}/{name}", () => {
  it("stores an image by hash, shows it in the profile and serves it with cache headers", async () => {
    const { client } = await newUser();
    const bytes = png(`avatar-${Date.now()}`);
    const hash = await sha256(bytes);
    const r = await client.json<string>("/api/account/avatar", { method: "PUT", raw: form(bytes) });
    expect(r.status).toBe(200);
    expect(r.body).toBe(`/assets/${hash}/avatar`);
    expect((await client.json<{ avatar: string }>("/api/account/profile")).body.avatar).toBe(`/assets/${hash}/avatar`);
    expect(await env.FILES.head(blobKey(hash))).not.toBeNull();
    expect(blobKey(hash)).toBe(`uploads/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`);

    const anon = new Client();
    const served = await anon.fetch(`/assets/${hash}/avatar`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("etag")).toBe(`"${hash}"`);
    expect(served.headers.get("cache-control")).toContain("max-age=604800");
    expect(served.headers.get("content-disposition")).toContain('filename="avatar"');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    const byName = await anon.fetch(`/assets/${hash}/notes.txt`);
    expect(byName.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(byName.headers.get("content-disposition")).toMatch(/^attachment; filename="notes.txt"/);
    await byName.arrayBuffer();

    const cached = await anon.fetch(`/assets/${hash}/avatar`, { headers: { "if-none-match": `"${hash}"` } });
    expect(cached.status).toBe(304);
  });

  it("replacing an avatar releases the old file; the same image twice keeps one blob", async () => {
    const { client, userName } = await newUser();
    const first = png(`first-${Date.now()}`);
    const second = png(`second-${Date.now()}`);
    const h1 = await sha256(first);
    expect((await client.json("/api/account/avatar", { method: "PUT", raw: form(first) })).status).toBe(200);
    expect((await client.json("/api/account/avatar", { method: "PUT", raw: form(first) })).status).toBe(200);
    expect((await db().select().from(files).where(eq(files.hash, h1)).get())?.referenceCount).toBe(1);
    expect((await client.json("/api/account/avatar", { method: "PUT", raw: form(second) })).status).toBe(200);
    expect(await db().select().from(files).where(eq(files.hash, h1)).get()).toBeUndefined();
    expect(await env.FILES.head(blobKey(h1))).toBeNull();
    const u = await db().select().from(users).where(eq(users.userNameKey, userName.toLowerCase())).get();
    expect(u?.avatarHash).toBe(await sha256(second));
    expect((await new Client().fetch(`/assets/${h1}/avatar`)).status).toBe(404);
  });

  it.each([
    ["no file", null],
    ["an empty file", new Uint8Array()],
    ["a text file named .png", new TextEncoder().encode("<html><script>alert(1)</script></html>")],
    ["a PDF", new TextEncoder().encode("%PDF-1.7\n")],
    ["an image over 3 MB", (() => { const b = new Uint8Array(3 * 1024 * 1024 + 1); b.set(PNG); return b; })()],
  ])("refuses %s with a localised 400 and changes nothing", async (_name, bytes) => {
    const { client } = await newUser({ lang: "ja-JP" });
    const r = await client.json<{ title: string; status: number }>("/api/account/avatar", { method: "PUT", raw: form(bytes) });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ title: "ファイルの形式とサイズを確認してください", status: 400 });
    expect((await client.json<{ avatar: string | null }>("/api/account/profile")).body.avatar).toBeNull();
  });

  it("needs a session", async () => {
    expect((await new Client().json("/api/account/avatar", { method: "PUT", raw: form(png("x")) })).status).toBe(401);
  });

  it("counts references across uses and deletes the blob at zero", async () => {
    const deps = { db: db(), bucket: env.FILES, now: Date.now() };
    const bytes = png(`shared-${Date.now()}`);
    const a = await storeBytes(deps, bytes, { name: "a.png", contentType: "image/png" });
    const b = await storeBytes(deps, bytes, { name: "b.png", contentType: "image/png" });
    expect(a.hash).toBe(b.hash);
    expect((await db().select().from(files).where(eq(files.hash, a.hash)).get())?.referenceCount).toBe(2);
    await releaseFile(deps, a.hash);
    expect(await env.FILES.head(blobKey(a.hash))).not.toBeNull();
    await releaseFile(deps, a.hash);
    expect(await env.FILES.head(blobKey(a.hash))).toBeNull();
    expect(await db().select().from(files).where(eq(files.hash, a.hash)).get()).toBeUndefined();
  });

  it("answers 404 in the error shape for unknown hashes and leaves other /assets paths to the app", async () => {
    const missing = await new Client().json<{ title: string; status: number }>(`/assets/${"0".repeat(64)}/x.png`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ title: "The requested item does not exist", status: 404 });
    const other = await new Client().fetch("/assets/not-a-hash.js");
    expect(other.headers.get("content-type") ?? "").not.toContain("application/json");
    await other.arrayBuffer();
  });
});
