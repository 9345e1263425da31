import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teamMembers, teams, users } from "~/.server/db/schema";
import { ADMIN_USER_BATCH_MAX, batchCreateUsers, joinTeamByName } from "~/.server/services/users-admin";
import type { ArrayResponse } from "~/core/schemas/team";
import { Client, db, newUser, PASSWORD, unique } from "./helpers";

type ErrorBody = { title: string; status: number };
type UserInfo = {
  id: string;
  userName: string;
  email: string;
  realName: string;
  stdNumber: string;
  role: string;
  emailConfirmed: boolean;
  registerTimeUtc: number;
  lastVisitedUtc: number;
  ip: string;
};

async function userId(client: Client): Promise<string> {
  return (await client.json<{ userId: string }>("/api/account/profile")).body.userId;
}

async function newAdmin(opts: { lang?: string } = {}) {
  const admin = await newUser(opts);
  await db().update(users).set({ role: "Admin" }).where(eq(users.userName, admin.userName));
  return { ...admin, id: await userId(admin.client) };
}

async function login(userName: string, password: string) {
  const client = new Client();
  const r = await client.json<ErrorBody>("/api/account/login", { method: "POST", body: { userName, password } });
  return { client, status: r.status, body: r.body };
}

describe("admin users: access", () => {
  it("refuses non-admins", async () => {
    const { client } = await newUser();
    expect((await client.json("/api/admin/users")).status).toBe(403);
    expect((await new Client().json("/api/admin/users")).status).toBe(401);
  });
});

describe("admin users: list and search", () => {
  it("pages through users with the total and UserInfoModel fields", async () => {
    const admin = await newAdmin();
    for (let i = 0; i < 3; i++) await newUser();
    const all = await admin.client.json<ArrayResponse<UserInfo>>("/api/admin/users?count=500");
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(4);
    expect(all.body.length).toBe(all.body.data.length);

    const page1 = await admin.client.json<ArrayResponse<UserInfo>>("/api/admin/users?count=2&skip=0");
    const page2 = await admin.client.json<ArrayResponse<UserInfo>>("/api/admin/users?count=2&skip=2");
    expect(page1.body.length).toBe(2);
    expect(page2.body.length).toBe(2);
    expect(page1.body.total).toBe(all.body.total);
    const ids = new Set([...page1.body.data, ...page2.body.data].map((u) => u.id));
    expect(ids.size).toBe(4);

    const me = all.body.data.find((u) => u.id === admin.id)!;
    expect(me).toMatchObject({ userName: admin.userName, role: "Admin", emailConfirmed: true, ip: "127.0.0.1" });
    expect(me.registerTimeUtc).toBeGreaterThan(0);
    expect(me.lastVisitedUtc).toBeGreaterThan(0);
    expect(me).toHaveProperty("avatar", null);

    expect((await admin.client.json<ErrorBody>("/api/admin/users?count=501")).status).toBe(400);
  });

  it("searches user name, email, real name and student number (at most 30)", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const tid = await userId(target.client);
    const marker = unique("rn");
    await db().update(users).set({ realName: `Ada ${marker}`, stdNumber: `S-${marker}-9` }).where(eq(users.id, tid));

    const search = async (hint: string) =>
      (await admin.client.json<ArrayResponse<UserInfo>>(`/api/admin/users/search?hint=${encodeURIComponent(hint)}`, { method: "POST" })).body;
    expect((await search(target.userName.toUpperCase())).data.map((u) => u.id)).toContain(tid);
    expect((await search(`${target.userName}@example`)).data.map((u) => u.id)).toEqual([tid]);
    expect((await search(`Ada ${marker}`)).data.map((u) => u.id)).toEqual([tid]);
    expect((await search(`S-${marker}-9`)).data.map((u) => u.id)).toEqual([tid]);
    expect((await search("%")).data).toEqual([]);
    // Letters beyond ASCII match whatever their case, on both sides (SQLite folds ASCII only).
    await db().update(users).set({ realName: `Ümlaut実名${marker}` }).where(eq(users.id, tid));
    expect((await search(`Ümlaut実名${marker}`)).data.map((u) => u.id)).toEqual([tid]);
    expect((await search(`ümlaut実名${marker}`)).data.map((u) => u.id)).toEqual([tid]);
    expect((await search(`ÜMLAUT実名${marker.toUpperCase()}`))).toMatchObject({ total: 1, data: [expect.objectContaining({ id: tid })] });

    const crowd = await search("");
    expect(crowd.length).toBeLessThanOrEqual(30);
  });
});

describe("admin users: view and edit", () => {
  it("reads and edits a user's fields; name and email must stay unique", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const other = await newUser();
    const tid = await userId(target.client);

    const profile = await admin.client.json<{ userId: string; userName: string; role: string }>(`/api/admin/users/${tid}`);
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ userId: tid, userName: target.userName, role: "User" });
    expect((await admin.client.json<ErrorBody>("/api/admin/users/00000000-0000-0000-0000-000000000000")).status).toBe(404);

    const newName = unique("ed");
    const r = await admin.client.json<ErrorBody>(`/api/admin/users/${tid}`, {
      method: "PUT",
      body: { userName: newName, email: `${newName}@example.org`, realName: "Grace", stdNumber: "42", bio: "hi", phone: "+1 555", role: "Monitor", emailConfirmed: true },
    });
    expect(r.status).toBe(200);
    const row = await db().select().from(users).where(eq(users.id, tid)).get();
    expect(row).toMatchObject({ userName: newName, email: `${newName}@example.org`, realName: "Grace", stdNumber: "42", bio: "hi", phone: "+1 555", role: "Monitor" });

    const taken = await admin.client.json<ErrorBody>(`/api/admin/users/${tid}`, { method: "PUT", body: { userName: other.userName } });
    expect(taken.status).toBe(400);
    expect(taken.body.title).toBe("This user name is already taken");
    const takenMail = await admin.client.json<ErrorBody>(`/api/admin/users/${tid}`, { method: "PUT", body: { email: `${other.userName}@EXAMPLE.com` } });
    expect(takenMail.status).toBe(400);
    expect(takenMail.body.title).toBe("This email is already registered");
    const badRole = await admin.client.json<ErrorBody>(`/api/admin/users/${tid}`, { method: "PUT", body: { role: "God" } });
    expect(badRole.status).toBe(400);
    const selfRole = await admin.client.json<ErrorBody>(`/api/admin/users/${admin.id}`, { method: "PUT", body: { role: "User" } });
    expect(selfRole.status).toBe(400);
  });

  it("activating an account lets it sign in", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const tid = await userId(target.client);
    await db().update(users).set({ emailConfirmed: false }).where(eq(users.id, tid));
    expect((await login(target.userName, PASSWORD)).status).toBe(401);
    await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { emailConfirmed: true } });
    expect((await login(target.userName, PASSWORD)).status).toBe(200);
  });

  it("banning revokes the open session at once and blocks sign-in; unbanning allows it again", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const tid = await userId(target.client);
    const stampBefore = (await db().select().from(users).where(eq(users.id, tid)).get())!.securityStamp;

    expect((await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { role: "Banned" } })).status).toBe(200);
    expect((await target.client.json("/api/account/profile")).status).toBe(401);
    const row = (await db().select().from(users).where(eq(users.id, tid)).get())!;
    expect(row.role).toBe("Banned");
    expect(row.securityStamp).not.toBe(stampBefore);
    const again = await login(target.userName, PASSWORD);
    expect(again.status).toBe(401);
    expect(again.body.title).toBe("User has been banned");

    await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { role: "User" } });
    expect((await login(target.userName, PASSWORD)).status).toBe(200);
  });
});

describe("admin users: deactivation", () => {
  it("deactivating revokes the open session at once and blocks sign-in; reactivating allows it again", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const tid = await userId(target.client);
    const stampBefore = (await db().select().from(users).where(eq(users.id, tid)).get())!.securityStamp;

    expect((await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { emailConfirmed: false } })).status).toBe(200);
    expect((await target.client.json("/api/account/profile")).status).toBe(401);
    const row = (await db().select().from(users).where(eq(users.id, tid)).get())!;
    expect(row.emailConfirmed).toBe(false);
    expect(row.securityStamp).not.toBe(stampBefore);
    expect((await login(target.userName, PASSWORD)).status).toBe(401);

    // Saving the dialog again with the account left inactive changes nothing more.
    expect((await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { emailConfirmed: false } })).status).toBe(200);
    expect((await db().select().from(users).where(eq(users.id, tid)).get())!.securityStamp).toBe(row.securityStamp);

    await admin.client.json(`/api/admin/users/${tid}`, { method: "PUT", body: { emailConfirmed: true } });
    expect((await login(target.userName, PASSWORD)).status).toBe(200);
  });

  it("refuses to deactivate your own account, with a localised message", async () => {
    const admin = await newAdmin({ lang: "zh-CN" });
    const self = await admin.client.json<ErrorBody>(`/api/admin/users/${admin.id}`, { method: "PUT", body: { emailConfirmed: false } });
    expect(self.status).toBe(400);
    expect(self.body.title).toBe("不能停用自己的账号");
    expect((await db().select().from(users).where(eq(users.id, admin.id)).get())!.emailConfirmed).toBe(true);
    expect((await admin.client.json("/api/account/profile")).status).toBe(200);
    // Your own account stays editable otherwise (the dialog leaves the switch out for yourself).
    expect((await admin.client.json(`/api/admin/users/${admin.id}`, { method: "PUT", body: { bio: "me", emailConfirmed: true } })).status).toBe(200);
  });
});

describe("admin users: delete", () => {
  it("refuses to delete yourself or a team captain, deletes others", async () => {
    const admin = await newAdmin({ lang: "ja-JP" });
    const self = await admin.client.json<ErrorBody>(`/api/admin/users/${admin.id}`, { method: "DELETE" });
    expect(self.status).toBe(400);
    expect(self.body.title).toBe("自分のアカウントは削除できません");

    const captain = await newUser();
    const cid = await userId(captain.client);
    expect((await captain.client.json("/api/team", { method: "POST", body: { name: "Caps" } })).status).toBe(200);
    const refused = await admin.client.json<ErrorBody>(`/api/admin/users/${cid}`, { method: "DELETE" });
    expect(refused.status).toBe(400);
    expect(refused.body.title).toContain("キャプテン");
    expect(await db().select().from(users).where(eq(users.id, cid)).get()).toBeTruthy();

    const victim = await newUser();
    const vid = await userId(victim.client);
    expect((await admin.client.json(`/api/admin/users/${vid}`, { method: "DELETE" })).status).toBe(200);
    expect(await db().select().from(users).where(eq(users.id, vid)).get()).toBeUndefined();
    expect((await victim.client.json("/api/account/profile")).status).toBe(401);
    expect((await admin.client.json(`/api/admin/users/${vid}`, { method: "DELETE" })).status).toBe(404);
  });
});

describe("admin users: password reset", () => {
  it("returns a 16-character password that works, revokes sessions, and the old password stops working", async () => {
    const admin = await newAdmin();
    const target = await newUser();
    const tid = await userId(target.client);
    const r = await admin.client.json<string>(`/api/admin/users/${tid}/password`, { method: "DELETE" });
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(16);
    expect(r.body).toMatch(/[a-z]/);
    expect(r.body).toMatch(/[A-Z]/);
    expect(r.body).toMatch(/[0-9]/);
    expect((await target.client.json("/api/account/profile")).status).toBe(401);
    expect((await login(target.userName, PASSWORD)).status).toBe(401);
    expect((await login(target.userName, r.body)).status).toBe(200);

    const second = await admin.client.json<string>(`/api/admin/users/${tid}/password`, { method: "DELETE" });
    expect(second.body).not.toBe(r.body);
    expect((await login(target.userName, r.body)).status).toBe(401);
    expect((await admin.client.json("/api/admin/users/nope/password", { method: "DELETE" })).status).toBe(404);
  });
});

describe("admin users: batch create", () => {
  it("refuses an empty or malformed list and writes nothing", async () => {
    const admin = await newAdmin();
    const name = unique("bm");
    const empty = await admin.client.json<ErrorBody>("/api/admin/users", { method: "POST", body: [] });
    expect(empty.status).toBe(400);
    const malformed = await admin.client.json<ErrorBody>("/api/admin/users", {
      method: "POST",
      body: [{ userName: name, password: "Passw0rd1", email: `${name}@example.com` }, { userName: 5 }],
    });
    expect(malformed.status).toBe(400);
    expect((await admin.client.json<ErrorBody>("/api/admin/users", { method: "POST", body: { userName: name } })).status).toBe(400);
    expect(await db().select().from(users).where(eq(users.userNameKey, name.toLowerCase())).get()).toBeUndefined();
  });

  it("takes at most ADMIN_USER_BATCH_MAX rows a call (one password hash each), refusing more in the caller's language", async () => {
    // The admin's batch form sends 50 rows a request (app/components/admin/user-forms.tsx).
    expect(ADMIN_USER_BATCH_MAX).toBeGreaterThanOrEqual(50);
    const admin = await newAdmin();
    const stamp = unique("bx");
    // Weak passwords: each row is refused before its hash, so a batch the server takes answers at once.
    const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ userName: `${stamp}${i}`, password: "weak", email: `${stamp}${i}@example.com` }));
    const over = await admin.client.json<ErrorBody>("/api/admin/users", { method: "POST", body: rows(ADMIN_USER_BATCH_MAX + 1) });
    expect(over.status).toBe(400);
    expect(over.body.title).toBe(`Request body allows at most ${ADMIN_USER_BATCH_MAX} items`);
    const ja = await admin.client.json<ErrorBody>("/api/admin/users", { method: "POST", body: rows(ADMIN_USER_BATCH_MAX + 1), headers: { "accept-language": "ja-JP" } });
    expect(ja.body.title).toMatch(new RegExp(`${ADMIN_USER_BATCH_MAX} 件までです$`));
    const full = await admin.client.json<{ result: string }[]>("/api/admin/users", { method: "POST", body: rows(ADMIN_USER_BATCH_MAX) });
    expect(full.status).toBe(200);
    expect(full.body).toHaveLength(ADMIN_USER_BATCH_MAX);
  });

  it("lists and finds the users of one import by name, newest import first", async () => {
    const admin = await newAdmin();
    const stamp = unique("bo");
    const names = ["f", "c", "a", "e", "b", "d"].map((letter) => `${stamp}${letter}`);
    const rows = names.map((userName) => ({ userName, password: "Aa345678", email: `${userName}@example.com` }));
    const made = await admin.client.json<{ result: string }[]>("/api/admin/users", { method: "POST", body: rows });
    expect(made.body.map((r) => r.result)).toEqual(names.map(() => "created"));
    const sorted = [...names].sort();
    const listed = await admin.client.json<ArrayResponse<UserInfo>>("/api/admin/users?count=500");
    expect(listed.body.data.map((u) => u.userName).filter((n) => n.startsWith(stamp))).toEqual(sorted);
    const found = await admin.client.json<ArrayResponse<UserInfo>>(`/api/admin/users/search?hint=${stamp}`, { method: "POST" });
    expect(found.body.data.map((u) => u.userName)).toEqual(sorted);
  });

  it("creates active users, updates existing ones, reports bad rows, and builds teams", async () => {
    const admin = await newAdmin();
    const existing = await newUser();
    const [a, b, c, bad] = [unique("ba"), unique("bb"), unique("bc"), unique("bd")];
    const team = unique("T");
    const rows = [
      { userName: a, password: "Aa345678", email: `${a}@example.com`, realName: "Alice", stdNumber: "1001", teamName: team },
      { userName: b, password: "Bb345678", email: `${b}@example.com`, teamName: team },
      { userName: bad, password: "weakpass1", email: `${bad}@example.com` },
      { userName: existing.userName, password: "Cc345678", email: `${existing.userName}@example.net`, realName: "Updated" },
      { userName: c, password: "Dd345678", email: `${a}@example.com` },
    ];
    const r = await admin.client.json<{ userName: string; result: string }[]>("/api/admin/users", { method: "POST", body: rows });
    expect(r.status).toBe(200);
    expect(r.body.map((x) => x.userName)).toEqual([a, b, bad, existing.userName, c]);
    expect(r.body[0]!.result).toBe("created");
    expect(r.body[1]!.result).toBe("created");
    expect(r.body[2]!.result).toBe("Password must contain an uppercase letter");
    expect(r.body[3]!.result).toBe("updated");
    expect(r.body[4]!.result).toBe("This email is already registered");

    expect(await db().select().from(users).where(eq(users.userNameKey, bad.toLowerCase())).get()).toBeUndefined();
    expect(await db().select().from(users).where(eq(users.userNameKey, c.toLowerCase())).get()).toBeUndefined();

    // Created users are active and can sign in; the updated user's password was reset.
    expect((await login(a, "Aa345678")).status).toBe(200);
    expect((await login(b, "Bb345678")).status).toBe(200);
    expect((await existing.client.json("/api/account/profile")).status).toBe(401);
    expect((await login(existing.userName, PASSWORD)).status).toBe(401);
    expect((await login(existing.userName, "Cc345678")).status).toBe(200);
    const updated = (await db().select().from(users).where(eq(users.userName, existing.userName)).get())!;
    expect(updated).toMatchObject({ realName: "Updated", email: `${existing.userName}@example.net` });

    const aRow = (await db().select().from(users).where(eq(users.userName, a)).get())!;
    const bRow = (await db().select().from(users).where(eq(users.userName, b)).get())!;
    expect(aRow).toMatchObject({ realName: "Alice", stdNumber: "1001", emailConfirmed: true, role: "User" });
    const created = await db().select().from(teams).where(eq(teams.name, team)).all();
    expect(created).toHaveLength(1);
    expect(created[0]!.captainId).toBe(aRow.id);
    const members = await db().select().from(teamMembers).where(eq(teamMembers.teamId, created[0]!.id)).all();
    expect(members.map((m) => m.userId).sort()).toEqual([aRow.id, bRow.id].sort());

    // A second batch joins the existing team rather than creating another.
    const d = unique("be");
    const r2 = await admin.client.json<{ userName: string; result: string }[]>("/api/admin/users", {
      method: "POST",
      body: [{ userName: d, password: "Ee345678", email: `${d}@example.com`, teamName: team }],
    });
    expect(r2.body[0]!.result).toBe("created");
    const dRow = (await db().select().from(users).where(eq(users.userName, d)).get())!;
    expect(await db().select().from(teams).where(eq(teams.name, team)).all()).toHaveLength(1);
    expect(
      await db().select().from(teamMembers).where(and(eq(teamMembers.teamId, created[0]!.id), eq(teamMembers.userId, dRow.id))).get(),
    ).toBeTruthy();
  });

  it("makes one team and one user per row when lists naming the same team are imported in parallel", async () => {
    const deps = { db: db(), now: Date.now() };
    const t = (key: string) => key;
    const team = unique("T");
    const names = Array.from({ length: 4 }, (_, i) => unique(`p${i}`));
    const row = (userName: string) => ({ userName, password: "Aa345678", email: `${userName}@example.com`, teamName: team });
    // The same list four times at once: each row is created by one call and updated by the others.
    const same = await Promise.all(Array.from({ length: 4 }, () => batchCreateUsers(deps, names.map(row), t)));
    for (const c of same) for (const r of c.results) expect(["created", "updated"]).toContain(r.result);
    for (const name of names) expect(same.filter((c) => c.results.find((r) => r.userName === name)?.result === "created")).toHaveLength(1);
    const idOf = async (n: string) => (await db().select({ id: users.id }).from(users).where(eq(users.userName, n)).get())!.id;
    const ids = await Promise.all(names.map(idOf));
    let made = await db().select().from(teams).where(eq(teams.name, team)).all();
    expect(made).toHaveLength(1);
    expect(made[0]!.captainId).toBe(ids[0]);
    const membersOf = async (teamId: number) => (await db().select().from(teamMembers).where(eq(teamMembers.teamId, teamId)).all()).map((m) => m.userId).sort();
    expect(await membersOf(made[0]!.id)).toEqual([...ids].sort());

    // Six users put into a new team at once (the rows of six calls after their passwords are hashed): one
    // team, the six in it.
    const other = unique("U");
    const solo = await Promise.all(Array.from({ length: 6 }, async () => userId((await newUser()).client)));
    await Promise.all(solo.map((id) => joinTeamByName(db(), id, other, deps.now, new Map())));
    made = await db().select().from(teams).where(eq(teams.name, other)).all();
    expect(made).toHaveLength(1);
    expect(await membersOf(made[0]!.id)).toEqual([...solo].sort());
  });
});
