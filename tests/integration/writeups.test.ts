import { and, eq, gt, like } from "drizzle-orm";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { files, logs, participations, trafficCaptures, writeups } from "~/.server/db/schema";
import { blobKey } from "~/.server/storage/files";
import type { AdminWriteupList, WriteupStatus } from "~/.server/services/writeups";
import { Client, db, newUser, unique } from "./helpers";
import { createGame, type ErrorBody, HOUR, join, newAdmin, teamWithMembers } from "./game-helpers";

const enc = new TextEncoder();
const INVALID = "Please check file format and size";

/** A small valid-looking PDF whose bytes differ per call (storage is shared between test files). */
const pdf = (salt = unique("pdf")) => enc.encode(`%PDF-1.4\n% ${salt}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

function form(bytes: Uint8Array<ArrayBuffer> | null, name = "writeup.pdf", type = "application/pdf"): FormData {
  const f = new FormData();
  if (bytes) f.append("file", new File([bytes], name, { type }));
  return f;
}

async function sha256(bytes: Uint8Array<ArrayBuffer>) {
  const d = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const upload = (client: Client, gameId: number, body: FormData) => client.json<ErrorBody>(`/api/game/${gameId}/writeup`, { method: "POST", raw: body });
const status = (client: Client, gameId: number) => client.json<WriteupStatus>(`/api/game/${gameId}/writeup`);

/** An admin, a game requiring writeups (running unless told) and an accepted team whose captain joined. */
async function setup(fields: Record<string, unknown> = {}) {
  const admin = await newAdmin();
  const game = await createGame(admin.client, { acceptWithoutReview: true, writeupRequired: true, writeupNote: "Explain **every** solve.", ...fields });
  const team = await teamWithMembers(1);
  const divisionId = game.divisions[0]?.id;
  const r = await join(team.captain.client, game.id, { teamId: team.team.id, ...(divisionId ? { divisionId } : {}) });
  if (r.status !== 200) throw new Error(`join failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { admin, game, ...team };
}

async function blobExists(hash: string) {
  const row = await db().select().from(files).where(eq(files.hash, hash)).get();
  return { row: row ?? null, blob: (await env.FILES.head(blobKey(hash))) !== null };
}

async function teamWriteups(gameId: number, teamId: number) {
  return db()
    .select({ w: writeups })
    .from(writeups)
    .innerJoin(participations, eq(participations.id, writeups.participationId))
    .where(and(eq(participations.gameId, gameId), eq(participations.teamId, teamId)))
    .all();
}

/** Reads a ustar/pax archive (the test's own reader, independent of the writer). */
function parseTar(bytes: Uint8Array): { name: string; type: string; body: Uint8Array }[] {
  const dec = new TextDecoder();
  const out: { name: string; type: string; body: Uint8Array }[] = [];
  let offset = 0;
  let paxPath: string | null = null;
  while (offset + 512 <= bytes.length) {
    const block = bytes.subarray(offset, offset + 512);
    if (block.every((b) => b === 0)) break;
    const field = (start: number, len: number) => dec.decode(block.subarray(start, start + len)).replace(/\0.*$/s, "");
    expect(field(257, 6)).toBe("ustar");
    const size = parseInt(field(124, 12), 8);
    const type = String.fromCharCode(block[156]!);
    const body = bytes.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      paxPath = /\d+ path=(.*)\n/.exec(dec.decode(body))?.[1] ?? null;
      continue;
    }
    out.push({ name: paxPath ?? field(0, 100), type, body });
    paxPath = null;
  }
  return out;
}

describe("GET and POST /api/game/{id}/writeup", () => {
  it("shows the instruction and deadline, accepts a PDF, names it by game, team and UTC time, and logs it", async () => {
    const { game, team, captain } = await setup();
    const before = await status(captain.client, game.id);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ submitted: false, name: "#", fileSize: 0, note: "Explain **every** solve.", deadline: game.writeupDeadline, uploadTime: null, url: null });

    const since = Date.now();
    const bytes = pdf();
    const r = await upload(captain.client, game.id, form(bytes));
    expect(r.status).toBe(200);
    expect(r.body.title).toBe("Writeup uploaded");

    const after = (await status(captain.client, game.id)).body;
    expect(after.submitted).toBe(true);
    expect(after.fileSize).toBe(bytes.length);
    expect(after.name).toMatch(new RegExp(`^Writeup-${game.id}-${team.id}-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.pdf$`));
    expect(after.uploadTime).toBeGreaterThanOrEqual(since);
    const hash = await sha256(bytes);
    expect(after.url).toBe(`/assets/${hash}/${after.name}`);
    const served = await captain.client.fetch(after.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("application/pdf");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    const deadline = Date.now() + 3000;
    let logged = false;
    while (!logged && Date.now() < deadline) {
      const rows = await db().select().from(logs).where(and(gt(logs.time, since - 1), like(logs.message, `Team #${team.id} uploaded the writeup of game #${game.id}%`))).all();
      logged = rows.length === 1 && rows[0]!.userName === captain.userName;
      if (!logged) await new Promise((res) => setTimeout(res, 25));
    }
    expect(logged).toBe(true);
  });

  it("checks the content, the name, the type and the size of a PDF (localised)", async () => {
    const { game, captain } = await setup();
    const cases: [string, FormData][] = [
      ["PNG renamed to .pdf", form(PNG.slice(), "fake.pdf", "application/pdf")],
      ["PDF named .png", form(pdf(), "writeup.png", "application/pdf")],
      ["PDF sent as image/png", form(pdf(), "writeup.pdf", "image/png")],
      ["empty file", form(new Uint8Array(0), "writeup.pdf")],
      ["no file", form(null)],
      ["text starting like a PDF but not one", form(enc.encode("%PD hello"), "writeup.pdf")],
    ];
    for (const [label, body] of cases) {
      const r = await upload(captain.client, game.id, body);
      expect({ label, status: r.status, title: r.body.title }).toEqual({ label, status: 400, title: INVALID });
    }
    expect((await status(captain.client, game.id)).body.submitted).toBe(false);

    const ja = await captain.client.json<ErrorBody>(`/api/game/${game.id}/writeup`, { method: "POST", raw: form(PNG.slice(), "fake.pdf"), headers: { "accept-language": "ja-JP" } });
    expect(ja.status).toBe(400);
    expect(ja.body.title).not.toBe(INVALID);
  });

  it("refuses a file over 20 MB and keeps the previous writeup", async () => {
    const { game, captain } = await setup();
    const first = pdf();
    expect((await upload(captain.client, game.id, form(first))).status).toBe(200);
    const kept = (await status(captain.client, game.id)).body;

    const big = new Uint8Array(20 * 1024 * 1024 + 1);
    big.set(enc.encode("%PDF-1.7\n"));
    const r = await upload(captain.client, game.id, form(big));
    expect(r.status).toBe(400);
    expect(r.body.title).toBe(INVALID);
    const exact = new Uint8Array(20 * 1024 * 1024);
    exact.set(enc.encode(`%PDF-1.7\n${unique("max")}`));

    expect((await status(captain.client, game.id)).body).toEqual(kept);
    expect(await blobExists(await sha256(first))).toMatchObject({ blob: true, row: { referenceCount: 1 } });

    // Exactly 20 MB is still accepted.
    expect((await upload(captain.client, game.id, form(exact))).status).toBe(200);
    expect((await status(captain.client, game.id)).body.fileSize).toBe(20 * 1024 * 1024);
  });

  it("refuses uploads when the game does not require writeups", async () => {
    const { game, captain } = await setup({ writeupRequired: false });
    const r = await upload(captain.client, game.id, form(pdf()));
    expect(r.status).toBe(400);
    expect(r.body.title).toBe("This game does not require writeups");
    expect((await status(captain.client, game.id)).status).toBe(200);
  });

  it("accepts uploads after the end until the deadline, then refuses them", async () => {
    const now = Date.now();
    const open = await setup({ start: now - 3 * HOUR, end: now - HOUR, writeupDeadline: now + HOUR });
    expect((await upload(open.captain.client, open.game.id, form(pdf()))).status).toBe(200);

    const closed = await setup({ start: now - 3 * HOUR, end: now - 2 * HOUR, writeupDeadline: now - HOUR });
    const r = await upload(closed.captain.client, closed.game.id, form(pdf()));
    expect(r.status).toBe(400);
    expect(r.body.title).toBe("The deadline for writeup submission has passed");
    // The state stays readable after the deadline.
    expect((await status(closed.captain.client, closed.game.id)).body).toMatchObject({ submitted: false, deadline: now - HOUR });
  });

  it("refuses a game that has not started yet", async () => {
    const now = Date.now();
    const { game, captain } = await setup({ start: now + HOUR, end: now + 2 * HOUR });
    const r = await upload(captain.client, game.id, form(pdf()));
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(10001);
  });

  it("replaces the old writeup: one row, the old blob released, the new one kept", async () => {
    const { game, team, captain } = await setup();
    const a = pdf();
    const b = pdf();
    expect((await upload(captain.client, game.id, form(a))).status).toBe(200);
    expect((await upload(captain.client, game.id, form(b))).status).toBe(200);
    const rows = await teamWriteups(game.id, team.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.w.fileHash).toBe(await sha256(b));
    expect(await blobExists(await sha256(a))).toEqual({ row: null, blob: false });
    expect(await blobExists(await sha256(b))).toMatchObject({ blob: true, row: { referenceCount: 1 } });

    // The same bytes again keep exactly one reference.
    expect((await upload(captain.client, game.id, form(b))).status).toBe(200);
    expect(await blobExists(await sha256(b))).toMatchObject({ blob: true, row: { referenceCount: 1 } });
  });

  it("releases the writeup file when a Rejected team leaves the game", async () => {
    const { admin, game, team, captain } = await setup();
    const a = pdf();
    expect((await upload(captain.client, game.id, form(a))).status).toBe(200);
    const [row] = await teamWriteups(game.id, team.id);
    expect((await admin.client.json(`/api/admin/participation/${row!.w.participationId}/Rejected`, { method: "PUT" })).status).toBe(200);
    expect((await captain.client.json(`/api/game/${game.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await teamWriteups(game.id, team.id)).toHaveLength(0);
    expect(await blobExists(await sha256(a))).toEqual({ row: null, blob: false });
  });

  it("releases a team's writeup and removes its traffic captures when the team is deleted (admin) or disbanded (captain)", async () => {
    const { admin, game, team, captain } = await setup();
    const other = await teamWithMembers(0);
    expect((await join(other.captain.client, game.id, { teamId: other.team.id, ...(game.divisions[0] ? { divisionId: game.divisions[0].id } : {}) })).status).toBe(200);
    const challenge = await admin.client.json<{ id: number }>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: unique("c"), category: "Misc", type: "StaticAttachment" } });
    expect(challenge.status).toBe(200);
    const kept = pdf();
    const stored: { hash: string; key: string; teamId: number }[] = [];
    for (const t of [{ team, client: captain.client }, { team: other.team, client: other.captain.client }]) {
      const bytes = pdf();
      expect((await upload(t.client, game.id, form(bytes))).status).toBe(200);
      const [row] = await teamWriteups(game.id, t.team.id);
      const fileName = `${unique("cap").replace(/[^0-9a-z]/gi, "").slice(0, 12)}-1.pcap`;
      const key = `capture/${challenge.body.id}/${row!.w.participationId}/${fileName}`;
      await env.FILES.put(key, enc.encode("pcap"));
      await db().insert(trafficCaptures).values({ challengeId: challenge.body.id, participationId: row!.w.participationId, r2Key: key, fileName, size: 4, rawSize: 4, createdAt: Date.now() }).run();
      stored.push({ hash: await sha256(bytes), key, teamId: t.team.id });
    }
    // A replaced writeup is released at once; the current one is what the deletion releases.
    expect((await upload(captain.client, game.id, form(kept))).status).toBe(200);
    const replaced = stored[0]!;
    stored[0] = { ...replaced, hash: await sha256(kept) };
    expect(await blobExists(replaced.hash)).toEqual({ row: null, blob: false });

    expect((await admin.client.json(`/api/admin/teams/${other.team.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await blobExists(stored[1]!.hash)).toEqual({ row: null, blob: false });
    expect(await env.FILES.head(stored[1]!.key)).toBeNull();
    // The first team's files are untouched by the other team's deletion.
    expect(await blobExists(stored[0]!.hash)).toMatchObject({ blob: true, row: { referenceCount: 1 } });
    expect(await env.FILES.head(stored[0]!.key)).not.toBeNull();

    // A captain disbands a team without results: here the team was rejected after uploading.
    const [mine] = await teamWriteups(game.id, team.id);
    expect((await admin.client.json(`/api/admin/participation/${mine!.w.participationId}/Rejected`, { method: "PUT" })).status).toBe(200);
    const disband = await captain.client.json(`/api/team/${team.id}`, { method: "DELETE" });
    expect(disband.status, JSON.stringify(disband.body)).toBe(200);
    expect(await blobExists(stored[0]!.hash)).toEqual({ row: null, blob: false });
    expect(await env.FILES.head(stored[0]!.key)).toBeNull();
  });

  it("refuses outsiders: anonymous 401, non-members, unregistered members and pending teams 403, unknown games 404", async () => {
    const { admin, game, members } = await setup();
    expect((await upload(new Client(), game.id, form(pdf()))).status).toBe(401);
    const stranger = await newUser();
    expect((await upload(stranger.client, game.id, form(pdf()))).status).toBe(403);
    expect((await status(stranger.client, game.id)).status).toBe(403);
    // A team member who did not join the game with the team is not a player.
    expect((await upload(members[0]!.client, game.id, form(pdf()))).status).toBe(403);
    // The admin is not a player either.
    expect((await upload(admin.client, game.id, form(pdf()))).status).toBe(403);

    const reviewed = await createGame(admin.client, { writeupRequired: true });
    const pending = await teamWithMembers();
    expect((await join(pending.captain.client, reviewed.id, { teamId: pending.team.id })).status).toBe(200);
    const refused = await upload(pending.captain.client, reviewed.id, form(pdf()));
    expect(refused.status).toBe(403);

    expect((await upload(stranger.client, 999_999_999, form(pdf()))).status).toBe(404);
  });

  it("tells a suspended team it has been banned", async () => {
    const { admin, game, captain } = await setup();
    const p = await db().select().from(participations).where(eq(participations.gameId, game.id)).get();
    expect((await admin.client.json(`/api/admin/participation/${p!.id}/Suspended`, { method: "PUT", body: {} })).status).toBe(200);
    const r = await upload(captain.client, game.id, form(pdf()));
    expect(r.status).toBe(403);
    expect(r.body.title).toBe("You have been banned");
  });
});

describe("admin writeups", () => {
  async function twoTeams() {
    const base = await setup({ divisions: [{ name: "Open" }, { name: "Student" }] });
    const other = await teamWithMembers();
    const divisionId = base.game.divisions[1]!.id;
    expect((await join(other.captain.client, base.game.id, { teamId: other.team.id, divisionId })).status).toBe(200);
    return { ...base, other };
  }

  it("lists teams with and without a writeup, with division, time and size; admins only", async () => {
    const { admin, game, team, captain, other } = await twoTeams();
    const bytes = pdf();
    expect((await upload(captain.client, game.id, form(bytes))).status).toBe(200);

    const r = await admin.client.json<AdminWriteupList>(`/api/admin/writeups/${game.id}`);
    expect(r.status).toBe(200);
    expect(r.body.divisions).toEqual(Object.fromEntries(game.divisions.map((d) => [String(d.id), d.name])));
    expect(r.body.writeups).toHaveLength(1);
    const w = r.body.writeups[0]!;
    expect(w.team).toEqual({ id: team.id, name: team.name, bio: team.bio, avatar: null, locked: true });
    expect(w.team).not.toHaveProperty("members");
    expect(w).toMatchObject({ fileSize: bytes.length, url: `/assets/${await sha256(bytes)}/${w.fileName}` });
    expect(typeof w.uploadTimeUtc).toBe("number");
    expect(r.body.unsubmitted).toEqual([{ id: expect.any(Number), team: expect.objectContaining({ id: other.team.id, name: other.team.name }), divisionId: game.divisions[1]!.id }]);

    expect((await captain.client.json(`/api/admin/writeups/${game.id}`)).status).toBe(403);
    expect((await admin.client.json(`/api/admin/writeups/999999999`)).status).toBe(404);
    expect((await admin.client.fetch(`/api/admin/writeups/999999999/all`)).status).toBe(404);
  });

  it("downloads every writeup as a .tar.gz whose entries carry the team names", async () => {
    const { admin, game, team, captain, other } = await twoTeams();
    const a = pdf();
    const b = enc.encode(`%PDF-1.7\n${"x".repeat(5000)}${unique()}`);
    expect((await upload(captain.client, game.id, form(a))).status).toBe(200);
    expect((await upload(other.captain.client, game.id, form(b))).status).toBe(200);
    const list = (await admin.client.json<AdminWriteupList>(`/api/admin/writeups/${game.id}`)).body;

    const res = await admin.client.fetch(`/api/admin/writeups/${game.id}/all`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/gzip");
    const disposition = res.headers.get("content-disposition") ?? "";
    const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? "";
    const folder = `Writeups-${game.title}-`;
    expect(name).toMatch(new RegExp(`^${folder}\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.tar\\.gz$`));
    const base = name.replace(/\.tar\.gz$/, "");

    const tar = new Uint8Array(await new Response(res.body!.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)).arrayBuffer());
    const entries = parseTar(tar);
    const byTeam = new Map(list.writeups.map((w) => [w.team.id, w.fileName]));
    expect(entries.map((e) => e.name).sort()).toEqual(
      [`${base}/`, `${base}/${team.name}-${byTeam.get(team.id)}`, `${base}/${other.team.name}-${byTeam.get(other.team.id)}`].sort(),
    );
    expect(entries.find((e) => e.name.startsWith(`${base}/${team.name}-`))!.body).toEqual(a);
    expect(entries.find((e) => e.name.startsWith(`${base}/${other.team.name}-`))!.body).toEqual(b);

    expect((await captain.client.fetch(`/api/admin/writeups/${game.id}/all`)).status).toBe(403);
  });

  it("an archive of a game without writeups holds only its folder", async () => {
    const { admin, game } = await setup();
    const res = await admin.client.fetch(`/api/admin/writeups/${game.id}/all`);
    expect(res.status).toBe(200);
    const tar = new Uint8Array(await new Response(res.body!.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>)).arrayBuffer());
    const entries = parseTar(tar);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.type).toBe("5");
  });

  it("DELETE edit/games/{id}/writeups removes every writeup and releases the files", async () => {
    const { admin, game, captain, other } = await twoTeams();
    const a = pdf();
    const b = pdf();
    expect((await upload(captain.client, game.id, form(a))).status).toBe(200);
    expect((await upload(other.captain.client, game.id, form(b))).status).toBe(200);

    expect((await captain.client.json(`/api/edit/games/${game.id}/writeups`, { method: "DELETE" })).status).toBe(403);
    const r = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/writeups`, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect(r.body.title).toBe("2 writeups deleted");

    const list = (await admin.client.json<AdminWriteupList>(`/api/admin/writeups/${game.id}`)).body;
    expect(list.writeups).toEqual([]);
    expect(list.unsubmitted).toHaveLength(2);
    expect(await blobExists(await sha256(a))).toEqual({ row: null, blob: false });
    expect(await blobExists(await sha256(b))).toEqual({ row: null, blob: false });
    expect((await status(captain.client, game.id)).body.submitted).toBe(false);
    // Teams may upload again until the deadline.
    expect((await upload(captain.client, game.id, form(pdf()))).status).toBe(200);

    expect((await admin.client.json(`/api/edit/games/999999999/writeups`, { method: "DELETE" })).status).toBe(404);
  });
});
