// Seeds a bench game straight into the persisted D1 files of a data folder, before the server starts:
// migrations (the launcher's own routine, so `npm start` finds them applied), then bulk
// `INSERT … SELECT … FROM json_each(?)` statements through Miniflare's D1 binding on the same files.
// Users get sessions directly (the sessions table keeps sha256 of the cookie id): no password hashing.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "../../scripts/lib/d1-migrations.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BUILD_DIR = resolve(ROOT, process.env.FLAGSTAFF_BUILD_DIR ?? "build");
export const SESSION_COOKIE = "flagstaff_session";
const CATEGORIES = ["Misc", "Crypto", "Pwn", "Web", "Reverse"];
const CHUNK = 5_000;

export function readBuildConfig() {
  const path = join(BUILD_DIR, "server", "wrangler.json");
  if (!existsSync(path)) throw new Error(`${path} is missing: build first (npm run bench builds; or npx react-router build)`);
  return JSON.parse(readFileSync(path, "utf8"));
}

export const flagOf = (challengeIndex) => `flag{bench-${challengeIndex}-right}`;

/** A deterministic pseudo-random generator (mulberry32), so runs seed the same game. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function insertRows(db, sql, rows) {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db.prepare(sql).bind(JSON.stringify(rows.slice(i, i + CHUNK))).run();
  }
}

/**
 * Seeds one running game. Returns what the load needs: the game id, per team {teamId,
 * participationId, userId, userName, cookie}, challenge ids (index → id), the solved pairs, and the
 * container challenge id when `containerImage` is given.
 */
export async function seedGame(dataDir, { teams, challenges, solves, containerImage = null, seed = 7 }) {
  const config = readBuildConfig();
  const binding = config.d1_databases[0].binding;
  const databaseId = config.d1_databases[0].preview_database_id ?? config.d1_databases[0].database_id;
  const { Miniflare, convertV4MiniflareOptions } = await import("miniflare");
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      cf: false,
      logRequests: false,
      telemetry: { enabled: false },
      resourcePersistencePath: join(dataDir, "v3"),
      name: config.name,
      modules: true,
      script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
      compatibilityDate: config.compatibility_date,
      d1Databases: { [binding]: databaseId },
    }),
  );
  try {
    await mf.ready;
    const db = await mf.getD1Database(binding, config.name);
    await applyMigrations(db, join(ROOT, "migrations"));
    const started = performance.now();
    const now = Date.now();
    const gameStart = now - 2 * 3600_000;
    const gameEnd = now + 24 * 3600_000;
    const random = rng(seed);

    const game = await db
      .prepare(
        "INSERT INTO games (title, hidden, start_time, end_time, practice_mode, writeup_deadline, public_key, private_key, accept_without_review) VALUES (?1, 0, ?2, ?3, 1, ?3, ?4, ?5, 1) RETURNING id",
      )
      .bind(`Bench ${new Date(now).toISOString()}`, gameStart, gameEnd, randomBytes(32).toString("base64"), randomBytes(32).toString("base64"))
      .first();
    const gameId = game.id;

    // Users, teams, members, sessions: one user (captain) per team.
    const users = [];
    for (let i = 0; i < teams; i++) {
      const cookie = randomBytes(32).toString("base64url");
      users.push({
        id: randomUUID(),
        name: `bench${gameId}_${i}`,
        cookie,
        hash: createHash("sha256").update(cookie).digest("hex"),
      });
    }
    await insertRows(
      db,
      `INSERT INTO users (id, user_name, user_name_key, email, email_key, email_confirmed, password_hash, security_stamp, register_time)
       SELECT j.value->>'id', j.value->>'name', lower(j.value->>'name'), j.value->>'name' || '@bench.invalid', lower(j.value->>'name') || '@bench.invalid', 1, 'bench-no-login', j.value->>'id', ${now}
       FROM json_each(?1) j`,
      users.map((u) => ({ id: u.id, name: u.name })),
    );
    await insertRows(
      db,
      `INSERT INTO sessions (id_hash, user_id, created_at, expires_at) SELECT j.value->>'h', j.value->>'u', ${now}, ${now + 7 * 86400_000} FROM json_each(?1) j`,
      users.map((u) => ({ h: u.hash, u: u.id })),
    );
    await insertRows(
      db,
      `INSERT INTO teams (name, captain_id, invite_token) SELECT j.value->>'n', j.value->>'u', lower(hex(randomblob(16))) FROM json_each(?1) j`,
      users.map((u, i) => ({ n: `Team ${gameId}-${i}`, u: u.id })),
    );
    const teamRows = await db.prepare("SELECT id, captain_id FROM teams WHERE captain_id IN (SELECT value FROM json_each(?1))").bind(JSON.stringify(users.map((u) => u.id))).raw();
    const teamOf = new Map(teamRows.map((r) => [r[1], r[0]]));
    await insertRows(
      db,
      "INSERT INTO team_members (team_id, user_id) SELECT j.value->>'t', j.value->>'u' FROM json_each(?1) j",
      users.map((u) => ({ t: teamOf.get(u.id), u: u.id })),
    );
    await insertRows(
      db,
      `INSERT INTO participations (game_id, team_id, status, token) SELECT ${gameId}, j.value->>'t', 'Accepted', lower(hex(randomblob(16))) FROM json_each(?1) j`,
      users.map((u) => ({ t: teamOf.get(u.id) })),
    );
    const partRows = await db.prepare("SELECT id, team_id FROM participations WHERE game_id = ?1").bind(gameId).raw();
    const partOfTeam = new Map(partRows.map((r) => [r[1], r[0]]));
    await insertRows(
      db,
      `INSERT INTO participation_members (participation_id, game_id, user_id) SELECT j.value->>'p', ${gameId}, j.value->>'u' FROM json_each(?1) j`,
      users.map((u) => ({ p: partOfTeam.get(teamOf.get(u.id)), u: u.id })),
    );

    // Challenges (static, one flag each), plus an optional container challenge.
    const chal = Array.from({ length: challenges }, (_, i) => ({ t: `Bench challenge ${i}`, c: CATEGORIES[i % CATEGORIES.length], i }));
    await insertRows(
      db,
      `INSERT INTO challenges (game_id, title, category, type, is_enabled, content) SELECT ${gameId}, j.value->>'t', j.value->>'c', 'StaticAttachment', 1, 'Find the flag.' FROM json_each(?1) j`,
      chal,
    );
    const chalRows = await db.prepare("SELECT id, title FROM challenges WHERE game_id = ?1 ORDER BY id").bind(gameId).raw();
    const challengeIds = chalRows.map((r) => r[0]);
    await insertRows(
      db,
      "INSERT INTO flags (challenge_id, flag) SELECT j.value->>'c', j.value->>'f' FROM json_each(?1) j",
      challengeIds.map((id, i) => ({ c: id, f: flagOf(i) })),
    );
    // Every team has opened every challenge (the judge answers NotFound to a team without an instance).
    await db
      .prepare(
        "INSERT INTO game_instances (participation_id, challenge_id) SELECT p.id, c.id FROM participations p CROSS JOIN challenges c WHERE p.game_id = ?1 AND c.game_id = ?1",
      )
      .bind(gameId)
      .run();
    let containerChallengeId = null;
    if (containerImage) {
      const row = await db
        .prepare(
          `INSERT INTO challenges (game_id, title, category, type, is_enabled, content, container_image, expose_port, memory_limit, cpu_count)
           VALUES (?1, 'Bench container', 'Misc', 'StaticContainer', 1, 'Start the container.', ?2, 80, 64, 1) RETURNING id`,
        )
        .bind(gameId, containerImage)
        .first();
      containerChallengeId = row.id;
      await db.prepare("INSERT INTO flags (challenge_id, flag) VALUES (?1, 'flag{bench-container}')").bind(containerChallengeId).run();
    }

    // Solves: distinct (team, challenge) pairs at increasing times inside the game, each an Accepted
    // submission plus its first_solves row (bloods: the first three per challenge).
    const pairs = new Set();
    const solveRows = [];
    const maxSolves = Math.min(solves, teams * challenges);
    while (solveRows.length < maxSolves) {
      const t = Math.floor(random() * teams);
      const c = Math.floor(random() * challenges);
      const key = t * challenges + c;
      if (pairs.has(key)) continue;
      pairs.add(key);
      solveRows.push([t, c]);
    }
    const span = now - gameStart - 60_000;
    const firstId = Number((await db.prepare("SELECT coalesce(max(id), 0) AS m FROM submissions").first()).m) + 1;
    const perChallenge = new Array(challenges).fill(0);
    const subs = [];
    const firsts = [];
    solveRows.forEach(([t, c], i) => {
      const u = users[t];
      const pid = partOfTeam.get(teamOf.get(u.id));
      const time = gameStart + Math.floor(((i + 1) / (maxSolves + 1)) * span);
      const id = firstId + i;
      const n = perChallenge[c]++;
      subs.push({ id, c: challengeIds[c], p: pid, u: u.id, a: flagOf(c), t: time });
      firsts.push({ p: pid, c: challengeIds[c], s: id, u: u.id, t: time, y: ["FirstBlood", "SecondBlood", "ThirdBlood"][n] ?? "Normal" });
    });
    await insertRows(
      db,
      `INSERT INTO submissions (id, game_id, challenge_id, participation_id, user_id, answer, status, submit_time, ip)
       SELECT j.value->>'id', ${gameId}, j.value->>'c', j.value->>'p', j.value->>'u', j.value->>'a', 'Accepted', j.value->>'t', '127.0.0.1' FROM json_each(?1) j`,
      subs,
    );
    await insertRows(
      db,
      `INSERT INTO first_solves (participation_id, challenge_id, game_id, submission_id, user_id, submit_time, type)
       SELECT j.value->>'p', j.value->>'c', ${gameId}, j.value->>'s', j.value->>'u', j.value->>'t', j.value->>'y' FROM json_each(?1) j`,
      firsts,
    );
    await db
      .prepare("UPDATE challenges SET accepted_count = (SELECT count(*) FROM first_solves f WHERE f.challenge_id = challenges.id) WHERE game_id = ?1")
      .bind(gameId)
      .run();

    return {
      gameId,
      seedMs: performance.now() - started,
      teams: users.map((u, i) => ({
        index: i,
        userId: u.id,
        userName: u.name,
        cookie: `${SESSION_COOKIE}=${u.cookie}`,
        teamId: teamOf.get(u.id),
        participationId: partOfTeam.get(teamOf.get(u.id)),
      })),
      challengeIds,
      /** t * challenges + c for every seeded solve. */
      solved: pairs,
      containerChallengeId,
      compatibilityDate: config.compatibility_date,
    };
  } finally {
    await mf.dispose();
  }
}
