import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { challenges, files } from "~/.server/db/schema";
import { Client, db, newUser, unique } from "./helpers";
import { createGame, type ErrorBody, join, newAdmin, teamWithMembers } from "./game-helpers";

// Uploads that are oversize, empty, of the wrong type by content, or carry path-traversal names are
// refused or neutralised for every upload endpoint (avatars, team avatars, posters, logos, assets,
// challenge attachments, writeups).

const enc = new TextEncoder();
const MB = 1024 * 1024;
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52];
const png = (salt = unique("png")) => new Uint8Array([...PNG_HEAD, ...enc.encode(salt)]);
const pdf = (salt = unique("pdf")) => enc.encode(`%PDF-1.4\n% ${salt}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
/** `size` bytes starting with `head`. */
function sized(head: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  out.set(head.subarray(0, size));
  return out;
}

/** Whether a name holds a control character (NUL, CR, LF…). */
const hasControl = (s: string) => [...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);

/** Names a hostile client might send. */
const HOSTILE_NAMES = [
  "../../x.png",
  "..\\..\\x.png",
  "/etc/passwd",
  "C:\\Windows\\system32\\x.png",
  "a\u0000b.png",
  "..",
  `${"a".repeat(1000)}.png`,
  "%2e%2e%2fx.png",
  "x.png\r\nContent-Type: text/html",
];

function form(field: string, bytes: Uint8Array<ArrayBuffer> | null, name = "a.png", type = "image/png"): FormData {
  const f = new FormData();
  if (bytes) f.append(field, new File([bytes], name, { type }));
  return f;
}

const WRONG_CONTENT: { what: string; bytes: Uint8Array<ArrayBuffer>; name: string; type: string }[] = [
  { what: "HTML named .png", bytes: enc.encode("<html><script>alert(1)</script></html>"), name: "a.png", type: "image/png" },
  { what: "SVG with script", bytes: enc.encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), name: "a.svg", type: "image/svg+xml" },
  { what: "PDF as image", bytes: pdf(), name: "a.png", type: "image/png" },
  { what: "ELF binary", bytes: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]), name: "a.jpg", type: "image/jpeg" },
];

/** Every upload that must be an image, with the client allowed to use it and where the result shows. */
async function imageTargets() {
  const admin = await newAdmin();
  const game = await createGame(admin.client);
  const { captain, team } = await teamWithMembers(0);
  const user = await newUser();
  return [
    { name: "account avatar", client: user.client, method: "PUT", path: "/api/account/avatar", field: "file" },
    { name: "team avatar", client: captain.client, method: "PUT", path: `/api/team/${team.id}/avatar`, field: "file" },
    { name: "game poster", client: admin.client, method: "PUT", path: `/api/edit/games/${game.id}/poster`, field: "file" },
    { name: "platform logo", client: admin.client, method: "POST", path: "/api/admin/config/logo", field: "file" },
  ] as const;
}

async function expectNoBlob(bytes: Uint8Array<ArrayBuffer>) {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  expect(await db().select().from(files).where(eq(files.hash, hash)).get()).toBeUndefined();
}

describe("image uploads (avatars, team avatars, posters, logos)", () => {
  it("refuse oversize, empty, missing and wrong-by-content files, and store nothing", { timeout: 60_000 }, async () => {
    for (const target of await imageTargets()) {
      const send = (body: FormData) => target.client.json<ErrorBody>(target.path, { method: target.method, raw: body });
      const oversize = sized(new Uint8Array([...PNG_HEAD, ...enc.encode(unique())]), 3 * MB + 1);
      const cases: [string, FormData][] = [
        ["oversize", form(target.field, oversize)],
        ["empty", form(target.field, new Uint8Array(0))],
        ["missing", new FormData()],
        ...WRONG_CONTENT.map((w): [string, FormData] => [w.what, form(target.field, w.bytes, w.name, w.type)]),
      ];
      for (const [what, body] of cases) {
        const r = await send(body);
        expect(r.status, `${target.name}: ${what}`).toBe(400);
        expect(r.body).toMatchObject({ status: 400, title: expect.any(String) });
      }
      await expectNoBlob(oversize);
      for (const w of WRONG_CONTENT) await expectNoBlob(w.bytes);
      // Not multipart at all.
      const raw = await target.client.json<ErrorBody>(target.path, { method: target.method, raw: "not a form", headers: { "content-type": "text/plain" } });
      expect(raw.status, `${target.name}: text body`).toBe(400);
    }
  });

  it("neutralise hostile file names: the served URL uses a fixed name, never the client's", { timeout: 60_000 }, async () => {
    for (const target of await imageTargets()) {
      for (const name of HOSTILE_NAMES.slice(0, 5)) {
        const r = await target.client.json<unknown>(target.path, { method: target.method, raw: form(target.field, png(), name) });
        // Control characters (NUL, CR LF) in the multipart file name may be refused outright; anything
        // accepted is neutralised.
        if (hasControl(name) && r.status === 400) continue;
        expect(r.status, `${target.name} ${JSON.stringify(name)}`).toBe(200);
        const url = JSON.stringify(r.body);
        expect(url).toMatch(/\/assets\/[0-9a-f]{64}\/(avatar|poster|logo)/);
        expect(url).not.toMatch(/\.\.|passwd|system32|\\u0000/);
      }
    }
  });
});

describe("POST /api/assets (admin files, challenge attachments)", () => {
  it("refuses empty and missing files; keeps only a sanitised base name", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const empty = await admin.client.json<ErrorBody>("/api/assets", { method: "POST", raw: form("files", new Uint8Array(0), "x.txt", "text/plain") });
    expect(empty.status).toBe(400);
    expect((await admin.client.json<ErrorBody>("/api/assets", { method: "POST", raw: new FormData() })).status).toBe(400);

    for (const name of HOSTILE_NAMES) {
      const bytes = enc.encode(`content ${unique()}`);
      const r = await admin.client.json<{ hash: string; name: string }[]>("/api/assets", { method: "POST", raw: form("files", bytes, name, "text/plain") });
      if (hasControl(name) && r.status === 400) continue;
      expect(r.status, JSON.stringify(name)).toBe(200);
      const stored = r.body[0]!;
      expect(stored.name.length, JSON.stringify(name)).toBeLessThanOrEqual(255);
      expect(stored.name, JSON.stringify(name)).not.toMatch(/[/\\]/);
      expect(hasControl(stored.name), JSON.stringify(name)).toBe(false);
      expect(stored.name).not.toBe("..");
      // Served by hash: the name cannot address anything else, and the download name stays a base name.
      const served = await new Client().fetch(`/assets/${stored.hash}/${encodeURIComponent(stored.name)}`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-disposition")).toMatch(/^(attachment|inline); filename="[^"/\\]*"/);
      expect(served.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await served.text()).toBe(new TextDecoder().decode(bytes));
    }
    // The name may also come from ?filename=: the same rules apply.
    const q = await admin.client.json<{ name: string }[]>(`/api/assets?filename=${encodeURIComponent("../../../etc/x.sh")}`, {
      method: "POST",
      raw: form("files", enc.encode(unique()), "a.txt", "text/plain"),
    });
    expect(q.status).toBe(200);
    expect(q.body[0]!.name).toBe("x.sh");
    // Nothing in R2 is keyed by a client's name.
    const listed = await env.FILES.list({ prefix: "uploads/" });
    for (const o of listed.objects) expect(o.key).toMatch(/^uploads\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
  });

  it("refuses an asset over 100 MB", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const chunk = new Uint8Array(MB);
    const big = new File([...Array.from({ length: 100 }, () => chunk), new Uint8Array(1)], "big.bin");
    const f = new FormData();
    f.append("files", big);
    const r = await admin.client.json<ErrorBody>("/api/assets", { method: "POST", raw: f });
    expect(r.status).toBe(400);
  });

  it("a dynamic attachment's download name is reduced to a base name", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const game = await createGame(admin.client);
    const c = await admin.client.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, {
      method: "POST",
      body: { title: unique("att"), category: "Misc", type: "DynamicAttachment" },
    });
    expect(c.status).toBe(200);
    for (const [name, expected] of [["../../x.png", "x.png"], ["..\\evil.exe", "evil.exe"], ["/etc/passwd", "passwd"], ["..", "attachment"]] as const) {
      const r = await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.body.id}`, { method: "PUT", body: { fileName: name } });
      expect(r.status, name).toBe(200);
      expect((await db().select({ f: challenges.fileName }).from(challenges).where(eq(challenges.id, c.body.id)).get())?.f).toBe(expected);
    }
    // A control character is refused by name (every JSON body is checked so), and nothing changes.
    const nul = await admin.client.json<{ title: string }>(`/api/edit/games/${game.id}/challenges/${c.body.id}`, { method: "PUT", body: { fileName: "a\u0000b.bin" } });
    expect(nul.status).toBe(400);
    expect(nul.body.title).toMatch(/contains control characters/);
    expect((await db().select({ f: challenges.fileName }).from(challenges).where(eq(challenges.id, c.body.id)).get())?.f).toBe("attachment");
  });
});

describe("POST /api/game/{id}/writeup", () => {
  it("refuses oversize, empty and non-PDF files and never uses the client's name", { timeout: 60_000 }, async () => {
    const admin = await newAdmin();
    const game = await createGame(admin.client, { acceptWithoutReview: true, writeupRequired: true });
    const { captain, team } = await teamWithMembers(0);
    const divisionId = game.divisions[0]?.id;
    expect((await join(captain.client, game.id, { teamId: team.id, ...(divisionId ? { divisionId } : {}) })).status).toBe(200);
    const send = (body: FormData) => captain.client.json<ErrorBody>(`/api/game/${game.id}/writeup`, { method: "POST", raw: body });

    const oversize = sized(pdf(), 20 * MB + 1);
    for (const [what, body] of [
      ["oversize", form("file", oversize, "w.pdf", "application/pdf")],
      ["empty", form("file", new Uint8Array(0), "w.pdf", "application/pdf")],
      ["PNG named .pdf", form("file", png(), "w.pdf", "application/pdf")],
      ["HTML named .pdf", form("file", enc.encode("<script>alert(1)</script>"), "w.pdf", "application/pdf")],
      ["PDF named .html", form("file", pdf(), "w.html", "text/html")],
      ["missing", new FormData()],
    ] as const) {
      const r = await send(body);
      expect(r.status, what).toBe(400);
    }
    await expectNoBlob(oversize);

    for (const name of ["../../x.pdf", "..\\..\\x.pdf", "/etc/x.pdf"]) {
      const r = await send(form("file", pdf(), name, "application/pdf"));
      expect(r.status, name).toBe(200);
      const status = await captain.client.json<{ url: string; fileName?: string }>(`/api/game/${game.id}/writeup`);
      expect(status.body.url).toMatch(/^\/assets\/[0-9a-f]{64}\/[^/]+$/);
      expect(decodeURIComponent(status.body.url)).not.toMatch(/\.\.|etc|\\/);
      // Shown in an iframe of the admin page: PDFs may be framed by the same origin only.
      const served = await admin.client.fetch(status.body.url);
      expect(served.headers.get("content-type")).toBe("application/pdf");
      expect(served.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'self'");
      expect(served.headers.get("x-frame-options")).toBe("SAMEORIGIN");
      await served.arrayBuffer();
    }
  });
});
