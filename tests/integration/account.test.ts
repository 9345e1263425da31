import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "~/.server/db/schema";
import { bootstrapAdmin, changePassword } from "~/.server/services/accounts";
import { Client, db, newUser, PASSWORD, unique } from "./helpers";

type ErrorBody = { title: string; status: number };

describe("register → login → profile → change password", () => {
  it("signs in on register, reads the profile, and forces re-login after a password change", async () => {
    const { client, userName } = await newUser();
    const profile = await client.json<{ userName: string; email: string; role: string }>("/api/account/profile");
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ userName, email: `${userName}@example.com`, role: "User" });

    const other = new Client();
    expect((await other.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);

    const changed = await client.json("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: "N3wPassword" } });
    expect(changed.status).toBe(200);
    // Every session is revoked, including the other device.
    expect((await client.json("/api/account/profile")).status).toBe(401);
    expect((await other.json("/api/account/profile")).status).toBe(401);

    const oldLogin = await new Client().json<ErrorBody>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    expect(oldLogin.status).toBe(401);
    expect(oldLogin.body).toEqual({ title: "Wrong username or password", status: 401 });
    const relogin = new Client();
    expect((await relogin.json("/api/account/login", { method: "POST", body: { userName, password: "N3wPassword" } })).status).toBe(200);
    expect((await relogin.json("/api/account/profile")).status).toBe(200);
  });

  it("logs in by email, case-insensitively, and logs out", async () => {
    const { userName } = await newUser();
    const c = new Client();
    const r = await c.json("/api/account/login", { method: "POST", body: { userName: `${userName.toUpperCase()}@EXAMPLE.COM`, password: PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("set-cookie")).toMatch(/flagstaff_session=.+; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await c.json("/api/account/logout", { method: "POST" })).status).toBe(200);
    expect((await c.json("/api/account/profile")).status).toBe(401);
  });

  it("refuses a wrong old password and a weak new one, changing nothing", async () => {
    const { client } = await newUser();
    const wrongOld = await client.json<ErrorBody>("/api/account/changepassword", { method: "PUT", body: { old: "nope", new: "N3wPassword" } });
    expect(wrongOld.status).toBe(400);
    const weak = await client.json<ErrorBody>("/api/account/changepassword", { method: "PUT", body: { old: PASSWORD, new: "abc" } });
    expect(weak.body).toEqual({ title: "Password must be at least 6 characters", status: 400 });
    expect((await client.json("/api/account/profile")).status).toBe(200);
  });

  it("of two password changes at once, one is made and the other refused: never a 200 for a password that does not work", async () => {
    const { client, userName } = await newUser();
    const id = (await client.json<{ userId: string }>("/api/account/profile")).body.userId;
    const deps = { db: db(), now: Date.now() };
    const tries = ["Fir5tChoice", "Sec0ndChoice"];
    const results = await Promise.allSettled(tries.map((next) => changePassword(deps, id, { old: PASSWORD, new: next })));
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(String((refused.reason as Error).message)).toBe("account.wrong_old_password");
    const made = tries[results.findIndex((r) => r.status === "fulfilled")]!;
    const login = (password: string) => new Client().json("/api/account/login", { method: "POST", body: { userName, password } });
    expect((await login(made)).status).toBe(200);
    for (const other of [PASSWORD, ...tries.filter((t) => t !== made)]) expect((await login(other)).status).toBe(401);
  });

  it("updates the profile, rejects a taken user name and overlong fields", async () => {
    const a = await newUser();
    const b = await newUser();
    const ok = await a.client.json("/api/account/update", { method: "PUT", body: { bio: "hi", realName: "Ada", phone: "+1 (555) 0100", stdNumber: null } });
    expect(ok.status).toBe(200);
    const p = await a.client.json<{ bio: string; realName: string; phone: string }>("/api/account/profile");
    expect(p.body).toMatchObject({ bio: "hi", realName: "Ada", phone: "+1 (555) 0100" });
    const taken = await a.client.json<ErrorBody>("/api/account/update", { method: "PUT", body: { userName: b.userName } });
    expect(taken.body).toEqual({ title: "This user name is already taken", status: 400 });
    const long = await a.client.json<ErrorBody>("/api/account/update", { method: "PUT", body: { bio: "x".repeat(200) } });
    expect(long.status).toBe(400);
    expect((await a.client.json<{ bio: string }>("/api/account/profile")).body.bio).toBe("hi");
  });
});

describe("roles and bans", () => {
  it("refuses a banned user's login and drops their open session at once", async () => {
    const { client, userName } = await newUser();
    await db().update(users).set({ role: "Banned" }).where(eq(users.userName, userName));
    expect((await client.json("/api/account/profile")).status).toBe(401);
    const r = await new Client().json<ErrorBody>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
    expect(r.body).toEqual({ title: "User has been banned", status: 401 });
  });

  it("keeps admin calls for admins", async () => {
    const { client, userName } = await newUser();
    expect((await client.json<ErrorBody>("/api/admin/config")).body).toEqual({ title: "Access denied", status: 403 });
    expect((await new Client().json<ErrorBody>("/api/admin/config")).body).toEqual({ title: "Please log in first", status: 401 });
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, userName));
    const cfg = await client.json<{ accountPolicy: { allowRegister: boolean } }>("/api/admin/config");
    expect(cfg.status).toBe(200);
    expect(cfg.body.accountPolicy.allowRegister).toBe(true);
  });
});

describe("account policy outcomes", () => {
  it("AdminConfirmationRequired when auto-activation is off; the user cannot sign in until activated", async () => {
    const { client: adminClient, userName: adminName } = await newUser();
    await db().update(users).set({ role: "Admin" }).where(eq(users.userName, adminName));
    const put = await adminClient.json("/api/admin/config", { method: "PUT", body: { accountPolicy: { activeOnRegister: false } } });
    expect(put.status).toBe(200);
    try {
      const userName = unique();
      const c = new Client();
      const r = await c.json<{ data: string }>("/api/account/register", {
        method: "POST",
        body: { userName, password: PASSWORD, email: `${userName}@example.com` },
      });
      expect(r.body.data).toBe("AdminConfirmationRequired");
      expect(c.cookie).toBeNull();
      const login = await c.json<ErrorBody>("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } });
      expect(login.body).toEqual({ title: "This account has not been activated yet", status: 401 });
      await db().update(users).set({ emailConfirmed: true }).where(eq(users.userName, userName));
      expect((await c.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);

      await adminClient.json("/api/admin/config", { method: "PUT", body: { accountPolicy: { allowRegister: false } } });
      const closed = await new Client().json<ErrorBody>("/api/account/register", {
        method: "POST",
        body: { userName: unique(), password: PASSWORD, email: `${unique()}@example.com` },
      });
      expect(closed.body).toEqual({ title: "Registration is currently closed", status: 400 });
    } finally {
      await adminClient.json("/api/admin/config", { method: "PUT", body: { accountPolicy: { activeOnRegister: true, allowRegister: true } } });
    }
  });

  it("refuses duplicate user names and emails without writing anything", async () => {
    const { userName } = await newUser();
    const dupName = await new Client().json<ErrorBody>("/api/account/register", {
      method: "POST",
      body: { userName: userName.toUpperCase(), password: PASSWORD, email: `${unique()}@example.com` },
    });
    expect(dupName.body).toEqual({ title: "This user name is already taken", status: 400 });
    const dupMail = await new Client().json<ErrorBody>("/api/account/register", {
      method: "POST",
      body: { userName: unique(), password: PASSWORD, email: `${userName}@example.com` },
    });
    expect(dupMail.body).toEqual({ title: "This email is already registered", status: 400 });
  });

  it("names the field a refusal is about in X-Error-Field, beside the contract's body", async () => {
    const { userName } = await newUser();
    const field = (r: { res: Response }) => r.res.headers.get("x-error-field");
    const register = (body: Record<string, unknown>) => new Client().json<ErrorBody>("/api/account/register", { method: "POST", body });
    const valid = () => ({ userName: unique(), password: PASSWORD, email: `${unique()}@example.com` });
    expect(field(await register({ ...valid(), userName }))).toBe("userName");
    expect(field(await register({ ...valid(), email: `${userName}@example.com` }))).toBe("email");
    // Validation failures name the field of the rule that failed.
    expect(field(await register({ ...valid(), userName: "no spaces" }))).toBe("userName");
    expect(field(await register({ ...valid(), email: "not an email" }))).toBe("email");
    expect(field(await register({ ...valid(), password: "short" }))).toBe("password");
    // Change password: a wrong current password is about `old`; a refused new one about `new`.
    const { client } = await newUser();
    const changePassword = (body: Record<string, unknown>) => client.json<ErrorBody>("/api/account/changepassword", { method: "PUT", body });
    const wrongOld = await changePassword({ old: "Wrong1234", new: "N3wPassword" });
    expect([wrongOld.status, wrongOld.body.title, field(wrongOld)]).toEqual([400, "The current password is wrong", "old"]);
    expect(field(await changePassword({ old: PASSWORD, new: "abc" }))).toBe("new");
    expect(field(await changePassword({ old: PASSWORD, new: `Aa1${"x".repeat(126)}` }))).toBe("new");
    // Recovery: a refused address is about `email`.
    expect(field(await new Client().json("/api/account/recovery", { method: "POST", body: { email: "not an email" } }))).toBe("email");
    // A refusal of the whole request names none.
    const wrongLogin = await new Client().json<ErrorBody>("/api/account/login", { method: "POST", body: { userName, password: "Wrong1234" } });
    expect(wrongLogin.status).toBe(401);
    expect(field(wrongLogin)).toBeNull();
  });
});

describe("localised validation and the error shape", () => {
  const bad = { userName: "ab", password: "Passw0rd", email: "x@example.com" };

  it.each([
    ["en-US", "User name must be 3 to 15 characters"],
    ["ja-JP,ja;q=0.9", "ユーザー名は 3〜15 文字で入力してください"],
    ["zh-CN", "用户名长度需为 3 到 15 个字符"],
    ["fr-FR,fr;q=0.9", "User name must be 3 to 15 characters"],
  ])("Accept-Language %s", async (lang, title) => {
    const r = await new Client({ lang }).json<ErrorBody>("/api/account/register", { method: "POST", body: bad });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ title, status: 400 });
  });

  it("answers malformed JSON, missing fields and wrong types with 400 in the error shape", async () => {
    const c = new Client({ lang: "zh-CN" });
    const malformed = await c.json<ErrorBody>("/api/account/login", { method: "POST", raw: "{not json", headers: { "content-type": "application/json" } });
    expect(malformed.body).toEqual({ title: "请求体不是有效的 JSON", status: 400 });
    const missing = await c.json<ErrorBody>("/api/account/login", { method: "POST", body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.title).toBe("用户名为必填项");
    const wrongType = await c.json<ErrorBody>("/api/account/register", { method: "POST", body: { userName: 12345, password: "Passw0rd", email: "a@b.co" } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.title).toBe("用户名的类型不正确");
    const empty = await c.json<ErrorBody>("/api/account/register", { method: "POST", body: { userName: "abcd", password: "", email: "a@b.co" } });
    expect(empty.body.title).toBe("密码不能为空");
    // A user name left empty is asked for, not told the length rule.
    const blankName = await c.json<ErrorBody>("/api/account/register", { method: "POST", body: { userName: " ", password: "Passw0rd", email: "a@b.co" } });
    expect(blankName.body).toEqual({ title: "用户名为必填项", status: 400 });
  });

  it("answers unknown API paths with 404 in the error shape, and matches paths case-insensitively", async () => {
    const r = await new Client().json<ErrorBody>("/api/no/such/thing");
    expect(r.body).toEqual({ title: "There is nothing at this address", status: 404 });
    const upper = await new Client().json<ErrorBody>("/API/Account/LOGIN", { method: "POST", body: { userName: "nobody-here", password: "x" } });
    expect(upper.status).toBe(401);
  });
});

describe("request defences", () => {
  it("refuses cross-site writes", async () => {
    const r = await new Client().json<ErrorBody>("/api/account/login", {
      method: "POST",
      body: { userName: "x", password: "y" },
      headers: { origin: "https://evil.example" },
    });
    expect(r.status).toBe(403);
    const fetchSite = await new Client().json<ErrorBody>("/api/account/logout", { method: "POST", headers: { "sec-fetch-site": "cross-site" } });
    expect(fetchSite.status).toBe(403);
  });

  it("answers 429 with Retry-After once the register/login bucket is spent", async () => {
    const c = new Client({ ip: "203.0.113.77" });
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push((await c.json("/api/account/login", { method: "POST", body: { userName: `nobody${i}`, password: "x" } })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    const last = await c.json<ErrorBody>("/api/account/login", { method: "POST", body: { userName: "nobody", password: "x" } });
    expect(last.status).toBe(429);
    expect(Number(last.res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last.body.title).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    // 21 password checks (scrypt, ≈ 0.14 s each) take several seconds on a loaded 2-core machine.
  }, 60_000);

  it("counts the account named for loopback clients too, but not their shared address", async () => {
    // Every `npm start` client is 127.0.0.1: 21 sign-ins under different names pass the address key…
    const local = new Client();
    for (let i = 0; i < 21; i++) {
      expect((await local.json("/api/account/login", { method: "POST", body: { userName: unique("nobody"), password: "x" } })).status).toBe(401);
    }
    // …while one account named 21 times is limited like anywhere else.
    const name = unique("target");
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await local.json("/api/account/login", { method: "POST", body: { userName: name, password: "x" } })).status);
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses[20]).toBe(429);
  }, 60_000);

  it("counts one bucket per account, whether it is named by its user name or its email", async () => {
    const { userName } = await newUser();
    const local = new Client();
    const names = [userName, `${userName}@example.com`, userName.toUpperCase(), `${userName}@EXAMPLE.com`];
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) {
      statuses.push((await local.json("/api/account/login", { method: "POST", body: { userName: names[i % names.length], password: "Wr0ngGuess" } })).status);
    }
    expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(20)).toEqual([429, 429]);
  }, 60_000);

  it("serves an OpenAPI document generated from the route schemas", async () => {
    const r = await new Client().json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> }>("/api/openapi.json");
    expect(r.body.openapi).toBe("3.1.0");
    expect(r.body.paths["/api/account/register"]?.post?.requestBody).toBeTruthy();
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(["/api/account/login", "/api/config", "/api/admin/config"]));
  });

  it("names in the OpenAPI document the upload field, id types, narrower roles and optional bodies the server uses", async () => {
    type Op = { requestBody?: { required: boolean; content: Record<string, { schema: { properties: Record<string, unknown> } }> }; parameters: { name: string; schema: { type: string; format?: string } }[]; "x-auth": string };
    const { paths } = (await new Client().json<{ paths: Record<string, Record<string, Op>> }>("/api/openapi.json")).body;
    // The server reads `files` (several) on POST /api/assets and `file` elsewhere.
    expect(Object.keys(paths["/api/assets"]!.post!.requestBody!.content["multipart/form-data"]!.schema.properties)).toEqual(["files"]);
    expect(Object.keys(paths["/api/account/avatar"]!.put!.requestBody!.content["multipart/form-data"]!.schema.properties)).toEqual(["file"]);
    const submit = paths["/api/game/{id}/challenges/{cid}"]!.post!;
    expect(submit.parameters.map((p) => p.schema.type)).toEqual(["integer", "integer"]);
    expect(submit["x-auth"]).toBe("Player");
    expect(paths["/api/team/{id}/invite"]!.get!["x-auth"]).toBe("Captain");
    expect(paths["/api/admin/users/{id}"]!.get!.parameters[0]!.schema).toMatchObject({ type: "string", format: "uuid" });
    expect(paths["/api/admin/participation/{id}/{status}"]!.put!.requestBody!.required).toBe(false);
    expect(paths["/api/account/login"]!.post!.requestBody!.required).toBe(true);
    expect(paths["/assets/{hash}/{name}"]?.get).toBeTruthy();
    // The container agent's signed callbacks are not part of the public API.
    expect(Object.keys(paths).filter((path) => path.startsWith("/api/agent/"))).toEqual([]);
  });
});

describe("client config and first admin", () => {
  it("returns the client config with defaults and honours If-None-Match", async () => {
    const c = new Client();
    const r = await c.json<Record<string, unknown>>("/api/config");
    expect(r.body).toMatchObject({ title: "Flagstaff", defaultLifetime: 120, extensionDuration: 120, renewalWindow: 10 });
    const etag = r.res.headers.get("etag");
    expect(etag).toBeTruthy();
    const again = await c.fetch("/api/config", { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
  });

  it("creates the first admin once", async () => {
    const d = db();
    const existing = await d.select().from(users).where(eq(users.role, "Admin")).all();
    for (const u of existing) await d.update(users).set({ role: "User" }).where(eq(users.id, u.id));
    const name = unique("adm");
    const created = await bootstrapAdmin({ db: d, now: Date.now() }, { userName: name });
    expect(created?.userName).toBe(name);
    expect(created?.password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d).{16}$/);
    expect(await bootstrapAdmin({ db: d, now: Date.now() }, {})).toBeNull();
    const login = await new Client().json("/api/account/login", { method: "POST", body: { userName: name, password: created!.password } });
    expect(login.status).toBe(200);
  });

  it("refuses the bootstrap call without the process token", async () => {
    const r = await new Client().json<ErrorBody>("/__internal/bootstrap-admin", { method: "POST", body: {} });
    expect(r.status).toBe(404);
  });

  it("holds the bootstrap call to a registration's rules when it is to make the admin, and ignores the settings once one exists", async () => {
    const d = db();
    const existing = await d.select().from(users).where(eq(users.role, "Admin")).all();
    for (const u of existing) await d.update(users).set({ role: "User" }).where(eq(users.id, u.id));
    const headers = { "x-flagstaff-bootstrap": "integration-bootstrap-token-0123456789" };
    const refused = [{ userName: "ab" }, { userName: "has space" }, { password: "abcdef" }, { password: "ABCDEF12" }];
    for (const body of refused) {
      const r = await new Client().json<ErrorBody>("/__internal/bootstrap-admin", { method: "POST", body, headers });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(await d.select().from(users).where(eq(users.role, "Admin")).all()).toEqual([]);
    // An install upgraded with a password an older release accepted: its admin exists, nothing is checked.
    const admin = await newUser();
    await d.update(users).set({ role: "Admin" }).where(eq(users.userName, admin.userName));
    for (const body of refused) {
      const r = await new Client().json("/__internal/bootstrap-admin", { method: "POST", body, headers });
      expect({ status: r.status, body: r.body }, JSON.stringify(body)).toEqual({ status: 200, body: { created: false } });
    }
  });
});
