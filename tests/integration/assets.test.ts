import { eq } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { files } from "~/.server/db/schema";
import { blobKey } from "~/.server/storage/files";
import { Client, db, newUser, unique } from "./helpers";
import { newAdmin, png, sha256 } from "./content-helpers";
import { createGame } from "./game-helpers";

const text = (s: string) => new TextEncoder().encode(s);

function upload(...entries: [Uint8Array<ArrayBuffer>, string][]): FormData {
  const f = new FormData();
  for (const [bytes, name] of entries) f.append("files", new File([bytes], name, { type: "application/octet-stream" }));
  return f;
}

describe("assets (api.md §8) and admin/files", () => {
  it("uploads several files, lists them, serves them and deduplicates by SHA-256", async () => {
    const { client: admin } = await newAdmin();
    const a = text(`alpha ${unique()}`);
    const b = text(`beta ${unique()}`);
    const r = await admin.json<{ hash: string; name: string }[]>("/api/assets", { method: "POST", raw: upload([a, "a.txt"], [b, "dir/b.bin"]) });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { hash: await sha256(a), name: "a.txt" },
      { hash: await sha256(b), name: "b.bin" },
    ]);

    const served = await new Client().fetch(`/assets/${r.body[0]!.hash}/a.txt`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(new TextDecoder().decode(a));
    // Paths match case-insensitively (api.md §1); the download name keeps its case.
    const upper = await new Client().fetch(`/Assets/${r.body[0]!.hash.toUpperCase()}/A.txt`);
    expect(upper.status).toBe(200);
    expect(upper.headers.get("content-disposition")).toContain('filename="A.txt"');
    // A name with path segments is served as its base name (SECURITY.md).
    const traversal = await new Client().fetch(`/assets/${r.body[0]!.hash}/..%2f..%2fetc%2fpasswd`);
    expect(traversal.headers.get("content-disposition")).toBe(`attachment; filename="passwd"; filename*=UTF-8''passwd`);
    const backslash = await new Client().fetch(`/assets/${r.body[0]!.hash}/..%5Cnotes%0a.txt`);
    expect(backslash.headers.get("content-disposition")).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);

    const listed = await admin.json<{ data: { hash: string; name: string }[]; length: number; total: number }>("/api/admin/files?count=500");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual(expect.arrayContaining(r.body));
    expect(listed.body.length).toBe(listed.body.data.length);
    expect(listed.body.total).toBeGreaterThanOrEqual(2);
    const paged = await admin.json<{ data: unknown[]; length: number; total: number }>("/api/admin/files?count=1&skip=0");
    expect(paged.body.length).toBe(1);
    expect(paged.body.total).toBe(listed.body.total);
    expect((await admin.json("/api/admin/files?count=501")).status).toBe(400);

    // The same bytes again: one blob, two references.
    const again = await admin.json<{ hash: string; name: string }[]>("/api/assets?filename=renamed.txt", { method: "POST", raw: upload([a, "x.txt"]) });
    expect(again.body[0]!.hash).toBe(r.body[0]!.hash);
    // The latest named upload names the file as it is listed (and as the next attachment takes it).
    expect(again.body[0]!.name).toBe("renamed.txt");
    const row = await db().select().from(files).where(eq(files.hash, r.body[0]!.hash)).get();
    expect(row!.referenceCount).toBe(2);
    expect(row!.name).toBe("renamed.txt");

    // Each DELETE drops one reference; the blob goes with the last one.
    expect((await admin.json(`/api/assets/${r.body[0]!.hash}`, { method: "DELETE" })).status).toBe(200);
    expect(await env.FILES.head(blobKey(r.body[0]!.hash))).not.toBeNull();
    expect((await admin.json(`/api/assets/${r.body[0]!.hash}`, { method: "DELETE" })).status).toBe(200);
    expect(await env.FILES.head(blobKey(r.body[0]!.hash))).toBeNull();
    expect(await db().select().from(files).where(eq(files.hash, r.body[0]!.hash)).get()).toBeUndefined();
    expect((await new Client().fetch(`/assets/${r.body[0]!.hash}/a.txt`)).status).toBe(404);
    expect((await admin.json(`/api/assets/${r.body[0]!.hash}`, { method: "DELETE" })).status).toBe(404);
  });

  it("refuses to delete a file that an avatar or an attachment still uses, and drops only an upload's own reference", async () => {
    const { client: admin } = await newAdmin();
    // An avatar: its only reference is the avatar's.
    const image = png(`in-use ${unique()}`);
    const avatarForm = new FormData();
    avatarForm.append("file", new File([image], "a.png", { type: "image/png" }));
    const avatar = await admin.json<string>("/api/account/avatar", { method: "PUT", raw: avatarForm });
    expect(avatar.status).toBe(200);
    const avatarHash = await sha256(image);
    const refused = await admin.json<{ title: string; status: number }>(`/api/assets/${avatarHash}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe("This file is in use (as an avatar, poster, logo, attachment or writeup) and cannot be deleted");
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.cookie;
    expect((await ja.json<{ title: string }>(`/api/assets/${avatarHash}`, { method: "DELETE" })).body.title).toContain("使用中");
    expect((await new Client().fetch(`/assets/${avatarHash}/avatar`)).status).toBe(200);

    // An upload used as a challenge's attachment: the upload's reference goes, the attachment's stays.
    const bytes = text(`attached ${unique()}`);
    const [stored] = (await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: upload([bytes, "att.bin"]) })).body;
    const game = await createGame(admin);
    const challenge = await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Attached", category: "Misc", type: "StaticAttachment" } });
    const attach = await admin.json(`/api/edit/games/${game.id}/challenges/${challenge.body.id}/attachment`, { method: "POST", body: { attachmentType: "Local", fileHash: stored!.hash } });
    expect(attach.status).toBe(200);
    const released = await admin.json<{ title: string }>(`/api/assets/${stored!.hash}`, { method: "DELETE" });
    expect(released.status).toBe(200);
    expect(released.body.title).toBe("Upload removed; the file stays while something else uses it");
    expect((await db().select().from(files).where(eq(files.hash, stored!.hash)).get())!.referenceCount).toBe(1);
    expect((await admin.json(`/api/assets/${stored!.hash}`, { method: "DELETE" })).status).toBe(400);
    expect((await new Client().fetch(`/assets/${stored!.hash}/att.bin`)).status).toBe(200);
  });

  it("a file a crash left at zero references (released, not yet dropped) is served nowhere, deletable, and swept by the file list", async () => {
    const { client: admin } = await newAdmin();
    const first = text(`cut-off release ${unique()}`);
    const second = text(`cut-off release ${unique()}`);
    const stored = (await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: upload([first, "one.bin"], [second, "two.bin"]) })).body;
    const [a, b] = stored.map((f) => f.hash);
    // What a release leaves when the runtime dies between taking the last reference off and dropping the file.
    await env.DB.prepare("UPDATE files SET reference_count = 0 WHERE hash IN (?1, ?2)").bind(a, b).run();
    expect((await new Client().fetch(`/assets/${a}/one.bin`)).status).toBe(404);
    const deleted = await admin.json<{ title: string }>(`/api/assets/${a}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(await db().select().from(files).where(eq(files.hash, a!)).get()).toBeUndefined();
    expect(await env.FILES.head(blobKey(a!))).toBeNull();
    // The other goes with the admin's next look at the file list, which does not show it.
    const listed = await admin.json<{ data: { hash: string }[] }>("/api/admin/files?count=100");
    expect(listed.body.data.map((f) => f.hash)).not.toContain(b);
    let row: unknown = true;
    for (let i = 0; i < 50 && row; i++) {
      row = await db().select().from(files).where(eq(files.hash, b!)).get();
      if (row) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(row).toBeUndefined();
    expect(await env.FILES.head(blobKey(b!))).toBeNull();
  });

  it("serves each attachment under the name it was attached with, whoever uploads the same bytes later", async () => {
    const { client: admin } = await newAdmin();
    const bytes = text(`renamed copy ${unique()}`);
    const game = await createGame(admin);
    const newChallenge = async (title: string) =>
      (await admin.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title, category: "Misc", type: "StaticAttachment" } })).body.id;
    const attachUpload = async (challengeId: number, name: string) => {
      const [stored] = (await admin.json<{ hash: string; name: string }[]>(`/api/assets?filename=${name}`, { method: "POST", raw: upload([bytes, "tmp.bin"]) })).body;
      expect(stored!.name).toBe(name);
      const r = await admin.json(`/api/edit/games/${game.id}/challenges/${challengeId}/attachment`, { method: "POST", body: { attachmentType: "Local", fileHash: stored!.hash } });
      expect(r.status).toBe(200);
      await admin.json(`/api/assets/${stored!.hash}`, { method: "DELETE" });
    };
    const attachmentUrl = async (challengeId: number) =>
      (await admin.json<{ attachment: { url: string } | null }>(`/api/edit/games/${game.id}/challenges/${challengeId}`)).body.attachment?.url;
    const hash = await sha256(bytes);

    const hidden = await newChallenge("Hidden");
    await attachUpload(hidden, "hidden-secret.txt");
    expect(await attachmentUrl(hidden)).toBe(`/assets/${hash}/hidden-secret.txt`);
    // The same bytes for another challenge under another name: each keeps its own.
    const other = await newChallenge("Other");
    await attachUpload(other, "public.txt");
    expect(await attachmentUrl(other)).toBe(`/assets/${hash}/public.txt`);
    expect(await attachmentUrl(hidden)).toBe(`/assets/${hash}/hidden-secret.txt`);
    // An organiser replacing the attachment with a renamed copy serves the new name.
    await attachUpload(hidden, "renamed.txt");
    expect(await attachmentUrl(hidden)).toBe(`/assets/${hash}/renamed.txt`);
    expect(await attachmentUrl(other)).toBe(`/assets/${hash}/public.txt`);
  });

  it("decodes the escapes browsers put in multipart file names (%22, %0D, %0A)", async () => {
    const { client: admin } = await newAdmin();
    const content = `quoted ${unique()}`;
    // As a browser's form sends `say "hi"\r\n.txt` (HTML spec: `"`, CR and LF escaped, nothing else).
    const body = [
      "--b0undary",
      'Content-Disposition: form-data; name="files"; filename="say %22hi%22%0D%0A 100%.txt"',
      "Content-Type: text/plain",
      "",
      content,
      "--b0undary--",
      "",
    ].join("\r\n");
    const r = await admin.json<{ hash: string; name: string }[]>("/api/assets", {
      method: "POST",
      raw: body,
      headers: { "content-type": "multipart/form-data; boundary=b0undary" },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([{ hash: await sha256(text(content)), name: 'say "hi" 100%.txt' }]);
  });

  it("uses the filename query for a single file", async () => {
    const { client: admin } = await newAdmin();
    const bytes = text(`named ${unique()}`);
    const r = await admin.json<{ hash: string; name: string }[]>("/api/assets?filename=challenge.zip", { method: "POST", raw: upload([bytes, "tmp"]) });
    expect(r.body).toEqual([{ hash: await sha256(bytes), name: "challenge.zip" }]);
  });

  it("refuses no file and empty files with localised messages", async () => {
    const { client: admin } = await newAdmin();
    const none = await admin.json<{ title: string; status: number }>("/api/assets", { method: "POST", raw: new FormData() });
    expect(none.status).toBe(400);
    expect(none.body.title).toBe("Attachment upload needs at least one file");
    const notMultipart = await admin.json<{ title: string }>("/api/assets", { method: "POST", body: { files: [] } });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.body.title).toBe("Attachment upload needs at least one file");
    const empty = await admin.json<{ title: string }>("/api/assets", { method: "POST", raw: upload([new Uint8Array(0), "empty.txt"]) });
    expect(empty.status).toBe(400);
    // A batch with one empty file stores nothing.
    const good = text(`good ${unique()}`);
    const mixed = await admin.json("/api/assets", { method: "POST", raw: upload([good, "g.txt"], [new Uint8Array(0), "e.txt"]) });
    expect(mixed.status).toBe(400);
    expect(await db().select().from(files).where(eq(files.hash, await sha256(good))).get()).toBeUndefined();
    const zh = new Client({ lang: "zh-CN" });
    zh.cookie = admin.cookie;
    expect((await zh.json<{ title: string }>("/api/assets", { method: "POST", raw: new FormData() })).body.title).toBe("上传附件至少需要一个文件");
  });

  it("serves a file, or answers a JSON 404, whatever escapes its download name has", async () => {
    const { client: admin } = await newAdmin();
    const form = new FormData();
    form.append("files", new File([new TextEncoder().encode(`escapes ${Date.now()}`)], "e.txt"));
    const [file] = (await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: form })).body;
    const served = await admin.fetch(`/assets/${file!.hash}/%E0%A4%A`);
    expect(served.status).toBe(200);
    expect(await served.text()).toMatch(/^escapes /);
    const unknown = await new Client({ lang: "ja-JP" }).json(`/assets/${"0".repeat(64)}/%E0%A4%A`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ title: expect.any(String), status: 404 });
  });

  it("answers 404 for an unknown or malformed hash", async () => {
    const { client: admin } = await newAdmin();
    expect((await admin.json(`/api/assets/${"0".repeat(64)}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.json("/api/assets/nothex", { method: "DELETE" })).status).toBe(404);
  });

  it("is for admins only", async () => {
    const { client: user } = await newUser();
    expect((await user.json("/api/assets", { method: "POST", raw: upload([text("x"), "x"]) })).status).toBe(403);
    expect((await user.json(`/api/assets/${"0".repeat(64)}`, { method: "DELETE" })).status).toBe(403);
    expect((await user.json("/api/admin/files")).status).toBe(403);
    expect((await new Client().json("/api/admin/files")).status).toBe(401);
  });
});
