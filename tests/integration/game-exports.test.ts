import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "~/.server/auth/session";
import { createGame, type ErrorBody, HOUR, newAdmin } from "./game-helpers";
import { Client, newUser, unique } from "./helpers";

// ── A minimal .xlsx reader: unzip with fflate, read the workbook, shared strings and the first sheet. ──

interface Workbook {
  sheetNames: string[];
  /** Rows of the first sheet as cell texts (shared strings resolved; numbers as their text). */
  rows: string[][];
  /** The first sheet's column widths (`<col width>`, in characters) by column index; undefined: Excel's default 8.43. */
  widths: (number | undefined)[];
  /** The first sheet's frozen pane: the number of rows kept in view (0 without one). */
  frozenRows: number;
}

const unescapeXml = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, "&");

function columnIndex(ref: string): number {
  let n = 0;
  for (const ch of ref.replace(/\d+$/, "")) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

async function readXlsx(res: Response): Promise<Workbook> {
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  const read = (name: string) => {
    const f = files[name];
    if (!f) throw new Error(`missing ${name} in the xlsx`);
    return strFromU8(f);
  };
  expect(read("[Content_Types].xml")).toContain("spreadsheetml.sheet.main+xml");
  const sheetNames = [...read("xl/workbook.xml").matchAll(/<sheet [^>]*name="([^"]*)"/g)].map((m) => unescapeXml(m[1]!));
  const shared = files["xl/sharedStrings.xml"]
    ? [...read("xl/sharedStrings.xml").matchAll(/<si>([\s\S]*?)<\/si>/g)].map((m) =>
        unescapeXml([...m[1]!.matchAll(/<t[^>]*>([\s\S]*?)<\/t>/g)].map((t) => t[1]).join("")),
      )
    : [];
  const sheet = read("xl/worksheets/sheet1.xml");
  const widths: (number | undefined)[] = [];
  for (const col of sheet.matchAll(/<col ([^>]*)\/?>/g)) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(col[1]!)?.[1];
    if (attr("customWidth") !== "1") continue;
    for (let i = Number(attr("min")); i <= Number(attr("max")); i++) widths[i - 1] = Number(attr("width"));
  }
  const pane = /<pane ([^>]*)\/>/.exec(sheet)?.[1] ?? "";
  const frozenRows = /state="frozen"/.test(pane) ? Number(/ySplit="(\d+)"/.exec(pane)?.[1] ?? 0) : 0;
  const rows: string[][] = [];
  for (const row of sheet.matchAll(/<row [^>]*>([\s\S]*?)<\/row>/g)) {
    const cells: string[] = [];
    for (const c of row[1]!.matchAll(/<c r="([A-Z]+\d+)"([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = c[2] ?? "";
      const inner = c[3] ?? "";
      const v = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      let value = "";
      if (/t="s"/.test(attrs)) value = shared[Number(v)] ?? "";
      else if (/t="inlineStr"/.test(attrs)) value = unescapeXml(/<t[^>]*>([\s\S]*?)<\/t>/.exec(inner)?.[1] ?? "");
      else value = v === undefined ? "" : unescapeXml(v);
      cells[columnIndex(c[1]!)] = value;
    }
    rows.push(Array.from(cells, (x) => x ?? ""));
  }
  return { sheetNames, rows, widths, frozenRows };
}

/** Excel serial day number of a UTC instant (1900 date system). */
const excelSerial = (ms: number) => ms / 86_400_000 + 25569;

// ── Fixtures ──

const room = (gameId: number) => env.GAME_ROOM.get(env.GAME_ROOM.idFromName(`game:${gameId}`));

interface Player {
  client: Client;
  userName: string;
  teamName: string;
  email: string;
}

/** Players seeded into D1, each the captain of a team accepted into the game (with instances of its challenges), with a session. */
async function seedPlayers(gameId: number, profiles: { realName: string; phone: string }[]): Promise<Player[]> {
  const now = Date.now();
  const tag = unique("x");
  const players: Player[] = [];
  for (const [i, profile] of profiles.entries()) {
    const userId = crypto.randomUUID();
    const userName = `${tag}_${i}`.slice(-15);
    const teamName = `T${tag}${i}`.slice(-20);
    const email = `${userId}@example.com`;
    const sessionId = `${userId}-session`;
    const client = new Client();
    client.cookie = `flagstaff_session=${sessionId}`;
    players.push({ client, userName, teamName, email });
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO users (id, user_name, user_name_key, email, email_key, password_hash, security_stamp, register_time, email_confirmed, real_name, phone) VALUES (?1, ?2, lower(?2), ?3, lower(?3), 'x', 'x', ?4, 1, ?5, ?6)",
      ).bind(userId, userName, email, now, profile.realName, profile.phone),
      env.DB.prepare("INSERT INTO sessions (id_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)").bind(await sha256Hex(sessionId), userId, now, now + 86_400_000),
      env.DB.prepare("INSERT INTO teams (name, captain_id, invite_token) VALUES (?1, ?2, 'tok')").bind(teamName, userId),
      env.DB.prepare("INSERT INTO team_members (team_id, user_id) SELECT id, ?1 FROM teams WHERE captain_id = ?1").bind(userId),
      env.DB.prepare("INSERT INTO participations (game_id, team_id, status, token) SELECT ?1, id, 'Accepted', 'token-' || id FROM teams WHERE captain_id = ?2").bind(gameId, userId),
      env.DB.prepare(
        "INSERT INTO participation_members (participation_id, game_id, user_id) SELECT p.id, ?1, ?2 FROM participations p JOIN teams t ON t.id = p.team_id WHERE t.captain_id = ?2 AND p.game_id = ?1",
      ).bind(gameId, userId),
      env.DB.prepare(
        "INSERT INTO game_instances (participation_id, challenge_id) SELECT p.id, c.id FROM participations p JOIN teams t ON t.id = p.team_id JOIN challenges c ON c.game_id = p.game_id AND c.is_enabled = 1 WHERE t.captain_id = ?2 AND p.game_id = ?1 ON CONFLICT DO NOTHING",
      ).bind(gameId, userId),
    ]);
  }
  await room(gameId).refresh(gameId, "participations");
  return players;
}

async function makeChallenge(admin: Client, gameId: number, title: string, category: string, flag: string) {
  const created = await admin.json<{ id: number }>(`/api/edit/games/${gameId}/challenges`, { method: "POST", body: { title, category, type: "StaticAttachment" } });
  expect(created.status).toBe(200);
  const id = created.body.id;
  expect((await admin.json(`/api/edit/games/${gameId}/challenges/${id}/flags`, { method: "POST", body: [{ flag }] })).status).toBe(200);
  expect((await admin.json(`/api/edit/games/${gameId}/challenges/${id}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
  return id;
}

async function submit(p: Player, gameId: number, cid: number, flag: string) {
  const r = await p.client.json<number>(`/api/game/${gameId}/challenges/${cid}`, { method: "POST", body: { flag } });
  expect(r.status).toBe(200);
  await room(gameId).settle(gameId);
  return r.body;
}

// ── Tests ──

describe("excel exports", () => {
  it("writes the scoreboard sheet with localised headers, members, points and blood bonus", async () => {
    const { client: admin } = await newAdmin();
    const title = unique("Sheet游戏");
    const game = await createGame(admin, { title });
    // Two challenges: the sheet has one column per challenge, in the board's order.
    const web = await makeChallenge(admin, game.id, "b-web", "Web", "flag{web}");
    await makeChallenge(admin, game.id, "a-misc", "Misc", "flag{misc}");
    const [a, b] = await seedPlayers(game.id, [
      { realName: "Alice A", phone: "" },
      { realName: "", phone: "+81 3 0000 0000" },
    ]);
    await submit(a!, game.id, web, "flag{wrong}");
    await submit(a!, game.id, web, "flag{web}");
    await submit(b!, game.id, web, "flag{web}");

    const boardRes = await new Client().json<{ challenges: Record<string, { id: number; title: string; score: number }[]>; items: { name: string; solvedChallenges: { id: number; score: number }[] }[] }>(
      `/api/game/${game.id}/scoreboard`,
    );
    const itemA = boardRes.body.items.find((i) => i.name === a!.teamName)!;
    const webPointsA = itemA.solvedChallenges.find((s) => s.id === web)!.score;
    const webPointsB = boardRes.body.items.find((i) => i.name === b!.teamName)!.solvedChallenges.find((s) => s.id === web)!.score;
    const boardOrder = Object.values(boardRes.body.challenges).flat();

    const before = Date.now();
    const res = await admin.fetch(`/api/game/${game.id}/scoreboardsheet`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const disposition = res.headers.get("content-disposition") ?? "";
    const name = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)?.[1] ?? "");
    expect(name).toMatch(new RegExp(`^${title}-Scoreboard-\\d{8}-\\d{2}\\.\\d{2}\\.\\d{2}Z\\.xlsx$`));
    expect(disposition).toMatch(/^attachment; filename="[^"]+-Scoreboard-\d{8}-\d{2}\.\d{2}\.\d{2}Z\.xlsx"/);

    const book = await readXlsx(res);
    expect(book.sheetNames).toEqual(["Scoreboard"]);
    const [head, rowA, rowB] = book.rows;
    const titles = boardOrder.map((c) => c.title);
    expect(titles.sort()).toEqual(["a-misc", "b-web"]);
    expect(head).toEqual(["Rank", "Team", "Captain", "Crew", "Real name", "Email", "Student number", "Phone", "Solved", "Time (UTC)", "Score", ...boardOrder.map((c) => c.title)]);
    expect(book.rows).toHaveLength(3);
    const col = (label: string) => head!.indexOf(label);
    expect(rowA![col("Rank")]).toBe("1");
    expect(rowA![col("Team")]).toBe(a!.teamName);
    expect(rowA![col("Captain")]).toBe(a!.userName);
    expect(rowA![col("Crew")]).toBe(a!.userName);
    expect(rowA![col("Real name")]).toBe("Alice A");
    expect(rowA![col("Email")]).toBe(a!.email);
    expect(rowA![col("Student number")]).toBe("<empty>");
    expect(rowA![col("Phone")]).toBe("<empty>");
    expect(rowA![col("Solved")]).toBe("1");
    expect(rowA![col("b-web")]).toBe(String(webPointsA));
    expect(rowA![col("a-misc")]).toBe("0");
    expect(rowA![col("Score")]).toBe(String(webPointsA));
    // The first blood earns more than the second (bonus included in the cell).
    expect(webPointsA).toBeGreaterThan(webPointsB);
    expect(rowB![col("Rank")]).toBe("2");
    expect(rowB![col("Real name")]).toBe("<empty>");
    expect(rowB![col("Phone")]).toBe("+81 3 0000 0000");
    expect(rowB![col("b-web")]).toBe(String(webPointsB));
    // The time is a real date cell (Excel serial, UTC) within this test's span.
    const serial = Number(rowA![col("Time (UTC)")]);
    expect(serial).toBeGreaterThan(excelSerial(before - 60_000));
    expect(serial).toBeLessThan(excelSerial(Date.now() + 1000));
    // Every column is sized to what it holds (the default 8.43 shows a date as ######## and cuts names off),
    // and the header row stays in view.
    expect(book.frozenRows).toBe(1);
    expect(book.widths).toHaveLength(head!.length);
    const width = (label: string) => book.widths[col(label)] ?? 8.43;
    expect(width("Time (UTC)")).toBeGreaterThanOrEqual("yyyy-mm-dd hh:mm:ss".length);
    expect(width("Team")).toBeGreaterThanOrEqual(a!.teamName.length);
    expect(width("Email")).toBeGreaterThanOrEqual(a!.email.length);
    expect(width("Crew")).toBeGreaterThanOrEqual(a!.userName.length);
    expect(width("Student number")).toBeGreaterThanOrEqual("Student number".length);
    expect(width("Rank")).toBeLessThan(12);

    // Localised headers follow Accept-Language; sheet name and file name do not.
    const ja = new Client({ lang: "ja-JP" });
    ja.cookie = admin.cookie;
    const jaBook = await readXlsx(await ja.fetch(`/api/game/${game.id}/scoreboardsheet`));
    expect(jaBook.sheetNames).toEqual(["Scoreboard"]);
    expect(jaBook.rows[0]!.slice(0, 3)).toEqual(["順位", "チーム", "キャプテン"]);
  });

  it("writes the submission sheet newest first with the status labels", async () => {
    const { client: admin } = await newAdmin();
    const title = unique("Subs");
    const game = await createGame(admin, { title });
    const cid = await makeChallenge(admin, game.id, "only", "Web", "flag{only}");
    const [a] = await seedPlayers(game.id, [{ realName: "", phone: "" }]);
    await submit(a!, game.id, cid, "flag{nope}");
    await submit(a!, game.id, cid, "flag{only}");

    const res = await admin.fetch(`/api/game/${game.id}/submissionsheet`);
    expect(res.status).toBe(200);
    const disposition = res.headers.get("content-disposition") ?? "";
    expect(disposition).toMatch(new RegExp(`^attachment; filename="${title}_Submissions_\\d{14}\\.xlsx"`));
    const book = await readXlsx(res);
    expect(book.sheetNames).toEqual(["All Submissions"]);
    expect(book.rows[0]).toEqual(["Status", "Time (UTC)", "Team", "User", "Challenge", "Submission", "Email"]);
    expect(book.rows.slice(1).map((r) => [r[0], r[2], r[3], r[4], r[5], r[6]])).toEqual([
      ["ACCEPTED", a!.teamName, a!.userName, "only", "flag{only}", a!.email],
      ["WRONG", a!.teamName, a!.userName, "only", "flag{nope}", a!.email],
    ]);
    expect(book.frozenRows).toBe(1);
    const [statusW, timeW, teamW, , , , emailW] = book.widths.map((w) => w ?? 8.43);
    expect(statusW).toBeGreaterThanOrEqual("ACCEPTED".length);
    expect(timeW).toBeGreaterThanOrEqual("yyyy-mm-dd hh:mm:ss".length);
    expect(teamW).toBeGreaterThanOrEqual(a!.teamName.length);
    expect(emailW).toBeGreaterThanOrEqual(a!.email.length);
  });

  it("writes a submission sheet of several megabytes (a zip entry fflate would compress in a Web Worker)", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin, { title: unique("Big") });
    const cid = await makeChallenge(admin, game.id, "many", "Web", "flag{many}");
    const [a] = await seedPlayers(game.id, [{ realName: "", phone: "" }]);
    const userId = (await env.DB.prepare("SELECT id FROM users WHERE user_name = ?1").bind(a!.userName).first<{ id: string }>())!.id;
    const ROWS = 20_000;
    await env.DB.prepare(
      `INSERT INTO submissions (game_id, challenge_id, participation_id, user_id, answer, status, submit_time)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?4)
       SELECT ?1, ?2, p.id, ?3, 'flag{wrong_' || i || '}', 'WrongAnswer', ?5 + i FROM n, participations p WHERE p.game_id = ?1`,
    )
      .bind(game.id, cid, userId, ROWS, Date.now() - HOUR)
      .run();

    const res = await admin.fetch(`/api/game/${game.id}/submissionsheet`);
    expect(res.status).toBe(200);
    const book = await readXlsx(res);
    expect(book.rows).toHaveLength(ROWS + 1);
    expect(book.rows[1]!.slice(4, 6)).toEqual(["many", `flag{wrong_${ROWS}}`]);
    expect(book.rows[ROWS]!.slice(4, 6)).toEqual(["many", "flag{wrong_1}"]);
  });

  it("refuses players, and the scoreboard sheet before the start", async () => {
    const { client: admin } = await newAdmin();
    const { client: player } = await newUser();
    const running = await createGame(admin);
    expect((await player.json<ErrorBody>(`/api/game/${running.id}/scoreboardsheet`)).status).toBe(403);
    expect((await player.json<ErrorBody>(`/api/game/${running.id}/submissionsheet`)).status).toBe(403);
    expect((await new Client().json<ErrorBody>(`/api/game/${running.id}/submissionsheet`)).status).toBe(401);

    const now = Date.now();
    const future = await createGame(admin, { start: now + HOUR, end: now + 2 * HOUR, hidden: true });
    const early = await admin.json<ErrorBody>(`/api/game/${future.id}/scoreboardsheet`);
    expect(early.status).toBe(400);
    expect(early.body.status).toBe(10001);
    // The submission sheet has no start rule: an empty sheet with its header row.
    const empty = await readXlsx(await admin.fetch(`/api/game/${future.id}/submissionsheet`));
    expect(empty.rows).toHaveLength(1);
    expect((await admin.json<ErrorBody>("/api/game/999999999/submissionsheet")).status).toBe(404);
  });
});

describe("team edits reach the room", () => {
  it("shows a team's new name on the board after the captain's rename and after an admin's edit", async () => {
    const { client: admin } = await newAdmin();
    const game = await createGame(admin);
    const [a] = await seedPlayers(game.id, [{ realName: "", phone: "" }]);
    const boardNames = async () =>
      (await new Client().json<{ items: { id: number; name: string }[] }>(`/api/game/${game.id}/scoreboard`)).body.items.map((i) => i.name);
    expect(await boardNames()).toEqual([a!.teamName]);
    const teamId = (await a!.client.json<{ id: number }[]>("/api/team")).body[0]!.id;

    const renamed = unique("R").slice(0, 20);
    expect((await a!.client.json(`/api/team/${teamId}`, { method: "PUT", body: { name: renamed } })).status).toBe(200);
    expect(await boardNames()).toEqual([renamed]);

    const byAdmin = unique("Q").slice(0, 20);
    expect((await admin.json(`/api/admin/teams/${teamId}`, { method: "PUT", body: { name: byAdmin } })).status).toBe(200);
    expect(await boardNames()).toEqual([byAdmin]);
  });
});
