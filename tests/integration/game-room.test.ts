import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { challenges, cheatInfos, firstSolves, gameEvents, gameNotices, submissions } from "~/.server/db/schema";
import type { ScoreboardModel } from "~/core/scoring/scoreboard";
import { createGame, type ErrorBody, HOUR, join, newAdmin, type Player, room, seedPlayers, teamWithMembers, updateGame } from "./game-helpers";
import { reserveIdsStatements } from "../../workers/game-room/writes";
import { Client, db, newUser, unique } from "./helpers";


async function makeChallenge(admin: Client, gameId: number, opts: { type?: string; flags?: string[]; title?: string; category?: string; fields?: Record<string, unknown> } = {}) {
  const type = opts.type ?? "StaticAttachment";
  const created = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/challenges`, {
    method: "POST",
    body: { title: opts.title ?? unique("c"), category: opts.category ?? "Web", type },
  });
  expect(created.status).toBe(200);
  const id = created.body.id;
  if (opts.flags && opts.flags.length > 0) {
    const f = await admin.json(`/api/edit/games/${gameId}/challenges/${id}/flags`, {
      method: "POST",
      body: opts.flags.map((flag) => (type === "DynamicAttachment" ? { flag, attachmentType: "Remote", remoteUrl: `https://example.com/${flag}` } : { flag })),
    });
    expect(f.status).toBe(200);
  }
  const enabled = await admin.json(`/api/edit/games/${gameId}/challenges/${id}`, { method: "PUT", body: { isEnabled: true, ...opts.fields } });
  expect(enabled.status).toBe(200);
  return id;
}

/** Instances for every accepted team of the game (what acceptance does), optionally with own flags. */
async function ensureInstances(gameId: number, challengeId: number, flagOf?: (p: Player) => string, players: Player[] = []) {
  await env.DB.prepare(
    "INSERT INTO game_instances (participation_id, challenge_id) SELECT id, ?2 FROM participations WHERE game_id = ?1 AND status = 'Accepted' ON CONFLICT DO NOTHING",
  )
    .bind(gameId, challengeId)
    .run();
  if (flagOf) {
    await env.DB.batch(
      players.map((p) => env.DB.prepare("UPDATE game_instances SET flag = ?1 WHERE participation_id = ?2 AND challenge_id = ?3").bind(flagOf(p), p.participationId, challengeId)),
    );
  }
  await room(gameId).refresh(gameId, { challengeId });
}

async function submit(p: Player, gameId: number, challengeId: number, flag: unknown) {
  return p.client.json<number | ErrorBody>(`/api/game/${gameId}/challenges/${challengeId}`, { method: "POST", body: { flag } });
}

async function settle(gameId: number) {
  await room(gameId).settle(gameId);
}

/**
 * Holds the room's next solves off the board for a minute: the last delta counted as a minute ahead, and a
 * minute's interval between deltas (BOARD_INTERVAL_MS is 30 ms).
 */
async function holdBoardDeltas(gameId: number) {
  await runInDurableObject(room(gameId), async (instance) => {
    const r = instance as unknown as { boardDeltaAt: number; boardIntervalMs: number };
    // The last delta "in a minute": the quiet rule (a solve ≥ 100 ms after the last delta goes at once)
    // cannot fire, however slow the machine is between this call and the solve.
    r.boardDeltaAt = Date.now() + 60_000;
    r.boardIntervalMs = 60_000;
  });
}

async function statusOf(p: Player, gameId: number, challengeId: number, id: number) {
  return p.client.json<string | ErrorBody>(`/api/game/${gameId}/challenges/${challengeId}/status/${id}`);
}

async function board(gameId: number) {
  const r = await new Client().json<ScoreboardModel>(`/api/game/${gameId}/scoreboard`);
  expect(r.status).toBe(200);
  return r.body;
}

async function setup(gameFields: Record<string, unknown> = {}) {
  const { client: admin } = await newAdmin();
  const game = await createGame(admin, gameFields);
  return { admin, gameId: game.id };
}

// ── Tests ───────────────────────────────────────────────────────────────────────────────────────────

describe("submission life cycle", () => {
  it("stores, judges and reports wrong, right and repeated flags", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{one}", "flag{two}"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);

    const wrong = await submit(a!, gameId, cid, "flag{nope}");
    expect(wrong.status).toBe(200);
    const wrongId = wrong.body as number;
    const right = await submit(a!, gameId, cid, "  flag{two} ");
    const again = await submit(a!, gameId, cid, "flag{one}");
    await settle(gameId);
    expect((await statusOf(a!, gameId, cid, wrongId)).body).toBe("WrongAnswer");
    expect((await statusOf(a!, gameId, cid, right.body as number)).body).toBe("Accepted");
    expect((await statusOf(a!, gameId, cid, again.body as number)).body).toBe("Accepted");
    // Another team cannot read it; a wrong challenge id is not found either.
    expect((await statusOf(b!, gameId, cid, wrongId)).status).toBe(404);
    expect((await statusOf(a!, gameId, cid + 999, wrongId)).status).toBe(404);

    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).orderBy(submissions.id).all();
    expect(rows.map((r) => r.status)).toEqual(["WrongAnswer", "Accepted", "Accepted"]);
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.gameId, gameId)).all();
    expect(solves).toHaveLength(1);
    expect(solves[0]).toMatchObject({ submissionId: right.body, type: "FirstBlood" });
    const events = await db().select().from(gameEvents).where(eq(gameEvents.gameId, gameId)).all();
    expect(events.filter((e) => e.type === "FlagSubmit")).toHaveLength(3);
    const c = await db().select().from(challenges).where(eq(challenges.id, cid)).get();
    expect(c!.acceptedCount).toBe(1);
    // The admin's challenge list shows the solve count.
    const listed = await admin.json<{ id: number; acceptedCount: number }[]>(`/api/edit/games/${gameId}/challenges`);
    expect(listed.body.find((l) => l.id === cid)?.acceptedCount).toBe(1);
    const notices = await db().select().from(gameNotices).where(eq(gameNotices.gameId, gameId)).all();
    expect(notices.filter((n) => n.type === "FirstBlood").map((n) => n.values)).toEqual([[a!.teamName, expect.any(String)]]);

    // From D1 once the room forgot it.
    await room(gameId).reset(gameId);
    expect((await statusOf(a!, gameId, cid, wrongId)).body).toBe("WrongAnswer");
    expect((await statusOf(b!, gameId, cid, wrongId)).status).toBe(404);
  });

  it("refuses bad flags, unknown challenges, non-members and suspended teams", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    const empty = await submit(a!, gameId, cid, "   ");
    expect(empty.status).toBe(400);
    expect((empty.body as ErrorBody).title).toBe("The flag cannot be empty");
    expect((await a!.client.json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: {} })).status).toBe(400);
    expect((await submit(a!, gameId, cid, "x".repeat(128))).status).toBe(400);
    expect((await submit(a!, gameId, cid + 10_000, "f")).status).toBe(404);
    const disabled = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: "off", category: "Misc", type: "StaticAttachment" } });
    expect((await submit(a!, gameId, disabled.body.id, "f")).status).toBe(404);
    expect((await new Client().json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } })).status).toBe(401);
    const [outsider] = await seedPlayers((await createGame(admin)).id, 1);
    expect((await submit(outsider!, gameId, cid, "f")).status).toBe(403);

    const before = await submit(b!, gameId, cid, "nope");
    expect(before.status).toBe(200);
    const review = await admin.json(`/api/admin/participation/${b!.participationId}/Suspended`, { method: "PUT" });
    expect(review.status).toBe(200);
    const banned = await submit(b!, gameId, cid, "f");
    expect(banned.status).toBe(403);
    expect((banned.body as ErrorBody).title).toBe("You have been banned");
    // Its earlier submission's verdict too (every player call, rules.md §2).
    const status = await statusOf(b!, gameId, cid, before.body as number);
    expect(status.status).toBe(403);
    expect((status.body as ErrorBody).title).toBe("You have been banned");
    expect((await b!.client.json(`/api/game/${gameId}/details`)).status).toBe(403);
    // The suspended team left the board before the review call returned.
    expect((await board(gameId)).items.map((i) => i.id)).toEqual([a!.teamId]);
  });

  it("takes a flag of 127 emoji an admin added, as api.md counts characters, and refuses 128", async () => {
    const { admin, gameId } = await setup();
    // 127 characters, 254 UTF-16 units.
    const flag = "😀".repeat(127);
    const cid = await makeChallenge(admin, gameId, { flags: [flag] });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);

    const tooLong = await submit(a!, gameId, cid, `${flag}😀`);
    expect(tooLong.status).toBe(400);
    expect((tooLong.body as ErrorBody).title).toBe("The flag must be at most 127 characters");
    const right = await submit(a!, gameId, cid, ` ${flag}\n`);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    await settle(gameId);
    expect((await statusOf(a!, gameId, cid, right.body as number)).body).toBe("Accepted");
  });

  it("limits each team's submissions (100 at once), for loopback clients too, with 429 and Retry-After", { timeout: 60_000 }, async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    const burst = await Promise.all(Array.from({ length: 110 }, (_, i) => submit(a!, gameId, cid, `wrong-${i}`)));
    const limited = burst.filter((r) => r.status === 429);
    expect(burst.filter((r) => r.status === 200)).toHaveLength(100);
    expect(limited).toHaveLength(10);
    expect(Number(limited[0]!.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((limited[0]!.body as ErrorBody).title).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    // The bucket is the team's: another team submits at once.
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
  });

  it("gates on game time: not started 10001, ended without practice 10002", async () => {
    const { admin, gameId } = await setup({ start: Date.now() + HOUR, end: Date.now() + 2 * HOUR });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    const early = await submit(a!, gameId, cid, "f");
    expect(early.status).toBe(400);
    expect((early.body as ErrorBody).status).toBe(10001);
    expect((await new Client().json<ErrorBody>(`/api/game/${gameId}/scoreboard`)).body.status).toBe(10001);
    expect((await a!.client.json<ErrorBody>(`/api/game/${gameId}/details`)).body.status).toBe(10001);
    expect((await updateGame(admin, gameId, { start: Date.now() - 2 * HOUR, end: Date.now() - HOUR, practiceMode: false })).status).toBe(200);
    const late = await submit(a!, gameId, cid, "f");
    expect(late.status).toBe(400);
    expect((late.body as ErrorBody).status).toBe(10002);
  });

  it("the admin list values a challenge as the board does: a solve after the deadline is listed but not counted", async () => {
    const { admin, gameId } = await setup({ practiceMode: true });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"], fields: { originalScore: 1000, minScoreRate: 0.25, difficulty: 5 } });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    await submit(a!, gameId, cid, "f");
    await settle(gameId);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { deadlineUtc: Date.now() } })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await submit(b!, gameId, cid, "f");
    await settle(gameId);
    const model = await board(gameId);
    // Both solves are listed; only the first counts and scores (with its first blood bonus of 5 %).
    expect(model.items.filter((item) => item.solvedChallenges.some((s) => s.id === cid)).map((item) => item.solvedChallenges[0]!.score).sort()).toEqual([0, 1050]);
    const onBoard = Object.values(model.challenges).flat().find((c) => c.id === cid)!;
    // One counted solve keeps the full value (rules.md §3, e^0); both solves would give
    // floor(1000 × (0.25 + 0.75 × e^(−1/5))) = 864.
    expect(onBoard.score).toBe(1000);
    const listed = await admin.json<{ id: number; score: number }[]>(`/api/edit/games/${gameId}/challenges`);
    expect(listed.body.find((c) => c.id === cid)!.score).toBe(1000);
  });

  it("a submission limit turned on mid-game counts the attempts D1 does not have yet", async () => {
    const { admin, gameId } = await setup({ practiceMode: false });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);
    // Three attempts without a limit, then the limit at once: the room drains to D1 only every 250 ms.
    const sent = await Promise.all(["x", "y", "z"].map((flag) => submit(a!, gameId, cid, flag)));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { submissionLimit: 3 } })).status).toBe(200);
    expect((await a!.client.json<{ limit: number; attempts: number }>(`/api/game/${gameId}/challenges/${cid}`)).body).toMatchObject({ limit: 3, attempts: 3 });
    const fourth = await submit(a!, gameId, cid, "f");
    expect(fourth.status).toBe(400);
    expect((fourth.body as ErrorBody).title).toBe("All attempts for this challenge are used up");
    await settle(gameId);
    expect(await db().select().from(submissions).where(eq(submissions.challengeId, cid)).all()).toHaveLength(3);
    // Raised, the limit keeps the count: one more attempt, then none.
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { submissionLimit: 4 } })).status).toBe(200);
    expect((await submit(a!, gameId, cid, "w")).status).toBe(200);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(400);
  });

  it("counts a challenge's solvers among accepted teams only, as updateaccepted does", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await admin.json(`/api/admin/participation/${a!.participationId}/Suspended`, { method: "PUT" })).status).toBe(200);
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const listed = async () => (await admin.json<{ id: number; acceptedCount: number; score: number }[]>(`/api/edit/games/${gameId}/challenges`)).body.find((c) => c.id === cid)!;
    expect((await listed()).acceptedCount).toBe(1);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/updateaccepted`, { method: "POST" })).status).toBe(200);
    expect((await listed()).acceptedCount).toBe(1);
  });

  it("counts only the solves the board counts (rules.md §3): none after the end, after the deadline or by a division that does not move the value", async () => {
    const { admin, gameId } = await setup({ practiceMode: true });
    const edit = await updateGame(admin, gameId, {
      divisions: [
        { name: "Open", defaultPermissions: 2147483647 },
        { name: "Static", defaultPermissions: 2147483647 & ~4096 },
      ],
    });
    expect(edit.status).toBe(200);
    const divs = (edit.body as unknown as { divisions: { id: number; name: string }[] }).divisions;
    const open = divs.find((d) => d.name === "Open")!.id;
    const fixed = divs.find((d) => d.name === "Static")!.id;
    const early = await makeChallenge(admin, gameId, { flags: ["f"], title: "early" });
    const late = await makeChallenge(admin, gameId, { flags: ["f"], title: "late" });
    const [a, b, d] = await seedPlayers(gameId, 3, { divisionId: open });
    const [s] = await seedPlayers(gameId, 1, { divisionId: fixed });
    await ensureInstances(gameId, early);
    await ensureInstances(gameId, late);
    const counts = async () => {
      const listed = (await admin.json<{ id: number; acceptedCount: number }[]>(`/api/edit/games/${gameId}/challenges`)).body;
      const solved = Object.values((await board(gameId)).challenges).flat();
      return Promise.all(
        [early, late].map(async (id) => ({
          listed: listed.find((c) => c.id === id)!.acceptedCount,
          board: solved.find((c) => c.id === id)!.solved,
          edit: (await admin.json<{ acceptedCount: number }>(`/api/edit/games/${gameId}/challenges/${id}`)).body.acceptedCount,
        })),
      );
    };
    const solve = async (p: Player, cid: number) => {
      expect((await submit(p, gameId, cid, "f")).status).toBe(200);
      await settle(gameId);
    };
    await solve(a!, early);
    await solve(a!, late);
    // A division without AffectDynamicScore: its solve scores but does not count.
    await solve(s!, early);
    const one = { listed: 1, board: 1, edit: 1 };
    expect(await counts()).toEqual([one, one]);
    // After the challenge's deadline (practice mode takes the flag).
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${early}`, { method: "PUT", body: { deadlineUtc: Date.now() - 1 } })).status).toBe(200);
    await solve(b!, early);
    expect(await counts()).toEqual([one, one]);
    // After the end (practice).
    expect((await updateGame(admin, gameId, { end: Date.now() - 1 })).status).toBe(200);
    await solve(d!, late);
    expect(await counts()).toEqual([one, one]);
    // Recomputed: the board's count, whatever D1 held.
    await env.DB.prepare("UPDATE challenges SET accepted_count = 7 WHERE game_id = ?1").bind(gameId).run();
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/updateaccepted`, { method: "POST" })).status).toBe(200);
    expect(await counts()).toEqual([one, one]);
  });

  it("writes the solve counts a change moves without a solve: a team suspended and back, a deadline moved before the solve, a division's permissions", async () => {
    const { admin, gameId } = await setup();
    const ALL = 2147483647;
    const edit = await updateGame(admin, gameId, { divisions: [{ name: "Open", defaultPermissions: ALL }] });
    expect(edit.status).toBe(200);
    const open = (edit.body as unknown as { divisions: { id: number }[] }).divisions[0]!.id;
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [t, u] = await seedPlayers(gameId, 2, { divisionId: open });
    await ensureInstances(gameId, cid);
    const before = Date.now();
    expect((await submit(t!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    // Read as soon as each change answers: nothing waits for a drain or a solve in between.
    const listed = async () => (await admin.json<{ id: number; acceptedCount: number }[]>(`/api/edit/games/${gameId}/challenges`)).body.find((c) => c.id === cid)!.acceptedCount;
    const edited = async () => (await admin.json<{ acceptedCount: number }>(`/api/edit/games/${gameId}/challenges/${cid}`)).body.acceptedCount;
    const review = (p: Player, status: string) => admin.json(`/api/admin/participation/${p.participationId}/${status}`, { method: "PUT" });
    expect([await listed(), await edited()]).toEqual([1, 1]);

    expect((await review(t!, "Suspended")).status).toBe(200);
    expect([await listed(), await edited()]).toEqual([0, 0]);
    expect((await review(t!, "Accepted")).status).toBe(200);
    expect([await listed(), await edited()]).toEqual([1, 1]);

    // The deadline moved before the solve, and back.
    const deadline = (deadlineUtc: number) => admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { deadlineUtc } });
    expect((await deadline(before - 1)).status).toBe(200);
    expect([await listed(), await edited()]).toEqual([0, 0]);
    expect((await deadline(Date.now() + HOUR)).status).toBe(200);
    expect(await listed()).toBe(1);

    // The division stops moving the value (AffectDynamicScore, 4096), and moves it again.
    expect((await updateGame(admin, gameId, { divisions: [{ id: open, name: "Open", defaultPermissions: ALL & ~4096 }] })).status).toBe(200);
    expect(await listed()).toBe(0);
    expect((await updateGame(admin, gameId, { divisions: [{ id: open, name: "Open", defaultPermissions: ALL }] })).status).toBe(200);
    expect(await listed()).toBe(1);

    // The room out of memory (evicted): the change loads it, and the count follows all the same.
    await room(gameId).reset(gameId);
    expect((await review(t!, "Suspended")).status).toBe(200);
    expect(await env.DB.prepare("SELECT accepted_count AS n FROM challenges WHERE id = ?1").bind(cid).first<{ n: number }>()).toEqual({ n: 0 });
    // A change that moves no count (another team suspended) leaves it.
    expect((await review(u!, "Suspended")).status).toBe(200);
    expect(await listed()).toBe(0);
  });

  it("values a disabled challenge as the board valued it: a practice solve after the end does not lower it", async () => {
    const { admin, gameId } = await setup({ practiceMode: true });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"], fields: { originalScore: 1000, minScoreRate: 0.25, difficulty: 5 } });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await updateGame(admin, gameId, { end: Date.now() - 1 })).status).toBe(200);
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const listed = async () => (await admin.json<{ id: number; score: number }[]>(`/api/edit/games/${gameId}/challenges`)).body.find((c) => c.id === cid)!;
    expect((await listed()).score).toBe(1000);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { isEnabled: false } })).status).toBe(200);
    // Two solves would give floor(1000 × (0.25 + 0.75 × e^(−1/5))) = 864; one counts.
    expect((await listed()).score).toBe(1000);
  });

  it("a right flag taken before its team's suspension is its solve once the team plays again, at the submission's time", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    const standing = (p: Player, s: string) => admin.json(`/api/admin/participation/${p.participationId}/${s}`, { method: "PUT" });
    // The room holds the flush (its ids) while an admin suspends the team: the submission, checked while the
    // team played, is judged after the suspension.
    let open!: () => void;
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (open = resolve));
    await runInDurableObject(room(gameId), (instance) => {
      const r = instance as unknown as { haveIds: (n: number) => Promise<boolean> };
      const original = r.haveIds.bind(r);
      r.haveIds = async (n: number) => {
        reached();
        await gate;
        r.haveIds = original;
        return original(n);
      };
    });
    const sent = submit(a!, gameId, cid, "f");
    await atGate;
    expect((await standing(a!, "Suspended")).status).toBe(200);
    open();
    expect((await sent).status).toBe(200);
    await settle(gameId);
    expect((await statusOf(a!, gameId, cid, (await sent).body as number)).status).toBe(403);
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await standing(a!, "Accepted")).status).toBe(200);
    await settle(gameId);
    const row = await db().select().from(submissions).where(eq(submissions.id, (await sent).body as number)).get();
    expect(row!.status).toBe("Accepted");
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => [s.participationId, s.submissionId])).toEqual([
      [a!.participationId, (await sent).body],
      [b!.participationId, solves[1]?.submissionId],
    ]);
    // Back on the board with its submission's time, ahead of the team that solved while it was suspended.
    const model = await board(gameId);
    const solvedAt = (p: Player) => model.items.find((i) => i.id === p.teamId)?.solvedChallenges[0];
    expect(solvedAt(a!)).toMatchObject({ time: row!.submitTime, type: "FirstBlood" });
    expect(solvedAt(b!)).toMatchObject({ type: "SecondBlood" });
  });

  it("tells a signed-in user who has not joined the game so, not that the team was refused", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const outsider = await newUser({ lang: "en-US" });
    const refused = await outsider.client.json<ErrorBody>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } });
    expect(refused.status).toBe(403);
    expect(refused.body.title).toBe("You have not joined this game: join it with your team from the game's page");
    expect((await outsider.client.json<ErrorBody>(`/api/game/${gameId}/details`)).body.title).toBe(refused.body.title);
    expect((await outsider.client.json<ErrorBody>(`/api/game/${gameId}/challenges/${cid}`)).body.title).toBe(refused.body.title);
  });

  it("enforces the submission limit and the deadline (practice off)", async () => {
    const { admin, gameId } = await setup({ practiceMode: false });
    const limited = await makeChallenge(admin, gameId, { flags: ["f"], fields: { submissionLimit: 2 } });
    const closed = await makeChallenge(admin, gameId, { flags: ["f"], fields: { deadlineUtc: Date.now() - 60_000 } });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, limited);
    const view = async () => (await a!.client.json<{ limit: number; attempts: number }>(`/api/game/${gameId}/challenges/${limited}`)).body;
    expect((await submit(a!, gameId, limited, "x")).status).toBe(200);
    // The player's view counts it at once: the room's count, before the submission is drained to D1.
    expect(await view()).toMatchObject({ limit: 2, attempts: 1 });
    expect((await submit(a!, gameId, limited, "y")).status).toBe(200);
    const third = await submit(a!, gameId, limited, "f");
    expect(third.status).toBe(400);
    expect((third.body as ErrorBody).title).toBe("All attempts for this challenge are used up");
    const late = await submit(a!, gameId, closed, "f");
    expect(late.status).toBe(400);
    expect((late.body as ErrorBody).title).toBe("The deadline for this challenge has passed");
    // The limit survives a rebuild from D1.
    await settle(gameId);
    await room(gameId).reset(gameId);
    expect((await submit(a!, gameId, limited, "f")).status).toBe(400);
    expect(await view()).toMatchObject({ limit: 2, attempts: 2 });
  });

  it("answers NotFound without an instance", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await env.DB.prepare("DELETE FROM game_instances WHERE participation_id = ?1").bind(a!.participationId).run();
    await room(gameId).refresh(gameId, { challengeId: cid });
    const r = await submit(a!, gameId, cid, "f");
    await settle(gameId);
    expect((await statusOf(a!, gameId, cid, r.body as number)).body).toBe("NotFound");
  });
});

describe("a challenge's value right after a solve", () => {
  it("is the board's, with a solve judged a moment ago, before D1 has it", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"], fields: { originalScore: 1000, minScoreRate: 0.25, difficulty: 1 } });
    const [a, b, c] = await seedPlayers(gameId, 3);
    await ensureInstances(gameId, cid);
    await submit(a!, gameId, cid, "f");
    await settle(gameId);
    // The second solve lowers the value (rules.md §3). Its verdict is out (the status call answers from the
    // room) while the drain to D1 waits its turn.
    const id = (await submit(b!, gameId, cid, "f")).body as number;
    for (let i = 0; i < 50 && (await statusOf(b!, gameId, cid, id)).body !== "Accepted"; i++) await new Promise((done) => setTimeout(done, 20));
    const opened = await c!.client.json<{ score: number }>(`/api/game/${gameId}/challenges/${cid}`);
    const onBoard = (await board(gameId)).challenges.Web!.find((x) => x.id === cid)!;
    expect(onBoard.solved).toBe(2);
    expect(onBoard.score).toBeLessThan(1000);
    expect(opened.body.score).toBe(onBoard.score);
  });
});

describe("teams that leave a game", () => {
  it("a deleted team leaves the board before the call returns, with its solves; its member is refused", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await board(gameId)).items.map((i) => i.id)).toContain(a!.teamId);
    expect((await admin.json(`/api/admin/teams/${a!.teamId}`, { method: "DELETE" })).status).toBe(200);
    expect((await board(gameId)).items.map((i) => i.id)).toEqual([b!.teamId]);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(403);
    // The deleted team's first blood went with it: the next solve is the first.
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await board(gameId)).items[0]!.solvedChallenges[0]!.type).toBe("FirstBlood");
  });

  it("leaves out of D1 alone a submission whose participation was deleted behind the room's back", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await board(gameId);
    // Deleted in D1 without telling the room (deletions through the API tell it first): the room still
    // takes b's flags; D1 refuses the row when the room writes it, and only that row.
    await env.DB.prepare("DELETE FROM participations WHERE id = ?1").bind(b!.participationId).run();
    const [mine, theirs] = await Promise.all([submit(a!, gameId, cid, "wrong"), submit(b!, gameId, cid, "f")]);
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    await settle(gameId);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).all();
    expect(rows.map((r) => [r.id, r.participationId, r.status])).toEqual([[mine.body, a!.participationId, "WrongAnswer"]]);
    expect(await db().select().from(firstSolves).where(eq(firstSolves.gameId, gameId)).all()).toEqual([]);
    expect((await statusOf(a!, gameId, cid, mine.body as number)).body).toBe("WrongAnswer");
    // The room goes on writing: the next submission reaches D1 too.
    const again = await submit(a!, gameId, cid, "f");
    expect(again.status).toBe(200);
    await settle(gameId);
    expect((await db().select().from(submissions).where(eq(submissions.id, again.body as number)).get())?.status).toBe("Accepted");
  });

  /** A captain and one member of a new team, both joined to the game, the team accepted. */
  async function acceptedPair(admin: Client, gameId: number) {
    const { captain, team, members } = await teamWithMembers(1);
    const member = members[0]!;
    expect((await join(captain.client, gameId, { teamId: team.id })).status).toBe(200);
    expect((await join(member.client, gameId, { teamId: team.id })).status).toBe(200);
    const row = await env.DB.prepare("SELECT id FROM participations WHERE game_id = ?1 AND team_id = ?2").bind(gameId, team.id).first<{ id: number }>();
    expect((await admin.json(`/api/admin/participation/${row!.id}/Accepted`, { method: "PUT" })).status).toBe(200);
    return { captain, team, member, participationId: row!.id };
  }

  it("a member removed by the captain stops playing before the call returns", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const { captain, team, member } = await acceptedPair(admin, gameId);
    expect((await member.client.json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "wrong" } })).status).toBe(200);
    // An admin lifts the lock during the game; the captain removes the member.
    expect((await admin.json(`/api/admin/teams/${team.id}`, { method: "PUT", body: { locked: false } })).status).toBe(200);
    expect((await captain.client.json(`/api/team/${team.id}/kick/${member.id}`, { method: "POST" })).status).toBe(200);
    expect((await member.client.json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } })).status).toBe(403);
    expect((await captain.client.json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } })).status).toBe(200);
  });

  it("keeps a deleted user's submissions and solves, with the user cleared", async () => {
    // submissions.user_id has no index (migration 0001): the ON DELETE SET NULL finds the rows by a scan.
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const { team, member, participationId } = await acceptedPair(admin, gameId);
    const wrong = await member.client.json<number>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "nope" } });
    const right = await member.client.json<number>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } });
    expect([wrong.status, right.status]).toEqual([200, 200]);
    await settle(gameId);
    expect((await admin.json(`/api/admin/users/${member.id}`, { method: "DELETE" })).status).toBe(200);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).orderBy(submissions.id).all();
    expect(rows.map((r) => [r.id, r.status, r.userId])).toEqual([
      [wrong.body, "WrongAnswer", null],
      [right.body, "Accepted", null],
    ]);
    const solve = await db().select().from(firstSolves).where(eq(firstSolves.submissionId, right.body)).get();
    expect(solve).toMatchObject({ participationId, userId: null });
    // The team keeps its points (1,000 and the first blood's 5 %).
    expect((await board(gameId)).items.find((i) => i.id === team.id)!.score).toBe(1050);
  });
});

describe("a deleted game", () => {
  it("leaves nothing in its room's own storage: the journal, the alarm and every key go", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const stored = () =>
      runInDurableObject(room(gameId), async (_i, state) => ({
        journal: state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'journal'").toArray().length,
        alarm: await state.storage.getAlarm(),
        keys: (await state.storage.list()).size,
      }));
    expect((await stored()).journal).toBe(1);
    expect((await admin.json(`/api/edit/games/${gameId}`, { method: "DELETE" })).status).toBe(200);
    expect(await stored()).toEqual({ journal: 0, alarm: null, keys: 0 });
  });
});

describe("exact bloods under concurrency", () => {
  it("gives one First, Second and Third blood in judging order to 200 simultaneous solvers", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{race}"] });
    const players = await seedPlayers(gameId, 200);
    await ensureInstances(gameId, cid);
    const results = await Promise.all(players.map((p) => submit(p, gameId, cid, "flag{race}")));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const ids = results.map((r) => r.body as number);
    expect(new Set(ids).size).toBe(200);
    await settle(gameId);

    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves).toHaveLength(200);
    expect(solves.slice(0, 4).map((s) => s.type)).toEqual(["FirstBlood", "SecondBlood", "ThirdBlood", "Normal"]);
    expect(solves.filter((s) => s.type === "FirstBlood")).toHaveLength(1);
    expect(solves.filter((s) => s.type === "SecondBlood")).toHaveLength(1);
    expect(solves.filter((s) => s.type === "ThirdBlood")).toHaveLength(1);
    const minId = Math.min(...ids);
    expect(solves[0]!.submissionId).toBe(minId);

    const b = await board(gameId);
    const info = Object.values(b.challenges).flat()[0]!;
    expect(info.solved).toBe(200);
    // n = 200 with defaults: floor(1000 × (0.25 + 0.75 × e^(-199/5))) = 250; bloods +5 %, +3 %, +1 % rounded half to even (262.5 → 262, 257.5 → 258, 252.5 → 252).
    expect(info.score).toBe(250);
    expect(info.bloods.map((x) => x.id)).toEqual(solves.slice(0, 3).map((s) => players.find((p) => p.participationId === s.participationId)!.teamId));
    expect(b.items.slice(0, 3).map((i) => i.score)).toEqual([262, 258, 252]);
    expect(b.items.slice(3).every((i) => i.score === 250)).toBe(true);
    expect(b.items.map((i) => i.rank)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const notices = await db().select().from(gameNotices).where(eq(gameNotices.gameId, gameId)).all();
    expect(notices.map((n) => n.type).filter((t) => t.endsWith("Blood")).sort()).toEqual(["FirstBlood", "SecondBlood", "ThirdBlood"]);
  });
});

describe("cheat detection", () => {
  it("flags another team's dynamic flag, never a static one", async () => {
    const { admin, gameId } = await setup();
    const dyn = await makeChallenge(admin, gameId, { type: "DynamicContainer", fields: { containerImage: "busybox:latest" } });
    const stat = await makeChallenge(admin, gameId, { flags: ["flag{shared}"] });
    const [a, b] = await seedPlayers(gameId, 2);
    const players = [a!, b!];
    await ensureInstances(gameId, dyn, (p) => `flag{own-${p.participationId}}`, players);
    await ensureInstances(gameId, stat);

    const stolen = await submit(b!, gameId, dyn, `flag{own-${a!.participationId}}`);
    const own = await submit(b!, gameId, dyn, `flag{own-${b!.participationId}}`);
    const shared = await submit(b!, gameId, stat, "flag{shared}");
    await settle(gameId);
    // Players never see CheatDetected.
    expect((await statusOf(b!, gameId, dyn, stolen.body as number)).body).toBe("WrongAnswer");
    expect((await statusOf(b!, gameId, dyn, own.body as number)).body).toBe("Accepted");
    expect((await statusOf(b!, gameId, stat, shared.body as number)).body).toBe("Accepted");
    const row = await db().select().from(submissions).where(eq(submissions.id, stolen.body as number)).get();
    expect(row!.status).toBe("CheatDetected");
    const cheats = await db().select().from(cheatInfos).where(eq(cheatInfos.gameId, gameId)).all();
    expect(cheats).toEqual([expect.objectContaining({ ownedParticipationId: a!.participationId, submitParticipationId: b!.participationId, submissionId: stolen.body })]);
    const events = await db().select().from(gameEvents).where(and(eq(gameEvents.gameId, gameId), eq(gameEvents.type, "CheatDetected"))).all();
    expect(events).toHaveLength(1);
    expect(events[0]!.values).toEqual([expect.any(String), b!.teamName, a!.teamName]);

    const monitor = (await newAdmin()).client;
    const info = await monitor.json<{ ownedTeam: { team: { id: number } }; submitTeam: { team: { id: number } }; submission: { status: string; user: string } }[]>(`/api/game/${gameId}/cheatinfo`);
    expect(info.status).toBe(200);
    expect(info.body).toHaveLength(1);
    expect(info.body[0]!.ownedTeam.team.id).toBe(a!.teamId);
    expect(info.body[0]!.submitTeam.team.id).toBe(b!.teamId);
    expect(info.body[0]!.submission).toMatchObject({ status: "CheatDetected", user: b!.userName });
    const subs = await monitor.json<{ status: string }[]>(`/api/game/${gameId}/submissions?type=CheatDetected`);
    expect(subs.body.map((s) => s.status)).toEqual(["CheatDetected"]);
    expect((await b!.client.json(`/api/game/${gameId}/cheatinfo`)).status).toBe(403);
  });
});

describe("the monitor's submission list", () => {
  it("narrows to one challenge, one team and one status, together, and refuses a bad filter in the caller's language", async () => {
    const { admin, gameId } = await setup();
    const one = await makeChallenge(admin, gameId, { flags: ["f1"] });
    const two = await makeChallenge(admin, gameId, { flags: ["f2"] });
    const [a, b] = await seedPlayers(gameId, 2);
    for (const [p, cid, flag] of [[a!, one, "f1"], [a!, two, "x"], [b!, one, "x"], [b!, two, "f2"], [b!, one, "f1"]] as const) expect((await submit(p, gameId, cid, flag)).status).toBe(200);
    await settle(gameId);
    const list = async (query: string) => {
      const r = await admin.json<{ team: string; challengeId: number; teamId: number; status: string }[]>(`/api/game/${gameId}/submissions?${query}`);
      expect(r.status).toBe(200);
      return r.body.map((s) => [s.teamId === a!.teamId ? "a" : "b", s.challengeId === one ? 1 : 2, s.status]);
    };
    expect(await list(`challengeId=${one}`)).toEqual([["b", 1, "Accepted"], ["b", 1, "WrongAnswer"], ["a", 1, "Accepted"]]);
    expect(await list(`teamId=${b!.teamId}`)).toEqual([["b", 1, "Accepted"], ["b", 2, "Accepted"], ["b", 1, "WrongAnswer"]]);
    expect(await list(`teamId=${b!.teamId}&challengeId=${one}&type=WrongAnswer`)).toEqual([["b", 1, "WrongAnswer"]]);
    expect(await list(`teamId=${a!.teamId}&challengeId=${two}&type=Accepted`)).toEqual([]);
    // Another game's challenge filters to nothing, not to that game's rows.
    expect(await list(`challengeId=${one + 1000}`)).toEqual([]);
    // The events monitor's team filter.
    const events = await admin.json<{ type: string; team: string; teamId: number }[]>(`/api/game/${gameId}/events?teamId=${a!.teamId}`);
    expect(events.status).toBe(200);
    expect(events.body.map((e) => [e.type, e.team, e.teamId])).toEqual([
      ["FlagSubmit", a!.teamName, a!.teamId],
      ["FlagSubmit", a!.teamName, a!.teamId],
    ]);
    expect((await admin.json<unknown[]>(`/api/game/${gameId}/events?teamId=${b!.teamId}`)).body).toHaveLength(3);
    const bad = await admin.json<ErrorBody>(`/api/game/${gameId}/submissions?challengeId=abc`, { headers: { "Accept-Language": "ja-JP" } });
    expect(bad.status).toBe(400);
    // The field is named in the caller's language.
    expect(bad.body.title).toContain("問題");
  });
});

describe("practice mode and the end of the game", () => {
  it("judges solves after the end as accepted with 0 points, no blood and no notice", async () => {
    const { admin, gameId } = await setup({ start: Date.now() - 2 * HOUR, end: Date.now() - HOUR });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);
    const r = await submit(a!, gameId, cid, "f");
    expect(r.status).toBe(200);
    await settle(gameId);
    expect((await statusOf(a!, gameId, cid, r.body as number)).body).toBe("Accepted");
    const solve = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).get();
    expect(solve!.type).toBe("Normal");
    expect(await db().select().from(gameNotices).where(eq(gameNotices.gameId, gameId)).all()).toHaveLength(0);
    const b = await board(gameId);
    expect(b.items[0]).toMatchObject({ score: 0, solvedCount: 1, lastSubmissionTime: 0 });
    expect(Object.values(b.challenges).flat()[0]).toMatchObject({ solved: 0, score: 1000, bloods: [] });
  });
});

describe("crash recovery", () => {
  it("judges every FlagSubmitted row exactly once when the room wakes", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{c}"] });
    const players = await seedPlayers(gameId, 5);
    await ensureInstances(gameId, cid);
    // One solve through the room first.
    const first = await submit(players[0]!, gameId, cid, "flag{c}");
    await settle(gameId);
    // Rows acknowledged but never judged (the runtime died after storing them).
    const now = Date.now();
    const inserted = await env.DB.batch(
      [players[1]!, players[2]!, players[1]!, players[3]!, players[0]!].map((p, i) =>
        env.DB.prepare(
          "INSERT INTO submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip) VALUES (?1, ?2, ?3, ?4, ?5, 'FlagSubmitted', ?6, '') RETURNING id",
        ).bind(gameId, cid, p.participationId, p.userId, i === 2 ? "wrong" : "flag{c}", now + i),
      ),
    );
    const ids = inserted.map((r) => (r.results[0] as { id: number }).id);
    await room(gameId).reset(gameId);
    const warmed = await room(gameId).warm(gameId);
    expect(warmed.rejudged).toBe(5);
    await settle(gameId);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).orderBy(submissions.id).all();
    expect(rows.map((r) => r.status)).toEqual(["Accepted", "Accepted", "Accepted", "WrongAnswer", "Accepted", "Accepted"]);
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => [s.submissionId, s.type])).toEqual([
      [first.body, "FirstBlood"],
      [ids[0], "SecondBlood"],
      [ids[1], "ThirdBlood"],
      [ids[3], "Normal"],
    ]);
    // A second challenge solved in another order, so the rebuild reads solves of several challenges.
    const other = await makeChallenge(admin, gameId, { flags: ["flag{d}"] });
    await ensureInstances(gameId, other);
    for (const p of [players[3]!, players[0]!]) expect((await submit(p, gameId, other, "flag{d}")).status).toBe(200);
    await settle(gameId);
    const live = await board(gameId);
    // A second wake finds nothing left to judge and changes nothing: the board rebuilt from D1 (solvers'
    // names, bloods, scores, timelines) is the one the room had built live.
    await room(gameId).reset(gameId);
    expect((await room(gameId).warm(gameId)).rejudged).toBe(0);
    const rebuilt = await board(gameId);
    expect({ ...rebuilt, updateTimeUtc: 0, version: 0 }).toEqual({ ...live, updateTimeUtc: 0, version: 0 });
    expect(rebuilt.items.flatMap((i) => i.solvedChallenges.map((c) => [c.id, c.type, c.userName]))).toContainEqual([other, "FirstBlood", players[3]!.userName]);
    const events = await db().select().from(gameEvents).where(eq(gameEvents.gameId, gameId)).all();
    expect(events.filter((e) => e.type === "FlagSubmit")).toHaveLength(8); // 6 on the first challenge, 2 on the other
    expect(rebuilt.items.filter((i) => i.solvedCount >= 1)).toHaveLength(4);
  });
});

describe("the room's journal", () => {
  it("settledRunsClear: a flush or drain with nothing to do leaves the room free for the next one", async () => {
    const { admin, gameId } = await setup();
    await makeChallenge(admin, gameId, { flags: ["f"] });
    await runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as { flush(): Promise<void>; drain(): Promise<boolean>; flushing: unknown; draining: unknown };
      await r.flush();
      expect(r.flushing).toBeNull();
      expect(await r.drain()).toBe(true);
      expect(r.draining).toBeNull();
    });
  });

  it("keeps judging while monitors read the lists between submissions (the flush timer fires on an empty queue)", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const players = await seedPlayers(gameId, 4);
    for (let round = 0; round < 5; round++) {
      // Each submission arms the room's flush timer; the list flushes the queue before the timer fires.
      const [sent, listed] = await Promise.all([
        Promise.all(players.map((p) => submit(p, gameId, cid, `wrong ${round}`))),
        admin.json<unknown[]>(`/api/game/${gameId}/submissions?count=1`),
      ]);
      expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      expect(listed.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect((await submit(players[0]!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const { body } = await admin.json<{ status: string }[]>(`/api/game/${gameId}/submissions?count=50`);
    expect(body).toHaveLength(21);
    expect(body.filter((s) => s.status === "Accepted")).toHaveLength(1);
  });

  /** Rows as the room journals them, put straight into its storage (what a restart finds there). */
  async function journal(gameId: number, rows: [id: number, challengeId: number, p: Player, answer: string, time: number][]) {
    await runInDurableObject(room(gameId), (_instance, state) => {
      for (const [id, challengeId, p, answer, time] of rows) {
        state.storage.sql.exec(
          "INSERT INTO journal (id, game_id, challenge_id, participation_id, user_id, user_name, answer, submit_time, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, '')",
          id,
          gameId,
          challengeId,
          p.participationId,
          p.userId,
          p.userName,
          answer,
          time,
        );
      }
    });
  }

  /** Ids no insert can take any more (what the room's block reservation does). */
  async function reserveIds(n: number): Promise<number[]> {
    const results = await env.DB.batch(reserveIdsStatements(env.DB, n));
    const last = (results[results.length - 1]!.results[0] as { seq: number }).seq;
    return Array.from({ length: n }, (_, i) => last - n + 1 + i);
  }

  it("writes every submission to D1 with the id its player got, judged once", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{j}"] });
    const players = await seedPlayers(gameId, 3);
    await ensureInstances(gameId, cid);
    const sent = await Promise.all(players.flatMap((p) => [submit(p, gameId, cid, "wrong"), submit(p, gameId, cid, "flag{j}")]));
    const ids = sent.map((r) => r.body as number);
    expect(sent.every((r) => r.status === 200)).toBe(true);
    expect(new Set(ids).size).toBe(6);
    // The monitor list reads D1: the room writes everything it judged before the list is read.
    const { body: listed } = await admin.json<{ id: number; status: string }[]>(`/api/game/${gameId}/submissions?count=50`);
    expect(listed.map((r) => r.id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y));
    expect(listed.filter((r) => r.status === "Accepted")).toHaveLength(3);
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => s.type)).toEqual(["FirstBlood", "SecondBlood", "ThirdBlood"]);
    // Ids ascend in judging order: the solves' ids are the accepted submissions' ids, in blood order.
    expect(solves.map((s) => s.submissionId)).toEqual(listed.filter((r) => r.status === "Accepted").map((r) => r.id).sort((x, y) => x - y));
  });

  it("judges journaled rows D1 does not have when the room wakes, and skips those it has", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{w}"] });
    const players = await seedPlayers(gameId, 3);
    await ensureInstances(gameId, cid);
    const first = await submit(players[0]!, gameId, cid, "flag{w}");
    await settle(gameId);
    // The runtime died after journaling three rows, and after a drain of a fourth (first) had committed
    // in D1 but before it left the journal.
    const [x, y, z] = await reserveIds(3);
    const now = Date.now();
    await room(gameId).reset(gameId);
    await journal(gameId, [
      [first.body as number, cid, players[0]!, "flag{w}", now - 10],
      [x!, cid, players[1]!, "flag{w}", now],
      [y!, cid, players[2]!, "nope", now + 1],
      [z!, cid, players[2]!, "flag{w}", now + 2],
    ]);
    const warmed = await room(gameId).warm(gameId);
    expect(warmed.rejudged).toBe(3);
    await settle(gameId);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).orderBy(submissions.id).all();
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [first.body, "Accepted"],
      [x, "Accepted"],
      [y, "WrongAnswer"],
      [z, "Accepted"],
    ]);
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => [s.submissionId, s.type])).toEqual([
      [first.body, "FirstBlood"],
      [x, "SecondBlood"],
      [z, "ThirdBlood"],
    ]);
    const events = await db().select().from(gameEvents).where(and(eq(gameEvents.gameId, gameId), eq(gameEvents.type, "FlagSubmit"))).all();
    expect(events).toHaveLength(4);
    expect((await db().select().from(challenges).where(eq(challenges.id, cid)).get())?.acceptedCount).toBe(3);
    // Nothing is left to judge: a second wake changes nothing.
    await room(gameId).reset(gameId);
    expect((await room(gameId).warm(gameId)).rejudged).toBe(0);
    expect(await runInDurableObject(room(gameId), (_i, state) => state.storage.sql.exec("SELECT count(*) AS n FROM journal").one().n)).toBe(0);
    // The player asks for the status of a row judged on wake: the room answers it.
    expect((await statusOf(players[2]!, gameId, cid, z!)).body).toBe("Accepted");
  });

  /** Makes the room's next flag reads wait for `gate` (the first only) or fail (while `failing()`). */
  async function holdFlagReads(gameId: number, opts: { gate?: Promise<void>; reached?: () => void; failing?: () => boolean }) {
    await runInDurableObject(room(gameId), (instance) => {
      const r = instance as unknown as { flagCache: (...args: unknown[]) => Promise<unknown> };
      const original = r.flagCache.bind(r);
      let gate = opts.gate;
      r.flagCache = async (...args: unknown[]) => {
        if (opts.failing?.()) throw new Error("D1 refused the read (test)");
        if (gate) {
          const held = gate;
          gate = undefined;
          opts.reached?.();
          await held;
        }
        return original(...args);
      };
    });
  }

  it("a submission that comes while a woken room judges its journal waits: the journal's older rows keep their bloods", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{o}"] });
    const players = await seedPlayers(gameId, 3);
    await ensureInstances(gameId, cid);
    // A wrong flag first: the room makes its journal on first use.
    expect((await submit(players[0]!, gameId, cid, "wrong")).status).toBe(200);
    await settle(gameId);
    await room(gameId).reset(gameId);
    const [x, y] = await reserveIds(2);
    const now = Date.now();
    await journal(gameId, [
      [x!, cid, players[1]!, "flag{o}", now],
      [y!, cid, players[2]!, "flag{o}", now + 1],
    ]);
    let open!: () => void;
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    await holdFlagReads(gameId, { gate: new Promise<void>((resolve) => (open = resolve)), reached });
    const waking = room(gameId).warm(gameId);
    // The wake is judging the journal's first row (its flag read held) when a new submission comes.
    await atGate;
    const late = submit(players[0]!, gameId, cid, "flag{o}");
    const early = await Promise.race([late.then(() => "answered"), new Promise((resolve) => setTimeout(() => resolve("waiting"), 300))]);
    open();
    expect((await waking).rejudged).toBe(2);
    expect((await late).status).toBe(200);
    expect(early).toBe("waiting");
    await settle(gameId);
    // (The reset room kept its ids: the late submission's may be lower than the journal's here; a restarted
    // runtime reserves new ones above them.)
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).all();
    expect(Object.fromEntries(solves.map((s) => [s.submissionId, s.type]))).toEqual({ [x!]: "FirstBlood", [y!]: "SecondBlood", [(await late).body as number]: "ThirdBlood" });
  });

  it("judges again, in order, submissions whose judging failed, and keeps them journaled until D1 has them", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{r}"] });
    const players = await seedPlayers(gameId, 3);
    await ensureInstances(gameId, cid);
    let failing = true;
    await holdFlagReads(gameId, { failing: () => failing });
    const first = await submit(players[0]!, gameId, cid, "flag{r}");
    expect(first.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await statusOf(players[0]!, gameId, cid, first.body as number)).body).toBe("FlagSubmitted");
    const journaled = () => runInDurableObject(room(gameId), (_i, state) => state.storage.sql.exec("SELECT id FROM journal").toArray().map((r) => r.id));
    expect(await journaled()).toEqual([first.body]);
    // D1 answers again; a later solve is judged after the waiting one, which keeps its blood.
    failing = false;
    const second = await submit(players[1]!, gameId, cid, "flag{r}");
    await settle(gameId);
    let solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => [s.submissionId, s.type])).toEqual([
      [first.body, "FirstBlood"],
      [second.body, "SecondBlood"],
    ]);
    // With no later submission the retry comes by itself.
    failing = true;
    const third = await submit(players[2]!, gameId, cid, "flag{r}");
    await new Promise((resolve) => setTimeout(resolve, 50));
    failing = false;
    let status: unknown = "FlagSubmitted";
    for (let i = 0; i < 40 && status === "FlagSubmitted"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await statusOf(players[2]!, gameId, cid, third.body as number)).body;
    }
    expect(status).toBe("Accepted");
    await settle(gameId);
    solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => s.type)).toEqual(["FirstBlood", "SecondBlood", "ThirdBlood"]);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).all();
    expect(rows.map((r) => r.status)).toEqual(["Accepted", "Accepted", "Accepted"]);
    expect(await journaled()).toEqual([]);
  });

  it("arms its alarm when it journals; the alarm judges and writes a restarted room's journal without a request", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["flag{a}"] });
    const players = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    const before = Date.now();
    const first = await submit(players[0]!, gameId, cid, "flag{a}");
    expect(first.status).toBe(200);
    const armed = await runInDurableObject(room(gameId), (_i, state) => state.storage.getAlarm());
    expect(armed).toBeGreaterThanOrEqual(before);
    // The runtime died with two rows in the journal only, and its alarm still set (it is stored).
    await room(gameId).reset(gameId);
    const [x, y] = await reserveIds(2);
    const now = Date.now();
    await journal(gameId, [
      [x!, cid, players[1]!, "flag{a}", now],
      [y!, cid, players[0]!, "nope", now + 1],
    ]);
    await runInDurableObject(room(gameId), (_i, state) => state.storage.setAlarm(Date.now() + 60_000));
    // Nothing but the alarm: no board read, no submission, no monitor list.
    expect(await runDurableObjectAlarm(room(gameId))).toBe(true);
    const rows = await db().select().from(submissions).where(eq(submissions.gameId, gameId)).orderBy(submissions.id).all();
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [first.body, "Accepted"],
      [x, "Accepted"],
      [y, "WrongAnswer"],
    ]);
    const solves = await db().select().from(firstSolves).where(eq(firstSolves.challengeId, cid)).orderBy(firstSolves.submissionId).all();
    expect(solves.map((s) => [s.submissionId, s.type])).toEqual([
      [first.body, "FirstBlood"],
      [x, "SecondBlood"],
    ]);
    expect(await runInDurableObject(room(gameId), (_i, state) => state.storage.sql.exec("SELECT count(*) AS n FROM journal").one().n)).toBe(0);
  });
});

describe("scoreboard", () => {
  it("serves the board with an ETag and 304, and changes it before an edit returns", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);
    const anon = new Client();
    const first = await anon.fetch(`/api/game/${gameId}/scoreboard`);
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^W\//);
    const again = await anon.fetch(`/api/game/${gameId}/scoreboard`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    await submit(a!, gameId, cid, "f");
    await settle(gameId);
    const changed = await anon.fetch(`/api/game/${gameId}/scoreboard`, { headers: { "if-none-match": etag } });
    expect(changed.status).toBe(200);
    const body = (await changed.json()) as ScoreboardModel;
    expect(body.items[0]!.score).toBe(1050);
    // A challenge edit is visible as soon as the call returns.
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { originalScore: 500 } })).status).toBe(200);
    expect((await board(gameId)).items[0]!.score).toBe(525);
    // Paged first page.
    const page = await anon.json<ScoreboardModel & { total: number }>(`/api/game/${gameId}/scoreboard?count=1`);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBe(1);
    // Hidden games: monitors only.
    expect((await updateGame(admin, gameId, { hidden: true })).status).toBe(200);
    expect((await anon.json(`/api/game/${gameId}/scoreboard`)).status).toBe(401);
    expect((await a!.client.json(`/api/game/${gameId}/scoreboard`)).status).toBe(403);
    expect((await admin.json(`/api/game/${gameId}/scoreboard`)).status).toBe(200);
  });

  it("serves a board read again whole and the same, and never a hidden board a monitor read to anyone else", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const anon = new Client();
    // Reads after the first are answered from the bytes the room shared (workers/game-room/board-copies.ts):
    // each one whole, with the same validators, gzipped or not.
    for (const encoding of ["identity", "gzip"]) {
      const reads = [];
      for (let i = 0; i < 3; i++) {
        const res = await anon.fetch(`/api/game/${gameId}/scoreboard?count=10`, { headers: { "accept-encoding": encoding }, encodeResponseBody: "manual" });
        expect(res.status).toBe(200);
        reads.push({ etag: res.headers.get("etag"), coding: res.headers.get("content-encoding"), bytes: [...new Uint8Array(await res.arrayBuffer())].join(",") });
      }
      expect(reads[0]!.bytes.length).toBeGreaterThan(100);
      expect(reads[0]!.coding).toBe(encoding === "gzip" ? "gzip" : null);
      expect(new Set(reads.map((r) => JSON.stringify(r))).size).toBe(1);
    }
    // A hidden game's board, read by a monitor, reaches no one else.
    expect((await updateGame(admin, gameId, { hidden: true })).status).toBe(200);
    for (const encoding of ["identity", "gzip"]) {
      expect((await admin.fetch(`/api/game/${gameId}/scoreboard?count=10`, { headers: { "accept-encoding": encoding } })).status).toBe(200);
      expect((await anon.fetch(`/api/game/${gameId}/scoreboard?count=10`, { headers: { "accept-encoding": encoding } })).status).toBe(401);
      expect((await a!.client.fetch(`/api/game/${gameId}/scoreboard?count=10`, { headers: { "accept-encoding": encoding } })).status).toBe(403);
    }
    // Shown again: everyone reads it at once.
    expect((await updateGame(admin, gameId, { hidden: false })).status).toBe(200);
    expect((await anon.fetch(`/api/game/${gameId}/scoreboard?count=10`)).status).toBe(200);
  });

  it("sends the board gzipped to clients that accept gzip, the same JSON and validators, once per version", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const anon = new Client();
    const gunzip = async (res: Response) => {
      const raw = new Uint8Array(await res.arrayBuffer());
      expect([raw[0], raw[1]]).toEqual([0x1f, 0x8b]);
      return new Response(new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
    };
    for (const path of [`/api/game/${gameId}/scoreboard`, `/api/game/${gameId}/scoreboard?count=1`]) {
      const plain = await anon.fetch(path, { headers: { "accept-encoding": "identity" } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("vary")).toMatch(/accept-encoding/i);
      const plainText = await plain.text();
      const zipped = await anon.fetch(path, { headers: { "accept-encoding": "gzip, deflate, br" }, encodeResponseBody: "manual" });
      expect(zipped.status).toBe(200);
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(zipped.headers.get("vary")).toMatch(/accept-encoding/i);
      expect(zipped.headers.get("etag")).toBe(plain.headers.get("etag"));
      const inflated = await gunzip(zipped);
      expect(inflated).toBe(plainText);
      expect((JSON.parse(inflated) as ScoreboardModel).items[0]!.score).toBe(1050);
      // The validators work the same with either coding.
      const cached = await anon.fetch(path, { headers: { "accept-encoding": "gzip", "if-none-match": zipped.headers.get("etag")! } });
      expect(cached.status).toBe(304);
      expect(cached.headers.get("vary")).toMatch(/accept-encoding/i);
    }
    // A new version is compressed anew: the second team's solve is in the next gzipped read.
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    const next = await anon.fetch(`/api/game/${gameId}/scoreboard`, { headers: { "accept-encoding": "gzip" }, encodeResponseBody: "manual" });
    expect(next.headers.get("content-encoding")).toBe("gzip");
    expect((JSON.parse(await gunzip(next)) as ScoreboardModel).items.filter((i) => i.solvedCount === 1)).toHaveLength(2);
  });

  it("shows a renamed solver's new name on the board before the rename returns", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    expect((await board(gameId)).items[0]!.solvedChallenges[0]!.userName).toBe(a!.userName);
    const renamed = unique("rn").slice(-15);
    expect((await a!.client.json("/api/account/update", { method: "PUT", body: { userName: renamed } })).status).toBe(200);
    expect((await board(gameId)).items[0]!.solvedChallenges[0]!.userName).toBe(renamed);
    // An admin's rename too.
    const again = unique("ad").slice(-15);
    expect((await admin.json(`/api/admin/users/${a!.userId}`, { method: "PUT", body: { userName: again } })).status).toBe(200);
    expect((await board(gameId)).items[0]!.solvedChallenges[0]!.userName).toBe(again);
  });

  it("takes a deleted solver's name off the board at once, as a rebuilt room shows it", async () => {
    const { admin, gameId } = await setup({ acceptWithoutReview: true });
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const { captain, team, members } = await teamWithMembers(1);
    const member = members[0]!;
    for (const client of [captain.client, member.client]) expect((await join(client, gameId, { teamId: team.id })).status).toBe(200);
    expect((await member.client.json(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } })).status).toBe(200);
    await settle(gameId);
    const solver = async () => (await board(gameId)).items.find((i) => i.id === team.id)!.solvedChallenges[0]!.userName;
    expect(await solver()).toBe(member.userName);
    expect((await admin.json(`/api/admin/users/${member.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await solver()).toBe("");
    await room(gameId).reset(gameId);
    expect(await solver()).toBe("");
  });

  it("a player's view read right after an Accepted verdict shows the solve the board has not batched yet", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await board(gameId);
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    await settle(gameId);
    await holdBoardDeltas(gameId);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as {
        pendingSolves: unknown[];
        details(gameId: number, userId: string): Promise<{ ok: true; body: string } | { ok: false }>;
      };
      // Judged, its solve waiting for the board's next delta.
      for (let i = 0; i < 200 && r.pendingSolves.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(r.pendingSolves).toHaveLength(1);
      const read = await r.details(gameId, a!.userId);
      expect(read.ok).toBe(true);
      const details = JSON.parse((read as { body: string }).body) as { rank: { solvedChallenges: { id: number }[] }; challenges: Record<string, { id: number; solved: number }[]> };
      expect(details.rank.solvedChallenges.map((s) => s.id)).toEqual([cid]);
      expect(Object.values(details.challenges).flat().find((c) => c.id === cid)?.solved).toBe(2);
    });
    // Another team's pending solve is left to its batch (the details read above made a delta: held again).
    const [c] = await seedPlayers(gameId, 1);
    await holdBoardDeltas(gameId);
    expect((await submit(c!, gameId, cid, "f")).status).toBe(200);
    await runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as { pendingSolves: unknown[]; details(gameId: number, userId: string): Promise<unknown> };
      for (let i = 0; i < 200 && r.pendingSolves.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(r.pendingSolves).toHaveLength(1);
      await r.details(gameId, a!.userId);
      expect(r.pendingSolves).toHaveLength(1);
    });
  });

  it("a solve right after the board's last delta waits for the interval; one after a quiet spell goes at once", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await board(gameId);
    type Internals = { pendingSolves: unknown[]; boardDeltaAt: number; boardVersion: number };
    const peek = () => runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as Internals;
      return { pending: r.pendingSolves.length, version: r.boardVersion };
    });
    // A delta was just made: the next solve waits the interval (a minute here) for others to come.
    await holdBoardDeltas(gameId);
    const before = await peek();
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    for (let i = 0; i < 500 && (await peek()).pending === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await peek()).toEqual({ pending: 1, version: before.version });
    await settle(gameId);
    expect((await board(gameId)).items.find((item) => item.id === a!.teamId)?.solvedChallenges.map((s) => s.id)).toEqual([cid]);

    // The last delta a while ago: the next solve makes its delta without waiting the interval (still a minute).
    await runInDurableObject(room(gameId), async (instance) => {
      (instance as unknown as Internals).boardDeltaAt = Date.now() - 1_000;
    });
    const quiet = await peek();
    expect((await submit(b!, gameId, cid, "f")).status).toBe(200);
    let now = await peek();
    for (let i = 0; i < 500 && now.version === quiet.version; i++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      now = await peek();
    }
    expect(now).toEqual({ pending: 0, version: quiet.version + 1 });
  });

  it("a submission right after another waits for the flush's batch; one that came alone is stored at once", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await board(gameId);
    type Internals = { queue: unknown[]; arrivedAt: number; flushDelayMs: number };
    // A submission just came (for the next minute: the POST below takes its own milliseconds to arrive) and
    // flushes wait a minute: the next one waits in the queue, unanswered.
    await runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as Internals;
      r.arrivedAt = Date.now() + 60_000;
      r.flushDelayMs = 60_000;
    });
    let answered = false;
    const first = submit(a!, gameId, cid, "wrong").then((r) => {
      answered = true;
      return r;
    });
    const queued = () => runInDurableObject(room(gameId), async (instance) => (instance as unknown as Internals).queue.length);
    for (let i = 0; i < 500 && (await queued()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await queued()).toBe(1);
    expect(answered).toBe(false);

    // The last one came a while ago: this one is stored at once (the flush's delay is still a minute), and the
    // one waiting goes in the same batch, first.
    await runInDurableObject(room(gameId), async (instance) => {
      (instance as unknown as Internals).arrivedAt = Date.now() - 1_000;
    });
    const second = await Promise.race([submit(b!, gameId, cid, "f"), new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]);
    if (second === null) throw new Error("the submission that came alone waited for the flush's delay");
    expect(second.status).toBe(200);
    const firstAnswer = await first;
    expect(firstAnswer.status).toBe(200);
    expect(firstAnswer.body as number).toBeLessThan(second.body as number);
    expect(await queued()).toBe(0);
  });

  it("a board read right after an Accepted verdict has the solve the board has not batched yet", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a] = await seedPlayers(gameId, 1);
    await board(gameId);
    await holdBoardDeltas(gameId);
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await runInDurableObject(room(gameId), async (instance) => {
      const r = instance as unknown as {
        pendingSolves: unknown[];
        readBoard(gameId: number): Promise<{ kind: string; body?: Uint8Array }>;
      };
      for (let i = 0; i < 200 && r.pendingSolves.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 1));
      expect(r.pendingSolves).toHaveLength(1);
      const read = await r.readBoard(gameId);
      expect(read.kind).toBe("ok");
      const model = JSON.parse(new TextDecoder().decode(read.body)) as ScoreboardModel;
      expect(model.items.find((item) => item.id === a!.teamId)?.solvedChallenges.map((s) => s.id)).toEqual([cid]);
      expect(r.pendingSolves).toHaveLength(0);
    });
  });

  it("ranks by division and skips overall ranks without RankOverall", async () => {
    const { admin, gameId } = await setup();
    const edit = await updateGame(admin, gameId, {
      divisions: [
        { name: "Open", defaultPermissions: 2147483647 },
        { name: "Guests", defaultPermissions: 2147483647 & ~2 },
      ],
    });
    expect(edit.status).toBe(200);
    const divs = (edit.body as unknown as { divisions: { id: number; name: string }[] }).divisions;
    const open = divs.find((d) => d.name === "Open")!.id;
    const guests = divs.find((d) => d.name === "Guests")!.id;
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const openers = await seedPlayers(gameId, 2, { divisionId: open });
    const [guest] = await seedPlayers(gameId, 1, { divisionId: guests });
    await ensureInstances(gameId, cid);
    await submit(guest!, gameId, cid, "f");
    await settle(gameId);
    await submit(openers[1]!, gameId, cid, "f");
    await settle(gameId);
    const b = await board(gameId);
    const byTeam = new Map(b.items.map((i) => [i.id, i]));
    expect(byTeam.get(guest!.teamId)).toMatchObject({ rank: 0, divisionRank: 1 });
    expect(byTeam.get(openers[1]!.teamId)).toMatchObject({ rank: 1, divisionRank: 1 });
    expect(byTeam.get(openers[0]!.teamId)).toMatchObject({ rank: 2, divisionRank: 2 });
    expect(b.timelines.find((t) => t.divisionId === 0)!.teams.map((t) => t.id)).toEqual([openers[1]!.teamId, openers[0]!.teamId]);
  });

  it("gives players their details with own rank and visible challenges only", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"], category: "Crypto" });
    await admin.json(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: "hidden", category: "Misc", type: "StaticAttachment" } });
    const [a] = await seedPlayers(gameId, 1);
    await ensureInstances(gameId, cid);
    await submit(a!, gameId, cid, "f");
    await settle(gameId);
    const d = await a!.client.json<{ challenges: Record<string, { id: number; score: number }[]>; challengeCount: number; rank: { rank: number; score: number }; teamToken: string }>(`/api/game/${gameId}/details`);
    expect(d.status).toBe(200);
    expect(Object.keys(d.body.challenges)).toEqual(["Crypto"]);
    expect(d.body.challengeCount).toBe(1);
    expect(d.body.rank).toMatchObject({ rank: 1, score: 1050 });
    expect(d.body.teamToken).toBe(`token-${a!.teamId}`);
    expect(d.res.headers.get("cache-control")).toContain("private");
  });
});

describe("pushes", () => {
  async function openSocket(client: Client, path: string) {
    const res = await client.fetch(path, { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const messages: { type: string; seq: number; data: Record<string, unknown> }[] = [];
    ws.addEventListener("message", (e) => messages.push(JSON.parse(e.data as string)));
    ws.accept();
    return { ws, messages };
  }

  async function waitFor<T>(fn: () => T | undefined, ms = 3000): Promise<T> {
    const start = Date.now();
    for (;;) {
      const v = fn();
      if (v) return v;
      if (Date.now() - start > ms) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("pushes the verdict to the team, the submission and events to monitors, and board deltas", async () => {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    const mine = await openSocket(a!.client, `/hub/game/${gameId}`);
    const theirs = await openSocket(b!.client, `/hub/game/${gameId}`);
    const monitor = await openSocket(admin, `/hub/game/${gameId}/monitor`);
    const logs = await openSocket(admin, "/hub/admin");
    await waitFor(() => mine.messages.find((m) => m.type === "hello"));
    await waitFor(() => monitor.messages.find((m) => m.type === "hello"));
    await waitFor(() => logs.messages.find((m) => m.type === "hello"));
    // Sent from an address of its own: monitors see where each submission came from (spec §3).
    const fromAddress = new Client({ ip: "203.0.113.7" });
    fromAddress.cookie = (a!.client as Client).cookie;
    const r = await fromAddress.json<number>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag: "f" } });
    const id = r.body;
    const verdict = await waitFor(() => mine.messages.find((m) => m.type === "verdict"));
    expect(verdict.data).toEqual({ submissionId: id, challengeId: cid, status: "Accepted" });
    const sub = await waitFor(() => monitor.messages.find((m) => m.type === "submission"));
    expect(sub.data).toMatchObject({ id, status: "Accepted", team: a!.teamName, user: a!.userName, challengeId: cid, teamId: a!.teamId, ip: "203.0.113.7" });
    const stored = await admin.json<{ id: number; ip: string }[]>(`/api/game/${gameId}/submissions`);
    expect(stored.body.find((l) => l.id === id)?.ip).toBe("203.0.113.7");
    expect((await waitFor(() => monitor.messages.find((m) => m.type === "event"))).data).toMatchObject({ type: "FlagSubmit", teamId: a!.teamId });
    const delta = await waitFor(() => theirs.messages.find((m) => m.type === "scoreboard"));
    // The delta carries the solve itself (first blood: 1,000 + 5 %), from which clients derive the item.
    expect(delta.data.solves).toEqual([expect.objectContaining({ team: a!.teamId, solve: expect.objectContaining({ score: 1050, type: "FirstBlood" }) })]);
    expect(delta.data.refetch).toBe(false);
    const notice = await waitFor(() => theirs.messages.find((m) => m.type === "notice" && m.data.type === "FirstBlood"));
    expect(notice.data).toMatchObject({ type: "FirstBlood", values: [a!.teamName, expect.any(String)] });
    // The other team never sees our verdict, and its seq has no gap from it.
    expect(theirs.messages.some((m) => m.type === "verdict")).toBe(false);
    const seqs = theirs.messages.filter((m) => m.type !== "hello").map((m) => m.seq);
    const hello = theirs.messages.find((m) => m.type === "hello")!.seq;
    expect(seqs).toEqual(seqs.map((_, i) => hello + i + 1));
    // The solve's log record reaches admins' log stream once stored.
    const log = await waitFor(() => logs.messages.find((m) => m.type === "log" && String(m.data.msg).includes(a!.teamName)));
    expect(log.data).toMatchObject({ level: "Information", name: a!.userName, key: "solvedBlood", params: { team: a!.teamName, id: cid, type: "FirstBlood", title: expect.any(String) } });
    const title = String((log.data.params as { title: string }).title);
    expect(log.data.msg).toBe(`Team ${a!.teamName} solved challenge ${title} (#${cid}) — FirstBlood`);
    // Stored with its key and parameters (the room's batched insert), so the list reads as the push did.
    const listed = await admin.json<{ msg: string; key?: string; params?: unknown }[]>("/api/admin/logs?count=100");
    expect(listed.body.find((l) => l.msg === log.data.msg)).toEqual(expect.objectContaining({ key: "solvedBlood", params: log.data.params }));
    for (const s of [mine, theirs, monitor, logs]) s.ws.close(1000);
  });

  /** A game where one team solved a challenge while another team's page holds the board (its socket open). */
  async function solvedUnderWatch() {
    const { admin, gameId } = await setup();
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b] = await seedPlayers(gameId, 2);
    await ensureInstances(gameId, cid);
    const watcher = await openSocket(b!.client, `/hub/game/${gameId}`);
    await waitFor(() => watcher.messages.find((m) => m.type === "hello"));
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await waitFor(() => watcher.messages.find((m) => m.type === "scoreboard"));
    await settle(gameId);
    return { admin, gameId, cid, a: a!, watcher };
  }

  it("withdraws open boards when an edit moves the start past now, pushes nothing more before the start, and brings them back", async () => {
    const { admin, gameId, a, watcher } = await solvedUnderWatch();
    expect((await board(gameId)).items.find((i) => i.id === a.teamId)!.score).toBe(1050);
    const boardPushes = () => watcher.messages.filter((m) => m.type === "scoreboard");
    const shown = boardPushes().length;

    // The start moves past now: the board is refused before the edit returns, and open boards are told to refetch.
    expect((await updateGame(admin, gameId, { start: Date.now() + 25_000 })).status).toBe(200);
    const refused = await new Client().json<ErrorBody>(`/api/game/${gameId}/scoreboard`);
    expect(refused.body.status).toBe(10001);
    const withdrawal = await waitFor(() => boardPushes()[shown]);
    expect(withdrawal.data.refetch).toBe(true);

    // Before the start nobody holds a board: another edit pushes none (a notice after it marks the end of its frames).
    expect((await updateGame(admin, gameId, { summary: "moved" })).status).toBe(200);
    const content = unique("after-edit");
    expect((await admin.json(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content } })).status).toBe(200);
    await waitFor(() => watcher.messages.find((m) => m.type === "notice" && (m.data.values as string[])[0] === content));
    expect(boardPushes()).toHaveLength(shown + 1);

    // The start moves back before now: the boards come back at once.
    expect((await updateGame(admin, gameId, { start: Date.now() - HOUR })).status).toBe(200);
    const back = await waitFor(() => boardPushes()[shown + 1]);
    expect(back.data.refetch).toBe(true);
    expect((await board(gameId)).items.find((i) => i.id === a.teamId)!.score).toBe(1050);
    watcher.ws.close(1000);
  });

  it("pushes no board refetch for an edit that leaves the board as it was, and one for an edit that changes it", async () => {
    const { admin, gameId, cid, watcher } = await solvedUnderWatch();
    const boardPushes = () => watcher.messages.filter((m) => m.type === "scoreboard");
    const shown = boardPushes().length;
    const before = (await new Client().json(`/api/game/${gameId}/scoreboard`)).res.headers.get("etag");

    // A flag added, hints edited, a challenge created (disabled): the board is what it was.
    const flag = await admin.json(`/api/edit/games/${gameId}/challenges/${cid}/flags`, { method: "POST", body: [{ flag: "g" }] });
    expect(flag.status).toBe(200);
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { hints: ["look closer"] } })).status).toBe(200);
    const created = await admin.json(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title: unique("c"), category: "Web", type: "StaticAttachment" } });
    expect(created.status).toBe(200);
    const marker = unique("marker");
    expect((await admin.json(`/api/edit/games/${gameId}/notices`, { method: "POST", body: { content: marker } })).status).toBe(200);
    await waitFor(() => watcher.messages.find((m) => m.type === "notice" && (m.data.values as string[])[0] === marker));
    expect(boardPushes()).toHaveLength(shown);
    expect((await new Client().json(`/api/game/${gameId}/scoreboard`)).res.headers.get("etag")).toBe(before);

    // A title shown on the board changes it: open boards are told to refetch.
    expect((await admin.json(`/api/edit/games/${gameId}/challenges/${cid}`, { method: "PUT", body: { title: unique("renamed") } })).status).toBe(200);
    expect((await waitFor(() => boardPushes()[shown])).data.refetch).toBe(true);
    expect((await new Client().json(`/api/game/${gameId}/scoreboard`)).res.headers.get("etag")).not.toBe(before);
    watcher.ws.close(1000);
  });

  it("pushes a hidden game's board deltas to monitors (players among them), never to players, without seq gaps", async () => {
    const { admin, gameId } = await setup();
    expect((await updateGame(admin, gameId, { hidden: true })).status).toBe(200);
    const cid = await makeChallenge(admin, gameId, { flags: ["f"] });
    const [a, b, c, m] = await seedPlayers(gameId, 4);
    // m plays in the game and is a monitor.
    await env.DB.prepare("UPDATE users SET role = 'Monitor' WHERE id = ?1").bind(m!.userId).run();
    await ensureInstances(gameId, cid);
    const player = await openSocket(b!.client, `/hub/game/${gameId}`);
    const playingMonitor = await openSocket(m!.client, `/hub/game/${gameId}`);
    const adminSocket = await openSocket(admin, `/hub/game/${gameId}`);
    for (const s of [player, playingMonitor, adminSocket]) await waitFor(() => s.messages.find((x) => x.type === "hello"));
    expect((await submit(a!, gameId, cid, "f")).status).toBe(200);
    await waitFor(() => playingMonitor.messages.find((x) => x.type === "scoreboard"));
    await waitFor(() => adminSocket.messages.find((x) => x.type === "scoreboard"));
    expect((await submit(c!, gameId, cid, "f")).status).toBe(200);
    await waitFor(() => player.messages.filter((x) => x.type === "notice").length === 2 || undefined);
    expect(player.messages.some((x) => x.type === "scoreboard")).toBe(false);
    // Both blood notices follow hello without a gap: the deltas the player did not get took no number.
    const hello = player.messages.find((x) => x.type === "hello")!.seq;
    expect(player.messages.filter((x) => x.type === "notice").map((x) => x.seq)).toEqual([hello + 1, hello + 2]);
    for (const s of [player, playingMonitor, adminSocket]) s.ws.close(1000);
  });
});
