import { and, eq, gt, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { attachments, challenges, files, firstSolves, flags, gameInstances, games, logs, participations, submissions } from "~/.server/db/schema";
import { GamePermission } from "~/core/enums";
import { computeGameSalt, computeTeamHash } from "~/core/flags/team-hash";
import type { ChallengeDetail, ChallengeEditDetail, ChallengeEditInfo } from "~/core/schemas/challenge";
import type { GameInfo, GameNoticeInfo } from "~/core/schemas/game";
import { createGame, type ErrorBody, HOUR, join, newAdmin, teamWithMembers, updateGame } from "./game-helpers";
import { Client, db, unique } from "./helpers";

type Admin = Awaited<ReturnType<typeof newAdmin>>;

async function newChallenge(admin: Client, gameId: number, type: string, fields: Record<string, unknown> = {}): Promise<ChallengeEditDetail> {
  const r = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type } });
  if (r.status !== 200) throw new Error(`create challenge failed: ${r.status} ${JSON.stringify(r.body)}`);
  if (Object.keys(fields).length === 0) return r.body;
  const u = await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${r.body.id}`, { method: "PUT", body: fields });
  if (u.status !== 200) throw new Error(`update challenge failed: ${u.status} ${JSON.stringify(u.body)}`);
  return u.body;
}

const put = (admin: Client, gameId: number, cid: number, body: Record<string, unknown>) =>
  admin.json<ChallengeEditDetail & ErrorBody>(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body });

const addFlags = (admin: Client, gameId: number, cid: number, body: unknown) =>
  admin.json<ErrorBody>(`/api/edit/games/${gameId}/challenges/${cid}/flags`, { method: "POST", body });

const getEdit = async (admin: Client, gameId: number, cid: number) => (await admin.json<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${cid}`)).body;

/** An enabled static challenge with one flag. */
async function enabledStatic(admin: Client, gameId: number) {
  const c = await newChallenge(admin, gameId, "StaticAttachment");
  expect((await addFlags(admin, gameId, c.id, [{ flag: "flag{static}" }])).status).toBe(200);
  expect((await put(admin, gameId, c.id, { isEnabled: true })).status).toBe(200);
  return c;
}

/** A captain whose new team is Accepted in the game (the game accepts without review). */
async function acceptedPlayer(gameId: number, body: Record<string, unknown> = {}) {
  const { captain, team } = await teamWithMembers(0);
  const r = await join(captain.client, gameId, { teamId: team.id, ...body });
  if (r.status !== 200) throw new Error(`join failed: ${r.status} ${JSON.stringify(r.body)}`);
  return { client: captain.client, team };
}

async function upload(admin: Client, name: string, content: string): Promise<string> {
  const form = new FormData();
  form.append("files", new File([new TextEncoder().encode(content)], name));
  const r = await admin.json<{ hash: string }[]>("/api/assets", { method: "POST", raw: form });
  if (r.status !== 200) throw new Error(`upload failed: ${r.status}`);
  return r.body[0]!.hash;
}

const open = (client: Client, gameId: number, cid: number) => client.json<ChallengeDetail & ErrorBody>(`/api/game/${gameId}/challenges/${cid}`);

async function setup(fields: Record<string, unknown> = {}): Promise<{ admin: Admin; game: GameInfo }> {
  const admin = await newAdmin();
  const game = await createGame(admin.client, { acceptWithoutReview: true, ...fields });
  return { admin, game };
}

describe("challenge editing (api.md §9)", () => {
  it("is for admins only", async () => {
    const { game } = await setup();
    const { client } = await acceptedPlayer(game.id);
    expect((await client.json(`/api/edit/games/${game.id}/challenges`)).status).toBe(403);
  });

  it("creates disabled challenges, validates input, and never changes the type", async () => {
    const { admin, game } = await setup();
    const bad = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "  ", category: "Web", type: "StaticAttachment" } });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toBe("The title must be 1 to 64 characters");
    const noType = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges`, { method: "POST", body: { title: "x", category: "Web", type: "Quiz" } });
    expect(noType.body.title).toBe("Please choose a challenge type");

    const c = await newChallenge(admin.client, game.id, "StaticAttachment");
    expect(c).toMatchObject({ isEnabled: false, type: "StaticAttachment", originalScore: 1000, minScoreRate: 0.25, difficulty: 5, fileName: "attachment", flags: [], attachment: null });
    const change = await put(admin.client, game.id, c.id, { type: "DynamicContainer", title: "renamed" });
    expect(change.status).toBe(400);
    expect(change.body.title).toBe("The challenge type cannot be changed after creation");
    const after = await getEdit(admin.client, game.id, c.id);
    expect(after.type).toBe("StaticAttachment");
    expect(after.title).toBe(c.title);
    // What was read can be saved back whole, its own type included (a tool's read → change → save).
    const roundTrip = await put(admin.client, game.id, c.id, { ...after, content: "read, changed, saved" });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body).toMatchObject({ type: "StaticAttachment", content: "read, changed, saved", title: c.title });

    const ok = await put(admin.client, game.id, c.id, { title: "renamed", hints: [" one ", "", "two"], deadlineUtc: Date.now() + HOUR, cpuCount: 5, enableTrafficCapture: true });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ title: "renamed", hints: ["one", "two"], cpuCount: 5, enableTrafficCapture: false });
    expect(ok.body.deadlineUtc).toBeGreaterThan(0);
    expect((await put(admin.client, game.id, c.id, { deadlineUtc: 0 })).body.deadlineUtc).toBeNull();
    expect((await put(admin.client, game.id, c.id, { memoryLimit: 8 })).status).toBe(400);

    const list = await admin.client.json<ChallengeEditInfo[]>(`/api/edit/games/${game.id}/challenges`);
    expect(list.body).toEqual([{ id: c.id, title: "renamed", category: "Web", type: "StaticAttachment", isEnabled: false, score: 1000, minScore: 250, originalScore: 1000, deadlineUtc: null, acceptedCount: 0 }]);

    const other = await createGame(admin.client);
    expect((await admin.client.json(`/api/edit/games/${other.id}/challenges/${c.id}`)).status).toBe(404);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`)).status).toBe(404);
  });

  it("keeps static flags unique within a challenge, 1–127 characters, and refuses them for DynamicContainer", async () => {
    const { admin, game } = await setup();
    const a = await newChallenge(admin.client, game.id, "StaticAttachment");
    const b = await newChallenge(admin.client, game.id, "StaticContainer");
    expect((await addFlags(admin.client, game.id, a.id, [{ flag: " flag{one} " }, { flag: "flag{two}" }])).status).toBe(200);
    const dup = await addFlags(admin.client, game.id, a.id, [{ flag: "flag{three}" }, { flag: "flag{one}" }]);
    expect(dup.status).toBe(400);
    expect(dup.body.title).toBe("The flag “flag{one}” already exists in the challenge");
    const twice = await addFlags(admin.client, game.id, a.id, [{ flag: "x" }, { flag: "y" }, { flag: "x" }]);
    expect(twice.status).toBe(400);
    expect(twice.body.title).toBe("The flag “x” is given more than once");
    expect((await getEdit(admin.client, game.id, a.id)).flags.map((f) => f.flag)).toEqual(["flag{one}", "flag{two}"]);
    expect((await addFlags(admin.client, game.id, b.id, [{ flag: "flag{one}" }])).status).toBe(200);

    const long = await addFlags(admin.client, game.id, a.id, [{ flag: "x".repeat(128) }]);
    expect(long.body.title).toBe("Flags must be 1 to 127 characters");
    expect((await addFlags(admin.client, game.id, a.id, [{ flag: "   " }])).status).toBe(400);
    expect((await addFlags(admin.client, game.id, a.id, [])).status).toBe(400);

    const dc = await newChallenge(admin.client, game.id, "DynamicContainer");
    const refused = await addFlags(admin.client, game.id, dc.id, [{ flag: "flag{x}" }]);
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe("Flags of dynamic container challenges are generated from the flag template");

    const flagId = (await getEdit(admin.client, game.id, a.id)).flags[0]!.id;
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${b.id}/flags/${flagId}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${a.id}/flags/${flagId}`, { method: "DELETE" })).status).toBe(200);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${a.id}/flags/${flagId}`, { method: "DELETE" })).status).toBe(404);
    expect((await getEdit(admin.client, game.id, a.id)).flags.map((f) => f.flag)).toEqual(["flag{two}"]);
  });

  it("keeps the last flag of an enabled challenge: deleting it is refused until the challenge is disabled", async () => {
    const { admin, game } = await setup();
    const c = await enabledStatic(admin.client, game.id);
    const other = await enabledStatic(admin.client, game.id);
    expect((await addFlags(admin.client, game.id, other.id, [{ flag: "flag{other}" }])).status).toBe(200);
    const del = (flagId: number) => admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/flags/${flagId}`, { method: "DELETE" });
    expect((await addFlags(admin.client, game.id, c.id, [{ flag: "flag{second}" }])).status).toBe(200);
    const [first, second] = (await getEdit(admin.client, game.id, c.id)).flags;
    expect((await del(first!.id)).status).toBe(200);
    const refused = await del(second!.id);
    expect(refused.status).toBe(400);
    expect(refused.body.title).toBe("This is the last flag of an enabled challenge: disable the challenge before deleting it");
    expect((await getEdit(admin.client, game.id, c.id)).flags.map((f) => f.flag)).toEqual(["flag{second}"]);
    // Two deletes of the last two flags at once: one of them is refused, one flag stays.
    expect((await addFlags(admin.client, game.id, c.id, [{ flag: "flag{third}" }])).status).toBe(200);
    const both = (await getEdit(admin.client, game.id, c.id)).flags.map((f) => f.id);
    expect((await Promise.all(both.map(del))).map((r) => r.status).sort()).toEqual([200, 400]);
    expect((await getEdit(admin.client, game.id, c.id)).flags).toHaveLength(1);
    // An unknown flag is still not found; a disabled challenge may lose its last flag.
    expect((await del(999_999)).status).toBe(404);
    expect((await put(admin.client, game.id, c.id, { isEnabled: false })).status).toBe(200);
    const last = (await getEdit(admin.client, game.id, c.id)).flags[0]!;
    expect((await del(last.id)).status).toBe(200);
    expect((await getEdit(admin.client, game.id, c.id)).flags).toEqual([]);
    // Only the flags asked for went: the other challenge keeps both of its own.
    expect((await getEdit(admin.client, game.id, other.id)).flags.map((f) => f.flag)).toEqual(["flag{static}", "flag{other}"]);
  });

  it("adds a large remote batch of dynamic pairs in one request, all or nothing", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "DynamicAttachment");
    const pairs = Array.from({ length: 120 }, (_, i) => ({ flag: `flag{bulk_${i}}`, remoteUrl: `https://example.com/bulk/${i}` }));
    expect((await addFlags(admin.client, game.id, c.id, pairs)).status).toBe(200);
    expect((await getEdit(admin.client, game.id, c.id)).flags).toHaveLength(120);
    const clash = await addFlags(admin.client, game.id, c.id, [{ flag: "flag{new}", remoteUrl: "https://example.com/n" }, pairs[119]!]);
    expect(clash.status).toBe(400);
    expect((await getEdit(admin.client, game.id, c.id)).flags).toHaveLength(120);
  });

  it("refuses to enable a challenge without flags (Challenge_NoFlag) or a container challenge without image", async () => {
    const { admin, game } = await setup();
    const s = await newChallenge(admin.client, game.id, "StaticAttachment");
    const noFlag = await put(admin.client, game.id, s.id, { isEnabled: true });
    expect(noFlag.status).toBe(400);
    expect(noFlag.body.title).toBe("This challenge has no flag yet, so it cannot be enabled");
    expect((await getEdit(admin.client, game.id, s.id)).isEnabled).toBe(false);
    await addFlags(admin.client, game.id, s.id, [{ flag: "f" }]);
    expect((await put(admin.client, game.id, s.id, { isEnabled: true })).body.isEnabled).toBe(true);

    const sc = await newChallenge(admin.client, game.id, "StaticContainer");
    await addFlags(admin.client, game.id, sc.id, [{ flag: "f" }]);
    const noImage = await put(admin.client, game.id, sc.id, { isEnabled: true });
    expect(noImage.body.title).toBe("A container challenge needs a container image before it can be enabled");
    expect((await put(admin.client, game.id, sc.id, { isEnabled: true, containerImage: "nginx:alpine" })).status).toBe(200);

    const dc = await newChallenge(admin.client, game.id, "DynamicContainer");
    expect((await put(admin.client, game.id, dc.id, { isEnabled: true, containerImage: "busybox" })).body.isEnabled).toBe(true);
    const da = await newChallenge(admin.client, game.id, "DynamicAttachment");
    expect((await put(admin.client, game.id, da.id, { isEnabled: true })).body.title).toBe("This challenge has no flag yet, so it cannot be enabled");
  });

  it("refuses to clear the image of an enabled container challenge; disabling it in the same call allows it", async () => {
    const { admin, game } = await setup();
    for (const type of ["StaticContainer", "DynamicContainer"]) {
      const c = await newChallenge(admin.client, game.id, type);
      if (type === "StaticContainer") await addFlags(admin.client, game.id, c.id, [{ flag: "f" }]);
      expect((await put(admin.client, game.id, c.id, { isEnabled: true, containerImage: "nginx:alpine" })).status).toBe(200);
      const cleared = await put(admin.client, game.id, c.id, { containerImage: "" });
      expect(cleared.status, type).toBe(400);
      expect(cleared.body.title).toBe("An enabled container challenge needs its container image: disable the challenge before clearing the image");
      const ja = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "PUT", body: { containerImage: "" }, headers: { "accept-language": "ja-JP" } });
      expect(ja.body.title).toBe("有効なコンテナ問題にはコンテナイメージが必要です。イメージを消す前に問題を無効にしてください");
      expect(await getEdit(admin.client, game.id, c.id)).toMatchObject({ isEnabled: true, containerImage: "nginx:alpine" });
      const both = await put(admin.client, game.id, c.id, { isEnabled: false, containerImage: "" });
      expect(both.status).toBe(200);
      expect(both.body).toMatchObject({ isEnabled: false, containerImage: null });
    }
  });

  it("validates flag templates with clear, localised messages; an empty string clears the template", async () => {
    const { admin, game } = await setup();
    const dc = await newChallenge(admin.client, game.id, "DynamicContainer");
    const cases: [string, string][] = [
      ["flag{leet me in}", "The flag template is too easy to guess: use [GUID] or [TEAM_HASH], or a leet template with at least 32 bits of entropy"],
      ["x".repeat(121), "The flag template must be at most 120 characters"],
      ["   ", "The flag template cannot be blank"],
      ["flag{[GUID][GUID][GUID][GUID]}", "Flags made from this template would be longer than 127 characters"],
    ];
    for (const [flagTemplate, title] of cases) {
      const r = await put(admin.client, game.id, dc.id, { flagTemplate });
      expect(r.status, flagTemplate).toBe(400);
      expect(r.body.title).toBe(title);
    }
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.client.cookie;
    expect((await put(ja, game.id, dc.id, { flagTemplate: "   " })).body.title).toBe("フラグテンプレートを空白にはできません");
    expect((await put(admin.client, game.id, dc.id, { flagTemplate: "flag{[TEAM_HASH]}" })).body.flagTemplate).toBe("flag{[TEAM_HASH]}");
    expect((await put(admin.client, game.id, dc.id, { flagTemplate: "[LEET]flag{this is a long enough leet template ok}" })).status).toBe(200);
    expect((await put(admin.client, game.id, dc.id, { flagTemplate: "" })).body.flagTemplate).toBeNull();
  });

  it("sets the shared attachment of static challenges with a file reference, and refuses it for DynamicAttachment", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "StaticAttachment");
    const url = (body: unknown) => admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/attachment`, { method: "POST", body });
    expect((await url({ attachmentType: "Local" })).body.title).toBe("Choose a file for a local attachment");
    expect((await url({ attachmentType: "Local", fileHash: "a".repeat(64) })).body.title).toBe("The file does not exist; upload it first");
    expect((await url({ attachmentType: "Remote" })).body.title).toBe("Enter a link for a remote attachment");
    expect((await url({ attachmentType: "Remote", remoteUrl: "javascript:alert(1)" })).body.title).toBe("Please enter a valid http or https link");

    const name = `${unique("f")}.txt`;
    const hash = await upload(admin.client, name, `content ${unique()}`);
    const refs = async () => (await db().select({ n: files.referenceCount }).from(files).where(eq(files.hash, hash)).get())!.n;
    expect(await refs()).toBe(1);
    expect((await url({ attachmentType: "Local", fileHash: hash })).status).toBe(200);
    expect(await refs()).toBe(2);
    expect((await getEdit(admin.client, game.id, c.id)).attachment).toMatchObject({ type: "Local", url: `/assets/${hash}/${name}`, fileSize: expect.any(Number) });
    expect((await url({ attachmentType: "Remote", remoteUrl: "https://example.com/a.zip" })).status).toBe(200);
    expect(await refs()).toBe(1);
    expect((await getEdit(admin.client, game.id, c.id)).attachment).toMatchObject({ type: "Remote", url: "https://example.com/a.zip", fileSize: null });
    expect((await url({ attachmentType: "None" })).status).toBe(200);
    expect((await getEdit(admin.client, game.id, c.id)).attachment).toBeNull();

    const da = await newChallenge(admin.client, game.id, "DynamicAttachment");
    const refused = await admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${da.id}/attachment`, { method: "POST", body: { attachmentType: "None" } });
    expect(refused.body.title).toBe("Dynamic attachment challenges keep their files on their flags");
    expect((await addFlags(admin.client, game.id, da.id, [{ flag: "flag{no file}" }])).body.title).toBe("Each dynamic flag needs a file or a link");
  });

  it("keeps one attachment and one file reference when the attachment is set by concurrent calls", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "StaticAttachment");
    const hash = await upload(admin.client, `${unique("f")}.txt`, `content ${unique()}`);
    const set = (body: unknown) => admin.client.json<ErrorBody>(`/api/edit/games/${game.id}/challenges/${c.id}/attachment`, { method: "POST", body });
    const rowsOf = () => db().select().from(attachments).where(eq(attachments.fileHash, hash)).all();
    const refs = async () => (await db().select({ n: files.referenceCount }).from(files).where(eq(files.hash, hash)).get())!.n;
    const local = await Promise.all(Array.from({ length: 10 }, () => set({ attachmentType: "Local", fileHash: hash })));
    expect(local.map((r) => r.status)).toEqual(Array(10).fill(200));
    const current = (await db().select({ id: challenges.attachmentId }).from(challenges).where(eq(challenges.id, c.id)).get())!.id;
    expect((await rowsOf()).map((r) => r.id)).toEqual([current]);
    expect(await refs()).toBe(2); // the upload's own reference and the attachment's
    const tag = unique("race");
    const remote = await Promise.all(Array.from({ length: 10 }, (_, i) => set({ attachmentType: "Remote", remoteUrl: `https://example.com/${tag}/${i}` })));
    expect(remote.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await rowsOf()).toEqual([]);
    expect(await refs()).toBe(1);
    const linked = (await db().select({ id: challenges.attachmentId }).from(challenges).where(eq(challenges.id, c.id)).get())!.id;
    const links = await db().select({ id: attachments.id }).from(attachments).where(like(attachments.remoteUrl, `https://example.com/${tag}/%`)).all();
    expect(links).toEqual([{ id: linked }]);
    expect((await set({ attachmentType: "None" })).status).toBe(200);
    expect(await db().select().from(attachments).where(eq(attachments.id, linked!)).all()).toEqual([]);
  });

  it("recomputes acceptedCount from the solves with updateaccepted", async () => {
    const { admin, game } = await setup();
    const c = await enabledStatic(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const part = (await db().select().from(participations).where(eq(participations.teamId, p.team.id)).get())!;
    const sub = await db().insert(submissions).values({ gameId: game.id, challengeId: c.id, participationId: part.id, answer: "flag{static}", status: "Accepted", submitTime: Date.now() }).returning().get();
    await db().insert(firstSolves).values({ participationId: part.id, challengeId: c.id, gameId: game.id, submissionId: sub.id, submitTime: sub.submitTime }).run();
    expect((await getEdit(admin.client, game.id, c.id)).acceptedCount).toBe(0);
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/updateaccepted`, { method: "POST" })).status).toBe(200);
    expect((await getEdit(admin.client, game.id, c.id)).acceptedCount).toBe(1);
    expect((await open(p.client, game.id, c.id)).body.attempts).toBe(1);
  });

  it("posts NewChallenge and NewHint notices only while the game runs", async () => {
    const { admin, game } = await setup();
    const notices = async (id: number) => (await admin.client.json<GameNoticeInfo[]>(`/api/edit/games/${id}/notices`)).body;
    const c = await enabledStatic(admin.client, game.id);
    await put(admin.client, game.id, c.id, { hints: ["look closer"] });
    await put(admin.client, game.id, c.id, { hints: ["look closer"] });
    const list = await notices(game.id);
    expect(list.map((n) => [n.type, n.values])).toEqual([
      ["NewHint", [c.title]],
      ["NewChallenge", [c.title]],
    ]);
    // Disabled and enabled again: players heard of it already.
    await put(admin.client, game.id, c.id, { isEnabled: false });
    await put(admin.client, game.id, c.id, { isEnabled: true });
    expect((await notices(game.id)).filter((n) => n.type === "NewChallenge")).toHaveLength(1);

    const future = await createGame(admin.client, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    const f = await enabledStatic(admin.client, future.id);
    await put(admin.client, future.id, f.id, { hints: ["nothing"] });
    expect(await notices(future.id)).toEqual([]);
  });

  it("announces each challenge once, even under racing saves, and a new one of a deleted one's name too", async () => {
    const { admin, game } = await setup();
    const notices = async () => (await admin.client.json<GameNoticeInfo[]>(`/api/edit/games/${game.id}/notices`)).body;
    const count = async (type: string) => (await notices()).filter((n) => n.type === type).length;
    const c = await enabledStatic(admin.client, game.id);
    expect(await count("NewChallenge")).toBe(1);
    // A double click on Save with new hints: one NewHint; a different hint after: a second.
    const saves = await Promise.all([1, 2, 3].map(() => put(admin.client, game.id, c.id, { hints: ["look left"] })));
    expect(saves.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await count("NewHint")).toBe(1);
    expect((await put(admin.client, game.id, c.id, { hints: ["look left", "then right"] })).status).toBe(200);
    expect(await count("NewHint")).toBe(2);
    expect((await getEdit(admin.client, game.id, c.id)).hints).toEqual(["look left", "then right"]);

    // Deleted, and made again under the same title: the new challenge is announced.
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}`, { method: "DELETE" })).status).toBe(200);
    const again = await newChallenge(admin.client, game.id, "StaticAttachment", { title: c.title });
    expect((await addFlags(admin.client, game.id, again.id, [{ flag: "flag{again}" }])).status).toBe(200);
    // Two enables racing: one notice.
    await Promise.all([put(admin.client, game.id, again.id, { isEnabled: true }), put(admin.client, game.id, again.id, { isEnabled: true })]);
    const announced = (await notices()).filter((n) => n.type === "NewChallenge");
    expect(announced.map((n) => n.values)).toEqual([[c.title], [c.title]]);
  });
});

describe("player challenge view (api.md §10)", () => {
  it("hides disabled, unknown and other games' challenges (404), also by direct id", async () => {
    const { admin, game } = await setup();
    const p = await acceptedPlayer(game.id);
    const c = await newChallenge(admin.client, game.id, "StaticAttachment");
    await addFlags(admin.client, game.id, c.id, [{ flag: "f" }]);
    expect((await open(p.client, game.id, c.id)).status).toBe(404);
    await put(admin.client, game.id, c.id, { isEnabled: true, content: "# Hello", hints: ["h1"], submissionLimit: 3 });
    const r = await open(p.client, game.id, c.id);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: c.id, content: "# Hello", hints: ["h1"], score: 1000, type: "StaticAttachment", limit: 3, attempts: 0, deadline: null, context: { closeTime: null, instanceEntry: null, url: null, fileSize: null } });
    expect(r.body).not.toHaveProperty("flags");
    await put(admin.client, game.id, c.id, { isEnabled: false });
    expect((await open(p.client, game.id, c.id)).status).toBe(404);
    expect((await open(p.client, game.id, 999_999_999)).status).toBe(404);
    const other = await createGame(admin.client, { acceptWithoutReview: true });
    const o = await enabledStatic(admin.client, other.id);
    expect((await open(p.client, game.id, o.id)).status).toBe(404);
  });

  it("is for accepted players only", async () => {
    const { admin, game } = await setup({ acceptWithoutReview: false });
    const c = await enabledStatic(admin.client, game.id);
    const { captain, team } = await teamWithMembers(0);
    expect((await open(captain.client, game.id, c.id)).status).toBe(403);
    await join(captain.client, game.id, { teamId: team.id });
    const pending = await open(captain.client, game.id, c.id);
    expect(pending.status).toBe(403);
    // The same words as the details and submit calls give a team under review.
    expect(pending.body.title).toBe("Your team has not been accepted into this game");
    expect((await captain.client.json<{ title: string }>(`/api/game/${game.id}/details`)).body.title).toBe(pending.body.title);
    await db().update(participations).set({ status: "Suspended" }).where(eq(participations.teamId, team.id));
    const banned = await open(captain.client, game.id, c.id);
    expect(banned.status).toBe(403);
    expect(banned.body.title).toBe("You have been banned");
  });

  it("honours the division's ViewChallenge permission, per challenge too", async () => {
    const { admin, game } = await setup({ divisions: [{ name: "blind", defaultPermissions: GamePermission.All & ~GamePermission.ViewChallenge }] });
    const hidden = await enabledStatic(admin.client, game.id);
    const shown = await enabledStatic(admin.client, game.id);
    const division = game.divisions[0]!;
    await updateGame(admin.client, game.id, { divisions: [{ id: division.id, name: "blind", defaultPermissions: division.defaultPermissions, challengeConfigs: [{ challengeId: shown.id, permissions: GamePermission.All }] }] });
    const p = await acceptedPlayer(game.id, { divisionId: division.id });
    expect((await open(p.client, game.id, hidden.id)).status).toBe(404);
    expect((await open(p.client, game.id, shown.id)).status).toBe(200);
  });

  it("answers 10001 before the start and 10002 after the end without practice mode", async () => {
    const { admin, game } = await setup({ practiceMode: false });
    const c = await enabledStatic(admin.client, game.id);
    const p = await acceptedPlayer(game.id);
    const now = Date.now();
    await db().update(games).set({ startTime: now + HOUR, endTime: now + 2 * HOUR }).where(eq(games.id, game.id));
    const early = await open(p.client, game.id, c.id);
    expect([early.status, early.body.status]).toEqual([400, 10001]);
    await db().update(games).set({ startTime: now - 2 * HOUR, endTime: now - HOUR }).where(eq(games.id, game.id));
    const late = await open(p.client, game.id, c.id);
    expect([late.status, late.body.status]).toEqual([400, 10002]);
    await db().update(games).set({ practiceMode: true }).where(eq(games.id, game.id));
    expect((await open(p.client, game.id, c.id)).status).toBe(200);
  });

  it("creates instances on enable for accepted teams and on acceptance for enabled challenges", async () => {
    const { admin, game } = await setup();
    const early = await acceptedPlayer(game.id);
    const c = await enabledStatic(admin.client, game.id);
    const late = await acceptedPlayer(game.id);
    const rows = await db().select({ p: gameInstances.participationId }).from(gameInstances).where(eq(gameInstances.challengeId, c.id)).all();
    const ids = await db().select({ id: participations.id, teamId: participations.teamId }).from(participations).where(eq(participations.gameId, game.id)).all();
    expect(rows.map((r) => r.p).sort()).toEqual(ids.map((i) => i.id).sort());
    expect(ids.map((i) => i.teamId).sort()).toEqual([early.team.id, late.team.id].sort());
  });

  it("gives each team its own random dynamic attachment under the common file name, kept on reopen", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "DynamicAttachment", { fileName: "data.bin" });
    const hashes = [];
    for (let i = 0; i < 3; i++) hashes.push(await upload(admin.client, `flag{pair_${i}}`, `pair ${i} ${unique()}`));
    expect((await addFlags(admin.client, game.id, c.id, hashes.map((fileHash, i) => ({ flag: `flag{pair_${i}}`, fileHash })))).status).toBe(200);
    expect((await getEdit(admin.client, game.id, c.id)).flags.map((f) => f.attachment?.url)).toEqual(hashes.map((h) => `/assets/${h}/data.bin`));
    await put(admin.client, game.id, c.id, { isEnabled: true });

    const a = await acceptedPlayer(game.id);
    const b = await acceptedPlayer(game.id);
    const ua = (await open(a.client, game.id, c.id)).body.context.url;
    const ub = (await open(b.client, game.id, c.id)).body.context.url;
    expect(ua).toMatch(/^\/assets\/[0-9a-f]{64}\/data\.bin$/);
    expect(ub).toMatch(/^\/assets\/[0-9a-f]{64}\/data\.bin$/);
    expect(ua).not.toBe(ub);
    expect((await open(a.client, game.id, c.id)).body.context.url).toBe(ua);
    const occupied = await db().select().from(flags).where(and(eq(flags.challengeId, c.id), eq(flags.occupied, true))).all();
    expect(occupied).toHaveLength(2);
    const served = await a.client.fetch(ua!);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toContain("data.bin");

    // The editor's list names the team each handed-out pair went to; the unused one names none.
    const listed = (await getEdit(admin.client, game.id, c.id)).flags;
    const holder = (url: string) => listed.find((f) => f.attachment?.url === url)?.team;
    expect(holder(ua!)).toBe(a.team.name);
    expect(holder(ub!)).toBe(b.team.name);
    expect(listed.filter((f) => f.team === null)).toHaveLength(1);
    // Deleting a handed-out pair frees the team: it gets the unused pair when it opens the challenge again.
    const given = listed.find((f) => f.attachment?.url === ua)!;
    expect((await admin.client.json(`/api/edit/games/${game.id}/challenges/${c.id}/flags/${given.id}`, { method: "DELETE" })).status).toBe(200);
    const unused = listed.find((f) => f.team === null)!;
    expect((await open(a.client, game.id, c.id)).body.context.url).toBe(unused.attachment?.url);
    expect((await getEdit(admin.client, game.id, c.id)).flags.map((f) => [f.id, f.team])).toEqual(
      listed.filter((f) => f.id !== given.id).map((f) => [f.id, f.id === unused.id ? a.team.name : f.team]),
    );
  });

  it("picks a random free pair, not the first one", async () => {
    const { admin, game } = await setup();
    const p = await acceptedPlayer(game.id);
    const picks: number[] = [];
    for (let round = 0; round < 8; round++) {
      const c = await newChallenge(admin.client, game.id, "DynamicAttachment");
      await addFlags(admin.client, game.id, c.id, Array.from({ length: 10 }, (_, i) => ({ flag: `flag{${i}}`, remoteUrl: `https://example.com/${i}` })));
      await put(admin.client, game.id, c.id, { isEnabled: true });
      const url = (await open(p.client, game.id, c.id)).body.context.url!;
      picks.push(Number(url.split("/").pop()));
    }
    expect(new Set(picks).size).toBeGreaterThan(1);
  });

  it("gives members of a team opening a dynamic attachment at once the same pair, and each team its own", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "DynamicAttachment");
    await addFlags(admin.client, game.id, c.id, Array.from({ length: 3 }, (_, i) => ({ flag: `flag{${i}}`, remoteUrl: `https://example.com/pair/${i}` })));
    await put(admin.client, game.id, c.id, { isEnabled: true });
    const teams = [];
    for (let i = 0; i < 3; i++) {
      const { captain, team, members } = await teamWithMembers(1);
      for (const u of [captain, members[0]!]) expect((await join(u.client, game.id, { teamId: team.id })).status).toBe(200);
      teams.push([captain.client, members[0]!.client, captain.client]);
    }
    const opened = await Promise.all(teams.flatMap((clients) => clients.map((client) => open(client, game.id, c.id))));
    expect(opened.map((r) => r.status)).toEqual(Array(9).fill(200));
    const urls = teams.map((_, t) => new Set(opened.slice(t * 3, t * 3 + 3).map((r) => r.body.context.url)));
    for (const u of urls) expect(u.size).toBe(1);
    expect(new Set(urls.map((u) => [...u][0])).size).toBe(3);
    const occupied = await db().select().from(flags).where(and(eq(flags.challengeId, c.id), eq(flags.occupied, true))).all();
    expect(occupied).toHaveLength(3);
    // With every pair handed out, a fourth team is told none is left.
    const late = await acceptedPlayer(game.id);
    expect((await open(late.client, game.id, c.id)).body.title).toBe("There are not enough dynamic attachments for this challenge; please contact the organisers");
  });

  it("tells the player when dynamic attachments run out and logs a warning for admins", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "DynamicAttachment");
    await addFlags(admin.client, game.id, c.id, [{ flag: "flag{only}", remoteUrl: "https://example.com/only" }]);
    await put(admin.client, game.id, c.id, { isEnabled: true });
    const a = await acceptedPlayer(game.id);
    const b = await acceptedPlayer(game.id);
    expect((await open(a.client, game.id, c.id)).body.context.url).toBe("https://example.com/only");
    const since = Date.now();
    const r = await open(b.client, game.id, c.id);
    expect(r.status).toBe(400);
    expect(r.body.title).toBe("There are not enough dynamic attachments for this challenge; please contact the organisers");
    const end = Date.now() + 3000;
    let line;
    while (!line && Date.now() < end) {
      const rows = await db().select().from(logs).where(gt(logs.time, since - 1)).all();
      line = rows.find((l) => l.level === "Warning" && l.message.includes(`#${c.id}`));
      if (!line) await new Promise((res) => setTimeout(res, 25));
    }
    expect(line?.message).toContain("Not enough dynamic attachments");
    expect(line?.message).not.toContain("flag{only}");
  });

  it("generates a DynamicContainer flag once per team: the same on reopen, different between teams", async () => {
    const { admin, game } = await setup();
    const c = await newChallenge(admin.client, game.id, "DynamicContainer", { containerImage: "busybox", flagTemplate: "flag{[TEAM_HASH]}", isEnabled: true });
    const g = await newChallenge(admin.client, game.id, "DynamicContainer", { containerImage: "busybox", isEnabled: true });
    const a = await acceptedPlayer(game.id);
    const b = await acceptedPlayer(game.id);
    const flagOf = async (teamId: number, cid: number) => {
      const part = (await db().select().from(participations).where(eq(participations.teamId, teamId)).get())!;
      const inst = await db().select().from(gameInstances).where(and(eq(gameInstances.participationId, part.id), eq(gameInstances.challengeId, cid))).get();
      return { flag: inst?.flag ?? null, token: part.token };
    };
    expect((await flagOf(a.team.id, c.id)).flag).toBeNull();
    for (const p of [a, b]) for (const cid of [c.id, g.id]) expect((await open(p.client, game.id, cid)).status).toBe(200);
    const fa = await flagOf(a.team.id, c.id);
    const fb = await flagOf(b.team.id, c.id);
    const privateKey = (await db().select({ k: games.privateKey }).from(games).where(eq(games.id, game.id)).get())!.k;
    expect(fa.flag).toBe(`flag{${await computeTeamHash(await computeGameSalt(privateKey), c.id, fa.token)}}`);
    expect(fb.flag).not.toBe(fa.flag);
    const ga = (await flagOf(a.team.id, g.id)).flag;
    expect(ga).toMatch(/^flag\{[0-9a-f-]{36}\}$/);
    await open(a.client, game.id, g.id);
    expect((await flagOf(a.team.id, g.id)).flag).toBe(ga);
    expect((await flagOf(b.team.id, g.id)).flag).not.toBe(ga);
    const stored = await db().select().from(challenges).where(eq(challenges.id, c.id)).get();
    expect(stored?.type).toBe("DynamicContainer");
  });
});
