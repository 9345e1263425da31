// Crash durability of flag submissions: the real `npm start` server is killed with SIGKILL (launcher and
// workerd) in the middle of a burst of several thousand submissions, started again on the same data, and
// must then hold every acknowledged submission, judged, with each team's solve counted once and the
// three bloods in time order. Needs the built app (FLAGSTAFF_BUILD_DIR or build/).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN, Client, freePort, journaledRows, killHard, openD1, startServer, stopServer } from "./server.mjs";

const TEAMS = 10;
const PER_TEAM = 400;
const CONCURRENCY = 96;
const FLAG = "flag{durable_and_judged_once}";
const HOUR = 3_600_000;

const dataDir = mkdtempSync(join(tmpdir(), "flagstaff-crash-"));
let server = null;

afterAll(async () => {
  if (server) await stopServer(server);
  rmSync(dataDir, { recursive: true, force: true });
});

async function seed(base) {
  const admin = new Client(base);
  await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
  const now = Date.now();
  const game = await admin.ok("/api/edit/games", {
    method: "POST",
    body: { title: `Crash ${now}`, start: now - HOUR, end: now + HOUR, acceptWithoutReview: true },
  });
  const challenge = await admin.ok(`/api/edit/games/${game.id}/challenges`, {
    method: "POST",
    body: { title: "Durable", category: "Misc", type: "StaticAttachment" },
  });
  await admin.ok(`/api/edit/games/${game.id}/challenges/${challenge.id}/flags`, { method: "POST", body: [{ flag: FLAG }] });
  await admin.ok(`/api/edit/games/${game.id}/challenges/${challenge.id}`, { method: "PUT", body: { isEnabled: true } });

  const players = [];
  for (let i = 0; i < TEAMS; i++) {
    const c = new Client(base);
    const userName = `crash${now.toString(36).slice(-4)}${i}`;
    await c.ok("/api/account/register", { method: "POST", body: { userName, password: "Passw0rd!x", email: `${userName}@example.com` } });
    const team = await c.ok("/api/team", { method: "POST", body: { name: `Crash team ${i}` } });
    await c.ok(`/api/game/${game.id}`, { method: "POST", body: { teamId: team.id } });
    // Opening the challenge gives the team its instance (the room judges only opened challenges).
    await c.ok(`/api/game/${game.id}/challenges/${challenge.id}`);
    players.push({ client: c, userName });
  }
  return { gameId: game.id, challengeId: challenge.id, players };
}

/** The burst: every player's answers, the correct flag once at a random place; acknowledged ids are kept. */
function burst(base, { gameId, challengeId, players }, acked, killAt) {
  const tasks = [];
  for (const p of players) {
    const correctAt = 20 + Math.floor(Math.random() * (PER_TEAM - 40));
    for (let i = 0; i < PER_TEAM; i++) tasks.push({ p, answer: i === correctAt ? FLAG : `flag{wrong_${p.userName}_${i}}` });
  }
  // Interleave the teams, as a real burst would.
  tasks.sort(() => Math.random() - 0.5);
  // Four teams send their flag within the first 15 % (well before the kill at 45 %), so the three bloods
  // are always decided before the crash; the others' flags fall anywhere (a random draw left fewer than
  // three solvers before the kill about once in ten runs).
  for (const p of players.slice(0, 4)) {
    const at = tasks.findIndex((t) => t.p === p && t.answer === FLAG);
    const to = Math.floor(Math.random() * Math.floor(tasks.length * 0.15));
    [tasks[at], tasks[to]] = [tasks[to], tasks[at]];
  }
  let next = 0;
  let killed = false;
  let failures = 0;
  return new Promise((done) => {
    const worker = async () => {
      while (!killed && next < tasks.length) {
        const task = tasks[next++];
        try {
          const res = await fetch(`${base}/api/game/${gameId}/challenges/${challengeId}`, {
            method: "POST",
            headers: { "content-type": "application/json", cookie: task.p.client.cookie },
            body: JSON.stringify({ flag: task.answer }),
          });
          const text = await res.text();
          if (res.status === 200) {
            acked.set(Number(text), { userName: task.p.userName, answer: task.answer });
            if (!killed && acked.size >= killAt) {
              killed = true;
              done({ killed: true, failures });
            }
          } else failures++;
        } catch {
          failures++;
        }
      }
    };
    Promise.all(Array.from({ length: CONCURRENCY }, worker)).then(() => {
      if (!killed) done({ killed: false, failures });
    });
  });
}

describe("crash durability (SIGKILL during a submission burst)", () => {
  it("loses no acknowledged submission, counts no solve twice and keeps the bloods", { timeout: 240_000 }, async () => {
    const port = await freePort();
    server = await startServer({ dataDir, port });
    const seeded = await seed(server.base);
    const acked = new Map();
    const total = TEAMS * PER_TEAM;
    const outcome = await burst(server.base, seeded, acked, Math.floor(total * 0.45));
    expect(outcome.killed).toBe(true);
    await killHard(server);
    const ackedAtKill = acked.size;
    // Responses already on the wire when the process died may still have been counted: none after.
    expect(ackedAtKill).toBeGreaterThan(1000);
    expect(ackedAtKill).toBeLessThan(total);

    const before = openD1(dataDir);
    const storedAtKill = before.prepare("SELECT count(*) AS n FROM submissions WHERE game_id = ?").get(seeded.gameId).n;
    before.close();
    // The rest of the acknowledged ones were in the room's journal only.
    console.log(`crash test: ${ackedAtKill} acknowledged of ${total}; ${storedAtKill} in D1 at the kill`);

    // Same data folder: the launcher takes over (a leftover workerd would be killed). The room's alarm, stored
    // with its journal, wakes it when the runtime starts: it re-judges what its journal holds and D1 does not,
    // and writes it to D1, in drains of at most 2,000 rows. No request reaches the game until D1 holds every
    // acknowledged submission and the journal is empty: submissions journaled whose answer the kill cut off are
    // judged too (the board counts them), and may reach D1 in a later drain than the acknowledged ones.
    server = await startServer({ dataDir, port });
    const admin = new Client(server.base);
    await admin.ok("/api/account/login", { method: "POST", body: ADMIN });
    const deadline = Date.now() + 60_000;
    let missing = Infinity;
    let pending = Infinity;
    let journaled = Infinity;
    while (Date.now() < deadline) {
      journaled = journaledRows(dataDir);
      const db = openD1(dataDir);
      const stored = new Set(db.prepare("SELECT id FROM submissions WHERE game_id = ?").all(seeded.gameId).map((r) => Number(r.id)));
      pending = db.prepare("SELECT count(*) AS n FROM submissions WHERE game_id = ? AND status = 'FlagSubmitted'").get(seeded.gameId).n;
      db.close();
      missing = [...acked.keys()].filter((id) => !stored.has(id)).length;
      if (pending === 0 && missing === 0 && journaled === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(journaled).toBe(0);
    expect(pending).toBe(0);
    expect(missing).toBe(0);

    const db = openD1(dataDir);
    const rows = db
      .prepare(
        "SELECT s.id, s.answer, s.status, s.participation_id AS pid, u.user_name AS userName FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = ? ORDER BY s.id",
      )
      .all(seeded.gameId);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));

    // 0 acknowledged submissions lost, each stored as sent and judged.
    const lost = [...acked.keys()].filter((id) => !byId.has(id));
    expect(lost).toEqual([]);
    for (const [id, sent] of acked) {
      const row = byId.get(id);
      expect(row.answer).toBe(sent.answer);
      expect(row.userName).toBe(sent.userName);
      expect(row.status).toBe(sent.answer === FLAG ? "Accepted" : "WrongAnswer");
    }
    for (const row of rows) expect(row.status).toBe(row.answer === FLAG ? "Accepted" : "WrongAnswer");

    // Solves: one per team that sent the flag, its earliest accepted submission, never twice.
    const solves = db
      .prepare("SELECT participation_id AS pid, submission_id AS sid, type FROM first_solves WHERE challenge_id = ? ORDER BY submission_id")
      .all(seeded.challengeId);
    const firstAccepted = new Map();
    for (const row of rows) if (row.status === "Accepted" && !firstAccepted.has(row.pid)) firstAccepted.set(row.pid, Number(row.id));
    expect(solves.length).toBe(firstAccepted.size);
    expect(new Set(solves.map((s) => s.pid)).size).toBe(solves.length);
    for (const s of solves) expect(Number(s.sid)).toBe(firstAccepted.get(s.pid));
    expect(firstAccepted.size).toBeGreaterThanOrEqual(3);

    // Bloods: exactly the three earliest solves, in time order.
    const expectedTypes = solves.map((_, i) => ["FirstBlood", "SecondBlood", "ThirdBlood"][i] ?? "Normal");
    expect(solves.map((s) => s.type)).toEqual(expectedTypes);
    const accepted = db.prepare("SELECT accepted_count AS n FROM challenges WHERE id = ?").get(seeded.challengeId).n;
    expect(accepted).toBe(solves.length);
    db.close();

    // The board agrees: every solver counted once.
    const board = await admin.ok(`/api/game/${seeded.gameId}/scoreboard`);
    const solvedCounts = board.items.map((item) => item.solvedCount ?? item.solvedChallenges?.length ?? 0);
    expect(solvedCounts.filter((n) => n === 1).length).toBe(solves.length);
    expect(solvedCounts.every((n) => n <= 1)).toBe(true);
  });
});
