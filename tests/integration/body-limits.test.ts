import { describe, expect, it } from "vitest";
import { BODY_LIMITS } from "~/core/http/body-limit";
import { createGame, type ErrorBody, join, newAdmin, teamWithMembers } from "./game-helpers";
import { Client, newUser, PASSWORD, unique } from "./helpers";

// Request body caps (app/core/http/body-limit.ts, workers/api/body-limit.ts): a body over its route's cap
// is refused with 413 before it is read — at once when Content-Length says so, and after at most the cap
// when it comes chunked — so an anonymous 300 MB body no longer takes workerd's memory with it.

const KiB = 1024;
const MiB = 1024 * KiB;
const enc = new TextEncoder();

/**
 * A body stream of `total` bytes in 64 KiB chunks that counts what was pulled from it: with no
 * Content-Length it is sent chunked; `declare` sends a Content-Length of its own instead.
 */
function counted(total: number, fill = 0x20) {
  const chunk = new Uint8Array(64 * KiB).fill(fill);
  const seen = { bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.bytes >= total) return controller.close();
      const part = chunk.subarray(0, Math.min(chunk.length, total - seen.bytes));
      seen.bytes += part.length;
      controller.enqueue(part);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

/** A JSON text of exactly `size` bytes: `value` padded with trailing spaces (which JSON ignores). */
function paddedJson(value: unknown, size: number): string {
  const text = JSON.stringify(value);
  if (text.length > size) throw new Error("value longer than the size asked for");
  return text + " ".repeat(size - text.length);
}

const json = { "content-type": "application/json" };

describe("request body limits: public JSON routes", () => {
  it("refuses a declared length over the cap at once, localised, without reading the body", async () => {
    // 300 MB declared, the audit's case: the stream behind it is never pulled beyond what the runtime buffers.
    for (const [lang, title] of [
      ["en-US", "The request body is larger than 64 KB"],
      ["ja-JP", "リクエスト本文が大きすぎます（上限 64 KB）"],
      ["zh-CN", "请求体过大（上限 64 KB）"],
    ] as const) {
      const { stream, seen } = counted(300 * MiB);
      const r = await new Client({ lang }).json<ErrorBody>("/api/team/verify", { method: "POST", raw: stream, headers: { ...json, "content-length": String(300 * MiB) } });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ title, status: 413 });
      expect(seen.bytes).toBeLessThan(4 * MiB);
    }
  });

  it("sends the refusal whole at once, holds the connection a moment with the rest unread, then cancels it", async () => {
    const { stream, seen } = counted(300 * MiB);
    const res = await new Client().fetch("/api/account/register", { method: "POST", raw: stream, headers: { ...json, "content-length": String(300 * MiB) } });
    // The whole answer comes while the connection is still held (over HTTP it carries its Content-Length,
    // so clients need not wait for the close); the unread rest is cancelled after the hold.
    expect(res.status).toBe(413);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(JSON.parse(new TextDecoder().decode(first.value))).toEqual({ title: "The request body is larger than 64 KB", status: 413 });
    expect(seen.cancelled).toBe(false);
    expect((await reader.read()).done).toBe(true);
    await expect.poll(() => seen.cancelled).toBe(true);
    expect(seen.bytes).toBeLessThan(4 * MiB);
  });

  it("refuses a real body one byte over the cap, and serves one exactly at the cap", async () => {
    const { client, userName } = await newUser();
    const login = { userName, password: PASSWORD };
    const over = await new Client({ lang: "ja-JP" }).json<ErrorBody>("/api/account/login", { method: "POST", raw: paddedJson(login, BODY_LIMITS.json + 1), headers: json });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ title: "リクエスト本文が大きすぎます（上限 64 KB）", status: 413 });
    const at = await client.json("/api/account/login", { method: "POST", raw: paddedJson(login, BODY_LIMITS.json), headers: json });
    expect(at.status).toBe(200);
  });

  it("counts a chunked body, stops just past the cap and cancels the rest", async () => {
    const { stream, seen } = counted(64 * MiB);
    const r = await new Client({ lang: "ja-JP" }).json<ErrorBody>("/api/account/login", { method: "POST", raw: stream, headers: json });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ title: "リクエスト本文が大きすぎます（上限 64 KB）", status: 413 });
    // Read up to the cap and a little past it (the runtime's own buffering), never the 64 MB; the rest is cancelled.
    expect(seen.bytes).toBeLessThan(4 * MiB);
    await expect.poll(() => seen.cancelled).toBe(true);
  });

  it("serves a chunked body within the cap as if it had been declared", async () => {
    const { client, userName } = await newUser();
    const text = enc.encode(paddedJson({ userName, password: PASSWORD }, BODY_LIMITS.json));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 1000) controller.enqueue(text.slice(i, i + 1000));
        controller.close();
      },
    });
    const r = await client.json("/api/account/login", { method: "POST", raw: stream, headers: json });
    expect(r.status).toBe(200);
  });

  it("applies the cap to a route that reads no body, and outside /api", async () => {
    const { client } = await newUser();
    const logout = await client.json<ErrorBody>("/api/account/logout", { method: "POST", raw: "x".repeat(BODY_LIMITS.json + 1) });
    expect(logout.status).toBe(413);
    const page = await new Client({ lang: "zh-CN" }).json<ErrorBody>("/account/login", { method: "POST", raw: "a=".padEnd(BODY_LIMITS.json + 1, "b"), headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(page.status).toBe(413);
    expect(page.body).toEqual({ title: "请求体过大（上限 64 KB）", status: 413 });
  });
});

describe("request body limits: admin JSON", () => {
  it("takes the largest legitimate editor body (1,000 flags with 2,048-character links, \\u-escaped) and refuses past 4 MB", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const game = await createGame(admin.client);
    const created = await admin.client.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "Many", category: "Misc", type: "DynamicAttachment" } });
    const flags = Array.from({ length: 1000 }, (_, i) => ({ flag: `${i}${"旗".repeat(120)}`, attachmentType: "Remote", remoteUrl: `https://example.com/${i}/${"a".repeat(2000)}` }));
    // As an ensure_ascii JSON writer (Python's json.dumps) sends it: every non-ASCII character as \uXXXX.
    const escaped = JSON.stringify(flags).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
    expect(escaped.length).toBeGreaterThan(2.5 * MiB);
    const path = `/api/edit/games/${game.id}/challenges/${created.body.id}/flags`;
    const ok = await admin.client.json(path, { method: "POST", raw: escaped, headers: json });
    expect(ok.status).toBe(200);
    const over = await admin.client.json<ErrorBody>(path, { method: "POST", raw: paddedJson([{ flag: "x" }], BODY_LIMITS.largeJson + 1), headers: json });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ title: "The request body is larger than 4 MB", status: 413 });
  });

  it("still refuses an anonymous caller first when the body is within the cap", async () => {
    const r = await new Client().json<ErrorBody>("/api/admin/config", { method: "PUT", raw: paddedJson({}, 2 * MiB), headers: json });
    expect(r.status).toBe(401);
  });
});

describe("request body limits: uploads", () => {
  const pdf = () => enc.encode(`%PDF-1.4\n% ${unique("pdf")}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
  function form(bytes: Uint8Array<ArrayBuffer>, size: number, name = "w.pdf", type = "application/pdf"): FormData {
    const padded = new Uint8Array(size);
    padded.set(bytes);
    const f = new FormData();
    f.append("file", new File([padded], name, { type }));
    return f;
  }

  async function writeupSetup(lang = "en-US") {
    const admin = await newAdmin();
    const game = await createGame(admin.client, { acceptWithoutReview: true, writeupRequired: true });
    const { captain, team } = await teamWithMembers(0);
    const divisionId = game.divisions[0]?.id;
    expect((await join(captain.client, game.id, { teamId: team.id, ...(divisionId ? { divisionId } : {}) })).status).toBe(200);
    const client = new Client({ lang });
    client.cookie = captain.client.cookie;
    return { client, path: `/api/game/${game.id}/writeup` };
  }

  it("refuses a writeup over 20 MB with 413 naming the file rule, localised", { timeout: 60_000 }, async () => {
    const { client, path } = await writeupSetup("ja-JP");
    const r = await client.json<ErrorBody>(path, { method: "POST", raw: form(pdf(), 21 * MiB) });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ title: "アップロードが大きすぎます（上限 20 MB）", status: 413 });
    // A file just over the rule but within the framing allowance meets the file rule's own 400.
    const en = new Client({ lang: "en-US" });
    en.cookie = client.cookie;
    expect((await en.json<ErrorBody>(path, { method: "POST", raw: form(pdf(), 20 * MiB + 1) })).body).toEqual({ title: "Please check file format and size", status: 400 });
  });

  it("counts a chunked upload: refused past the cap, stored within it", { timeout: 60_000 }, async () => {
    const { client, path } = await writeupSetup();
    const chunked = async (f: FormData) => {
      const serialised = new Response(f);
      return client.json<ErrorBody>(path, { method: "POST", raw: serialised.body!, headers: { "content-type": serialised.headers.get("content-type")! } });
    };
    const over = await chunked(form(pdf(), 21 * MiB));
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ title: "The upload is larger than 20 MB", status: 413 });
    const fine = await chunked(form(pdf(), 1 * MiB));
    expect(fine.status).toBe(200);
  });

  it("refuses an avatar over its image cap before the file rule, and a declared 300 MB one at once", async () => {
    const { client } = await newUser({ lang: "zh-CN" });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const r = await client.json<ErrorBody>("/api/account/avatar", { method: "PUT", raw: form(png, 4 * MiB, "a.png", "image/png") });
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ title: "上传内容过大（上限 3 MB）", status: 413 });
    const { stream, seen } = counted(300 * MiB);
    const declared = await client.json<ErrorBody>("/api/account/avatar", { method: "PUT", raw: stream, headers: { "content-type": "multipart/form-data; boundary=x", "content-length": String(300 * MiB) } });
    expect(declared.status).toBe(413);
    expect(seen.bytes).toBeLessThan(4 * MiB);
  });
});
