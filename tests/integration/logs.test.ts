import { and, eq, gt, inArray, like } from "drizzle-orm";
import { Hono } from "hono";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { logs, users } from "~/.server/db/schema";
import type { LogRecord } from "~/.server/db/schema/logs";
import { writeLog } from "~/.server/services/logs";
import type { LogMessage } from "~/core/protocol";
import type { ApiEnv } from "../../workers/api/context";
import { apiContext, errorResponse } from "../../workers/api/middleware";
import { png } from "./content-helpers";
import { createGame, createTeam, join } from "./game-helpers";
import { Client, PASSWORD, db, newUser, unique } from "./helpers";

const hub = () => env.ADMIN_HUB.get(env.ADMIN_HUB.idFromName("admin"));

/** Log records are written after the response (waitUntil): poll until one matches. */
async function waitForLog(match: (r: LogRecord) => boolean, since: number, timeoutMs = 3000): Promise<LogRecord> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db().select().from(logs).where(gt(logs.time, since - 1)).all();
    const hit = rows.find(match);
    if (hit) return hit;
    if (Date.now() > end) throw new Error(`no matching log record; recent: ${JSON.stringify(rows.slice(-5))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function makeAdmin(userName: string) {
  await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
}

async function userId(userName: string): Promise<string> {
  const row = await db().select({ id: users.id }).from(users).where(eq(users.userName, userName)).get();
  return row!.id;
}

describe("log records for security-relevant actions", () => {
  it("logs registration, sign-in and failed sign-in with the name tried and the IP, never the password", async () => {
    const since = Date.now();
    const ip = "203.0.113.7";
    const { userName } = await newUser({ ip });
    const registered = await waitForLog((r) => r.userName === userName && r.message.startsWith("User registered"), since);
    expect(registered).toMatchObject({ level: "Information", logger: "Account", ip, status: "Success" });

    const wrong = `Wr0ng!${unique("p")}`;
    const attacker = new Client({ ip });
    const failed = await attacker.json("/api/account/login", { method: "POST", body: { userName, password: wrong } });
    expect(failed.status).toBe(401);
    const warning = await waitForLog((r) => r.userName === userName && r.message.startsWith("Failed sign-in"), since);
    expect(warning).toMatchObject({ level: "Warning", ip, status: "Failed", message: "Failed sign-in: Wrong username or password" });
    expect(JSON.stringify(warning)).not.toContain(wrong);

    const nobody = unique("ghost");
    await attacker.json("/api/account/login", { method: "POST", body: { userName: nobody, password: wrong } });
    await waitForLog((r) => r.userName === nobody && r.level === "Warning", since);

    const ok = await new Client({ ip }).json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    expect(ok.status).toBe(200);
    const signedIn = await waitForLog((r) => r.userName === userName && r.message === "Signed in", since);
    expect(signedIn).toMatchObject({ level: "Information", ip, status: "Success" });
  });

  it("logs role changes, bans, admin password resets, user deletions and config changes", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const target = await newUser();
    const id = await userId(target.userName);

    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body: { role: "Monitor" } })).status).toBe(200);
    const role = await waitForLog((r) => r.message === `User ${target.userName} updated: role=Monitor`, since);
    expect(role).toMatchObject({ level: "Information", logger: "Admin", userName: admin.userName });

    await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body: { role: "Banned" } });
    const ban = await waitForLog((r) => r.message === `User ${target.userName} updated: role=Banned`, since);
    expect(ban.level).toBe("Warning");

    const reset = await admin.client.json<string>(`/api/admin/users/${id}/password`, { method: "DELETE" });
    expect(reset.status).toBe(200);
    const resetLog = await waitForLog((r) => r.message === `Password of user ${target.userName} reset by an admin`, since);
    expect(resetLog.userName).toBe(admin.userName);

    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "DELETE" })).status).toBe(200);
    await waitForLog((r) => r.message === `User ${target.userName} (${id}) deleted` && r.level === "Warning", since);

    // A setting no other test reads, restored at once; only the changed field is named.
    const current = await admin.client.json<{ containerPolicy: { extraFlagEnvNames: string[] } }>("/api/admin/config");
    const previous = current.body.containerPolicy.extraFlagEnvNames;
    const put = (names: string[]) =>
      admin.client.json("/api/admin/config", { method: "PUT", body: { containerPolicy: { ...current.body.containerPolicy, extraFlagEnvNames: names } } });
    expect((await put([...previous, `LOGS_${unique().toUpperCase()}`])).status).toBe(200);
    expect((await put(previous)).status).toBe(200);
    const changes = async () =>
      (
        await db()
          .select({ message: logs.message })
          .from(logs)
          .where(and(gt(logs.time, since - 1), eq(logs.userName, admin.userName), like(logs.message, "Platform settings changed%")))
          .all()
      ).map((r) => r.message);
    await expect.poll(changes, { timeout: 3000 }).toEqual(Array(2).fill("Platform settings changed: containerPolicy.extraFlagEnvNames"));

    // The freshly reset password never reached a record.
    const all = await db().select().from(logs).where(gt(logs.time, since - 1)).all();
    expect(JSON.stringify(all)).not.toContain(reset.body);
  });

  it("names only the fields an admin's user edit changed", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const target = await newUser();
    const id = await userId(target.userName);
    const row = (await db().select().from(users).where(eq(users.id, id)).get())!;
    // The edit dialog sends every field; only the real name is new.
    const body = { userName: row.userName, email: row.email, realName: "Grace", stdNumber: row.stdNumber, phone: row.phone, bio: row.bio, role: row.role, emailConfirmed: row.emailConfirmed };
    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body })).status).toBe(200);
    await waitForLog((r) => r.message === `User ${target.userName} updated: realName`, since);
    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body })).status).toBe(200);
    await waitForLog((r) => r.message === `User ${target.userName} updated: nothing`, since);
    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body: { ...body, emailConfirmed: false } })).status).toBe(200);
    const deactivated = await waitForLog((r) => r.message === `User ${target.userName} updated: emailConfirmed`, since);
    expect(deactivated.level).toBe("Warning");
  });

  it("logs edits of games, posters, notices, posts and the logo, and counts imported rows in the right plural", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const by = (message: string) => waitForLog((r) => r.message === message && r.userName === admin.userName && r.logger === "Admin", since);
    const image = (salt: string) => {
      const form = new FormData();
      form.append("file", new File([png(salt)], "image.png", { type: "image/png" }));
      return form;
    };

    const game = await createGame(admin.client);
    const title = unique("renamed");
    expect((await admin.client.json(`/api/edit/games/${game.id}`, { method: "PUT", body: { title } })).status).toBe(200);
    await by(`Game ${title} (#${game.id}) edited`);
    expect((await admin.client.json(`/api/edit/games/${game.id}/poster`, { method: "PUT", raw: image(unique("poster")) })).status).toBe(200);
    await by(`Poster of game #${game.id} uploaded`);
    expect((await admin.client.json(`/api/edit/games/${game.id}/poster`, { method: "DELETE" })).status).toBe(200);
    await by(`Poster of game #${game.id} removed`);
    // Removing a poster that is not there changes nothing and logs nothing.
    expect((await admin.client.json(`/api/edit/games/${game.id}/poster`, { method: "DELETE" })).status).toBe(200);

    const notice = await admin.client.json<{ id: number }>(`/api/edit/games/${game.id}/notices`, { method: "POST", body: { content: "Hint" } });
    expect(notice.status).toBe(200);
    await by(`Notice #${notice.body.id} posted in game #${game.id}`);
    const removals = await db().select().from(logs).where(and(gt(logs.time, since - 1), eq(logs.message, `Poster of game #${game.id} removed`))).all();
    expect(removals).toHaveLength(1);
    expect((await admin.client.json(`/api/edit/games/${game.id}/notices/${notice.body.id}`, { method: "PUT", body: { content: "Hint 2" } })).status).toBe(200);
    await by(`Notice #${notice.body.id} of game #${game.id} edited`);
    expect((await admin.client.json(`/api/edit/games/${game.id}/notices/${notice.body.id}`, { method: "DELETE" })).status).toBe(200);
    await by(`Notice #${notice.body.id} of game #${game.id} deleted`);

    const post = await admin.client.json<{ id: string }>("/api/edit/posts", { method: "POST", body: { title: "News" } });
    expect(post.status).toBe(200);
    await by(`Post News (${post.body.id}) created`);
    expect((await admin.client.json(`/api/edit/posts/${post.body.id}`, { method: "PUT", body: { title: "News 2" } })).status).toBe(200);
    await by(`Post News 2 (${post.body.id}) edited`);
    expect((await admin.client.json(`/api/edit/posts/${post.body.id}`, { method: "DELETE" })).status).toBe(200);
    await by(`Post ${post.body.id} deleted`);

    expect((await admin.client.json("/api/admin/config/logo", { method: "POST", raw: image(unique("logo")) })).status).toBe(200);
    await by("Platform logo uploaded");
    expect((await admin.client.json("/api/admin/config/logo", { method: "DELETE" })).status).toBe(200);
    await by("Platform logo reset to the default");

    const row = () => {
      const name = unique("imp");
      return { userName: name, password: PASSWORD, email: `${name}@example.org` };
    };
    expect((await admin.client.json("/api/admin/users", { method: "POST", body: [row()] })).status).toBe(200);
    await by("Batch user import: 1 row");
    expect((await admin.client.json("/api/admin/users", { method: "POST", body: [row(), row()] })).status).toBe(200);
    await by("Batch user import: 2 rows");
  });

  it("logs a challenge's edits and the deletion of one of its flags, as it logs the flags added", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const by = (message: string) => waitForLog((r) => r.message === message && r.userName === admin.userName && r.logger === "Admin", since);
    const game = await createGame(admin.client);
    const base = `/api/edit/games/${game.id}/challenges`;
    const challenge = await admin.client.json<{ id: number; title: string }>(base, { method: "POST", body: { title: "Audit me", category: "Misc", type: "StaticAttachment" } });
    expect(challenge.status).toBe(200);
    const cid = challenge.body.id;
    expect((await admin.client.json(`${base}/${cid}/flags`, { method: "POST", body: [{ flag: "flag{one}" }, { flag: "flag{two}" }] })).status).toBe(200);
    await by(`2 flag(s) added to challenge Audit me (#${cid})`);

    expect((await admin.client.json(`${base}/${cid}`, { method: "PUT", body: { content: "Read this.", hints: ["Look closer"] } })).status).toBe(200);
    await by(`Challenge Audit me (#${cid}) edited in game #${game.id}`);
    // Enabling alone is logged as such, not as an edit besides.
    expect((await admin.client.json(`${base}/${cid}`, { method: "PUT", body: { isEnabled: true } })).status).toBe(200);
    await by(`Challenge Audit me (#${cid}) enabled in game #${game.id}`);
    const edits = await db().select().from(logs).where(and(gt(logs.time, since - 1), eq(logs.message, `Challenge Audit me (#${cid}) edited in game #${game.id}`))).all();
    expect(edits).toHaveLength(1);

    const detail = await admin.client.json<{ flags: { id: number; flag: string }[] }>(`${base}/${cid}`);
    const two = detail.body.flags.find((f) => f.flag === "flag{two}")!;
    expect((await admin.client.json(`${base}/${cid}/flags/${two.id}`, { method: "DELETE" })).status).toBe(200);
    const deleted = await by(`Flag #${two.id} deleted from challenge Audit me (#${cid})`);
    expect(deleted).toMatchObject({ level: "Warning", status: "Success" });
  });

  it("names the team and the game of a reviewed participation, not only the participation's own number", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const game = await createGame(admin.client, { acceptWithoutReview: false });
    const captain = await newUser();
    const team = await createTeam(captain.client);
    expect((await join(captain.client, game.id, { teamId: team.id })).status).toBe(200);
    const listed = await admin.client.json<{ id: number; team: { id: number } }[]>(`/api/game/${game.id}/participations`);
    const pid = listed.body.find((p) => p.team.id === team.id)!.id;

    expect((await admin.client.json(`/api/admin/participation/${pid}/Accepted`, { method: "PUT", body: {} })).status).toBe(200);
    await waitForLog((r) => r.message === `Participation #${pid} of team ${team.name} in game #${game.id} set to Accepted` && r.userName === admin.userName, since);
    expect((await admin.client.json(`/api/admin/participation/${pid}`, { method: "PUT", body: { status: "Suspended" } })).status).toBe(200);
    await waitForLog((r) => r.message === `Participation #${pid} of team ${team.name} in game #${game.id} updated`, since);
  });

  it("logs team lock, unlock and deletion by an admin", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const captain = await newUser();
    const teamName = unique("t");
    const created = await captain.client.json<{ id: number }>("/api/team", { method: "POST", body: { name: teamName } });
    expect(created.status).toBe(200);
    const teamId = created.body.id;

    await admin.client.json(`/api/admin/teams/${teamId}`, { method: "PUT", body: { locked: true } });
    await waitForLog((r) => r.message === `Team ${teamName} (#${teamId}) locked` && r.userName === admin.userName, since);
    await admin.client.json(`/api/admin/teams/${teamId}`, { method: "PUT", body: { locked: false } });
    await waitForLog((r) => r.message === `Team ${teamName} (#${teamId}) unlocked`, since);
    expect((await admin.client.json(`/api/admin/teams/${teamId}`, { method: "DELETE" })).status).toBe(200);
    await waitForLog((r) => r.message === `Team #${teamId} deleted` && r.level === "Warning", since);
  });

  it("logs password changes and keeps every password and session token out of the table", async () => {
    const since = Date.now();
    const { client, userName } = await newUser();
    const session = client.cookie!.split("=")[1]!;
    const next = `N3w!${unique("pw")}`;
    const wrong = `Bad!${unique("pw")}`;
    await new Client().json("/api/account/login", { method: "POST", body: { userName, password: wrong } });
    const changed = await client.json("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: next } });
    expect(changed.status).toBe(200);
    await waitForLog((r) => r.userName === userName && r.message === "Password changed", since);
    const again = new Client();
    expect((await again.json("/api/account/login", { method: "POST", body: { userName, password: next } })).status).toBe(200);
    await waitForLog((r) => r.userName === userName && r.message === "Signed in", since);
    const newSession = again.cookie!.split("=")[1]!;

    const all = await db().select().from(logs).all();
    const text = JSON.stringify(all);
    for (const secret of [PASSWORD, next, wrong, session, newSession]) expect(text).not.toContain(secret);
  });

  it("logs unexpected errors with their reference, redacted", async () => {
    const since = Date.now();
    const app = new Hono<ApiEnv>();
    app.use("*", apiContext);
    app.get("/boom", () => {
      throw new Error("database said password=Sup3rSecret! flag{leaked_flag}");
    });
    app.onError((err, c) => errorResponse(c, err));
    const res = await app.fetch(new Request("http://flagstaff.test/boom"), env);
    expect(res.status).toBe(500);
    const title = ((await res.json()) as { title: string }).title;
    const record = await waitForLog((r) => r.logger === "Api" && r.message.includes("GET /boom"), since);
    expect(record.level).toBe("Error");
    const reference = /Unexpected error (\w+)/.exec(record.message)![1]!;
    expect(title).toContain(reference);
    expect(record.exception).toContain("database said");
    expect(record.exception).not.toContain("Sup3rSecret!");
    expect(record.exception).not.toContain("leaked_flag");
  });
});

describe("message keys", () => {
  it("stores the English text as before and returns the message's key and parameters from GET admin/logs", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const target = await newUser();
    const id = await userId(target.userName);
    expect((await admin.client.json(`/api/admin/users/${id}`, { method: "PUT", body: { bio: "hi", role: "Monitor" } })).status).toBe(200);
    const english = `User ${target.userName} updated: bio, role=Monitor`;
    const stored = await waitForLog((r) => r.message === english, since);
    expect(stored).toMatchObject({ messageKey: "userUpdated", messageParams: { user: target.userName, fields: ["bio", "role"], role: "Monitor" } });

    const listed = await admin.client.json<LogMessage[]>("/api/admin/logs?count=50");
    expect(listed.body.find((r) => r.msg === english)).toEqual({
      time: stored.time,
      name: admin.userName,
      level: "Information",
      ip: stored.ip,
      msg: english,
      status: "Success",
      key: "userUpdated",
      params: { user: target.userName, fields: ["bio", "role"], role: "Monitor" },
    });
    // Records written before keys existed have only their text.
    await db().insert(logs).values({ time: since, level: "Information", logger: "Test", message: `older ${id}` });
    const older = (await admin.client.json<LogMessage[]>("/api/admin/logs?count=100")).body.find((r) => r.msg === `older ${id}`);
    expect(older && Object.keys(older).sort()).toEqual(["ip", "level", "msg", "name", "status", "time"]);
  });

  it("masks secrets in the parameters as in the text", async () => {
    const since = Date.now();
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const captain = await newUser();
    const secret = `ctf{${unique("s")}}`;
    const created = await captain.client.json<{ id: number }>("/api/team", { method: "POST", body: { name: secret } });
    expect(created.status).toBe(200);
    await admin.client.json(`/api/admin/teams/${created.body.id}`, { method: "PUT", body: { locked: true } });
    const record = await waitForLog((r) => r.messageKey === "teamLocked" && r.userName === admin.userName, since);
    expect(record.message).toBe(`Team [redacted] (#${created.body.id}) locked`);
    expect(record.messageParams).toEqual({ team: "[redacted]", id: created.body.id });
    const listed = await admin.client.json<LogMessage[]>("/api/admin/logs?count=50");
    expect(JSON.stringify(listed.body)).not.toContain(secret);
  });
});

describe("live delivery on /hub/admin", () => {
  it("pushes a new record to an admin socket as it is written", async () => {
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const res = await admin.client.fetch("/hub/admin", { headers: { upgrade: "websocket" } });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const tried = unique("live");
    const got = new Promise<LogMessage>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no live log")), 5000);
      ws.addEventListener("message", (e) => {
        const msg = JSON.parse(e.data as string) as { type: string; data: LogMessage };
        if (msg.type === "log" && msg.data.name === tried) {
          clearTimeout(timer);
          resolve(msg.data);
        }
      });
    });
    ws.accept();
    await new Promise((r) => setTimeout(r, 50));
    await new Client({ ip: "198.51.100.9" }).json("/api/account/login", { method: "POST", body: { userName: tried, password: "Nope1234!" } });
    const live = await got;
    expect(live).toMatchObject({ level: "Warning", ip: "198.51.100.9", status: "Failed" });
    expect(live.msg).toBe("Failed sign-in: Wrong username or password");
    // The page writes the reader's text from these (the stored English text stays in `msg`).
    expect(live).toMatchObject({ key: "signInFailed", params: { reason: "account.wrong_credentials" } });
    expect(live.msg).not.toContain("Nope1234!");
    ws.close(1000);
  });

  it("refuses the socket and GET admin/logs to non-admins", async () => {
    const { client } = await newUser();
    expect((await client.fetch("/hub/admin", { headers: { upgrade: "websocket" } })).status).toBe(403);
    expect((await client.json("/api/admin/logs")).status).toBe(403);
    const anonymous = new Client();
    expect((await anonymous.fetch("/hub/admin", { headers: { upgrade: "websocket" } })).status).toBe(401);
    expect((await anonymous.json("/api/admin/logs")).status).toBe(401);
  });
});

describe("GET admin/logs", () => {
  it("filters by level and pages newest first", async () => {
    const admin = await newUser();
    await makeAdmin(admin.userName);
    const tag = unique("page");
    // Records dated in the future are the newest of the table, whatever other tests wrote.
    const base = Date.now() + 10 * 365 * 86_400_000;
    const levels = ["Information", "Error", "Warning", "Error", "Information"] as const;
    for (const [i, level] of levels.entries()) {
      await writeLog({ db: db(), now: base + i }, { level, logger: "Test", text: { key: "gameCreated", params: { title: `${tag} #${i}`, id: i } } });
    }
    try {
      const first = await admin.client.json<LogMessage[]>("/api/admin/logs?level=All&count=2&skip=0");
      expect(first.status).toBe(200);
      const game = (i: number) => `Game ${tag} #${i} (#${i}) created`;
      expect(first.body.map((r) => r.msg)).toEqual([game(4), game(3)]);
      expect(Object.keys(first.body[0]!).sort()).toEqual(["ip", "key", "level", "msg", "name", "params", "status", "time"]);
      const second = await admin.client.json<LogMessage[]>("/api/admin/logs?count=2&skip=2");
      expect(second.body.map((r) => r.msg)).toEqual([game(2), game(1)]);
      const errors = await admin.client.json<LogMessage[]>("/api/admin/logs?level=Error&count=2");
      expect(errors.body.map((r) => r.msg)).toEqual([game(3), game(1)]);
      expect(errors.body.every((r) => r.level === "Error")).toBe(true);
      // Tools spell the level in any case.
      expect((await admin.client.json<LogMessage[]>("/api/admin/logs?level=error&count=2")).body.map((r) => r.msg)).toEqual([game(3), game(1)]);
      expect((await admin.client.json("/api/admin/logs?count=1001")).status).toBe(400);
      expect((await admin.client.json("/api/admin/logs?level=Loud")).status).toBe(400);
      expect((await admin.client.json<LogMessage[]>("/api/admin/logs?count=1000")).body.length).toBeLessThanOrEqual(1000);
    } finally {
      await db().delete(logs).where(like(logs.message, `Game ${tag} #%`));
    }
  });
});

describe("retention", () => {
  it("arms the AdminHub alarm on publish and purges records older than the retention period", async () => {
    const now = Date.now();
    const tag = unique("old");
    const text = (title: string) => ({ key: "gameCreated", params: { title: `${tag} ${title}`, id: 1 } }) as const;
    await writeLog({ db: db(), now: now - 31 * 86_400_000 }, { level: "Information", logger: "Test", text: text("old") });
    await writeLog({ db: db(), now: now - 29 * 86_400_000 }, { level: "Information", logger: "Test", text: text("recent") });
    await writeLog({ db: db(), adminHub: env.ADMIN_HUB }, { level: "Information", logger: "Test", text: text("arm") });
    const stub = hub();
    const alarm = await runInDurableObject(stub, (_instance, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await db().select({ message: logs.message }).from(logs).where(like(logs.message, `Game ${tag} %`)).all();
    expect(left.map((r) => r.message).sort()).toEqual([`Game ${tag} arm (#1) created`, `Game ${tag} recent (#1) created`]);
    await db().delete(logs).where(and(like(logs.message, `Game ${tag} %`), inArray(logs.logger, ["Test"])));
  });
});
