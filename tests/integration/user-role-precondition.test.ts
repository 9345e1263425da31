import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { users } from "~/.server/db/schema";
import { updateUser } from "~/.server/services/users-admin";
import enErrors from "~/locales/en-US/errors.json";
import jaErrors from "~/locales/ja-JP/errors.json";
import zhErrors from "~/locales/zh-CN/errors.json";
import { type ErrorBody, newAdmin, userIdOf } from "./game-helpers";
import { Client, db, landingAfterRead, newUser, PASSWORD } from "./helpers";

// The admin user edit's optional precondition (`expectedRole`, the role the admin's page showed): a Ban,
// Unban or role change made on a stale row is refused with 409 and writes nothing, so a stale Unban cannot
// demote a user another admin promoted meanwhile; a request without it behaves as before (api.md).

async function target() {
  const user = await newUser();
  return { id: await userIdOf(user.client), userName: user.userName };
}

/** A fresh session of the user. */
async function signIn(userName: string): Promise<Client> {
  const client = new Client();
  expect((await client.json("/api/account/login", { method: "POST", body: { userName, password: PASSWORD } })).status).toBe(200);
  return client;
}

const stored = async (id: string) =>
  (await db().select({ role: users.role, phone: users.phone, emailConfirmed: users.emailConfirmed, securityStamp: users.securityStamp }).from(users).where(eq(users.id, id)).get())!;

const edit = (admin: Client, id: string, body: unknown, headers: Record<string, string> = {}) =>
  admin.json<ErrorBody>(`/api/admin/users/${id}`, { method: "PUT", body, headers });

describe("PUT admin/users/{id} with the role the page showed", () => {
  it("refuses an Unban made on a stale row (localised, nothing written) and applies one made on the current row", async () => {
    const { client: admin } = await newAdmin();
    const { id, userName } = await target();
    expect((await edit(admin, id, { role: "Banned", expectedRole: "User" })).status).toBe(200);
    // Tab A unbans and promotes the user; tab B still shows them banned and clicks Unban (which would demote them).
    expect((await edit(admin, id, { role: "Monitor", expectedRole: "Banned" })).status).toBe(200);
    const user = await signIn(userName);
    const before = await stored(id);
    const stale = await edit(admin, id, { role: "User", expectedRole: "Banned" });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ title: enErrors.user.role_changed, status: 409 });
    expect(await stored(id)).toEqual(before);
    for (const [lang, errors] of [["ja-JP", jaErrors], ["zh-CN", zhErrors]] as const) {
      const refused = await edit(admin, id, { role: "User", expectedRole: "Banned" }, { "accept-language": lang });
      expect(refused.body).toEqual({ title: errors.user.role_changed, status: 409 });
    }
    // A stale Ban with other fields is refused whole: neither the role, nor the phone, nor the user's sessions.
    const ban = await edit(admin, id, { role: "Banned", phone: "555-0100", emailConfirmed: false, expectedRole: "User" });
    expect(ban.status).toBe(409);
    expect(await stored(id)).toEqual(before);
    expect((await user.json("/api/account/profile")).status).toBe(200);
    // The row as it is now: applied.
    expect((await edit(admin, id, { role: "User", expectedRole: "Monitor" })).status).toBe(200);
    expect((await stored(id)).role).toBe("User");
  });

  it("without the field behaves as before: omitted or null", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await target();
    expect((await edit(admin, id, { role: "Monitor" })).status).toBe(200);
    expect((await stored(id)).role).toBe("Monitor");
    expect((await edit(admin, id, { role: "User", expectedRole: null })).status).toBe(200);
    expect((await stored(id)).role).toBe("User");
    expect((await edit(admin, id, { phone: "555-0101" })).status).toBe(200);
    expect((await stored(id)).phone).toBe("555-0101");
  });

  it("checks an unknown expected role as a bad request", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await target();
    const bad = await edit(admin, id, { role: "Banned", expectedRole: "Owner" });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toMatch(/Expected role/);
    expect((await stored(id)).role).toBe("User");
  });
});

describe("a role change landing between the edit's check and its write", () => {
  const promote = (id: string) => () => env.DB.prepare("UPDATE users SET role = 'Admin' WHERE id = ?").bind(id).run();

  it("is never overwritten: the write itself refuses a role changed since the check", async () => {
    const { client: admin } = await newAdmin();
    const actorId = await userIdOf(admin);
    const { id } = await target();
    expect((await edit(admin, id, { role: "Banned" })).status).toBe(200);
    const refused = updateUser({ db: landingAfterRead(1, promote(id)), now: Date.now() }, actorId, id, { role: "User", phone: "555-0102", expectedRole: "Banned" });
    await expect(refused).rejects.toMatchObject({ status: 409, code: "user.role_changed" });
    expect(await stored(id)).toMatchObject({ role: "Admin", phone: "" });
  });
});
