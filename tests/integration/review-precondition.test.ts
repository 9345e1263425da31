import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { gameInstances, participations, teams } from "~/.server/db/schema";
import { reviewParticipation } from "~/.server/services/participations";
import enErrors from "~/locales/en-US/errors.json";
import jaErrors from "~/locales/ja-JP/errors.json";
import { createGame, type ErrorBody, join, newAdmin, teamWithMembers } from "./game-helpers";
import { type Client, db, landingAfterRead } from "./helpers";

// The review's optional precondition (`expectedStatus`, the status the admin's page showed): a decision made
// on a stale row is refused with 409 and changes nothing, never written over another admin's decision made
// meanwhile; a request without it behaves as before (api.md).

async function pendingTeam(admin: Client) {
  const g = await createGame(admin);
  const { captain, team } = await teamWithMembers();
  expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
  const p = (await db().select().from(participations).where(and(eq(participations.gameId, g.id), eq(participations.teamId, team.id))).get())!;
  return { gameId: g.id, teamId: team.id, id: p.id };
}

const statusOf = async (id: number) => (await db().select({ status: participations.status }).from(participations).where(eq(participations.id, id)).get())?.status;

const review = (admin: Client, id: number, status: string, body?: unknown, headers: Record<string, string> = {}) =>
  admin.json<ErrorBody>(`/api/admin/participation/${id}/${status}`, { method: "PUT", body, headers });

const update = (admin: Client, id: number, body: unknown, headers: Record<string, string> = {}) =>
  admin.json<ErrorBody>(`/api/admin/participation/${id}`, { method: "PUT", body, headers });

describe("PUT admin/participation/{id}/{status} with the status the page showed", () => {
  it("refuses a decision taken on a stale row (localised, nothing changed) and applies one taken on the current row", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await pendingTeam(admin);
    expect((await review(admin, id, "Accepted", { expectedStatus: "Pending" })).status).toBe(200);
    // Tab A suspends the team; tab B still shows it accepted and rejects it (which would lift the ban).
    expect((await review(admin, id, "Suspended", { expectedStatus: "Accepted" })).status).toBe(200);
    const stale = await review(admin, id, "Rejected", { expectedStatus: "Accepted" });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ title: enErrors.participation.status_changed, status: 409 });
    expect(await statusOf(id)).toBe("Suspended");
    const ja = await review(admin, id, "Rejected", { expectedStatus: "Accepted" }, { "accept-language": "ja-JP" });
    expect(ja.body).toEqual({ title: jaErrors.participation.status_changed, status: 409 });
    expect(await statusOf(id)).toBe("Suspended");
    // The row as it is now: the decision is applied.
    expect((await review(admin, id, "Rejected", { expectedStatus: "Suspended" })).status).toBe(200);
    expect(await statusOf(id)).toBe("Rejected");
  });

  it("without the field behaves as before: an empty body, no body or the field null", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await pendingTeam(admin);
    expect((await review(admin, id, "Suspended")).status).toBe(200);
    expect(await statusOf(id)).toBe("Suspended");
    expect((await review(admin, id, "Rejected", {})).status).toBe(200);
    expect(await statusOf(id)).toBe("Rejected");
    expect((await review(admin, id, "Accepted", { expectedStatus: null })).status).toBe(200);
    expect(await statusOf(id)).toBe("Accepted");
  });

  it("refuses a stale accept: neither its status nor its team lock", async () => {
    const { client: admin } = await newAdmin();
    const { id, teamId } = await pendingTeam(admin);
    expect((await review(admin, id, "Rejected")).status).toBe(200);
    const stale = await review(admin, id, "Accepted", { expectedStatus: "Pending" });
    expect(stale.status).toBe(409);
    expect(await statusOf(id)).toBe("Rejected");
    expect((await db().select({ locked: teams.locked }).from(teams).where(eq(teams.id, teamId)).get())?.locked).toBe(false);
  });

  it("checks an unknown expected status as a bad request", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await pendingTeam(admin);
    const bad = await review(admin, id, "Accepted", { expectedStatus: "Playing" });
    expect(bad.status).toBe(400);
    expect(bad.body.title).toMatch(/Expected status/);
    expect(await statusOf(id)).toBe("Pending");
  });
});

describe("PUT admin/participation/{id} with the status the page showed", () => {
  it("refuses a stale status change with its division (nothing changed) and applies a current one", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin, { divisions: [{ name: "Open" }, { name: "Pro" }] });
    const [open, pro] = g.divisions.map((d) => d.id) as [number, number];
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id, divisionId: open })).status).toBe(200);
    const { id } = (await db().select({ id: participations.id }).from(participations).where(eq(participations.teamId, team.id)).get())!;
    expect((await update(admin, id, { status: "Suspended" })).status).toBe(200);
    const stale = await update(admin, id, { status: "Accepted", divisionId: pro, expectedStatus: "Pending" });
    expect(stale.status).toBe(409);
    const row = (await db().select().from(participations).where(eq(participations.id, id)).get())!;
    expect([row.status, row.divisionId]).toEqual(["Suspended", open]);
    expect((await update(admin, id, { status: "Accepted", divisionId: pro, expectedStatus: "Suspended" })).status).toBe(200);
    const accepted = (await db().select().from(participations).where(eq(participations.id, id)).get())!;
    expect([accepted.status, accepted.divisionId]).toEqual(["Accepted", pro]);
  });
});

describe("a decision landing between the review's check and its write", () => {
  const suspend = (id: number) => () => env.DB.prepare("UPDATE participations SET status = 'Suspended' WHERE id = ?").bind(id).run();

  it("is never overwritten: the write itself refuses a status changed since the check", async () => {
    const { client: admin } = await newAdmin();
    const { id } = await pendingTeam(admin);
    expect((await review(admin, id, "Accepted")).status).toBe(200);
    const refused = reviewParticipation({ db: landingAfterRead(1, suspend(id)), now: Date.now() }, id, { status: "Rejected", expectedStatus: "Accepted" });
    await expect(refused).rejects.toMatchObject({ status: 409, code: "participation.status_changed" });
    expect(await statusOf(id)).toBe("Suspended");
  });

  it("refuses an accept whole, its team lock and instances with it", async () => {
    const { client: admin } = await newAdmin();
    const g = await createGame(admin);
    expect((await admin.json(`/api/edit/games/${g.id}/challenges`, { method: "POST", body: { title: "c", category: "Web", type: "StaticAttachment" } })).status).toBe(200);
    const { captain, team } = await teamWithMembers();
    expect((await join(captain.client, g.id, { teamId: team.id })).status).toBe(200);
    const { id } = (await db().select({ id: participations.id }).from(participations).where(eq(participations.teamId, team.id)).get())!;
    await env.DB.prepare("UPDATE challenges SET is_enabled = 1 WHERE game_id = ?").bind(g.id).run();
    const refused = reviewParticipation({ db: landingAfterRead(1, suspend(id)), now: Date.now() }, id, { status: "Accepted", expectedStatus: "Pending" });
    await expect(refused).rejects.toMatchObject({ status: 409, code: "participation.status_changed" });
    expect(await statusOf(id)).toBe("Suspended");
    expect((await db().select({ locked: teams.locked }).from(teams).where(eq(teams.id, team.id)).get())?.locked).toBe(false);
    expect(await db().select().from(gameInstances).where(eq(gameInstances.participationId, id)).all()).toEqual([]);
    // Without the race the same accept goes through, with its lock and instances.
    await env.DB.prepare("UPDATE participations SET status = 'Pending' WHERE id = ?").bind(id).run();
    await reviewParticipation({ db: db(), now: Date.now() }, id, { status: "Accepted", expectedStatus: "Pending" });
    expect(await statusOf(id)).toBe("Accepted");
    expect((await db().select({ locked: teams.locked }).from(teams).where(eq(teams.id, team.id)).get())?.locked).toBe(true);
    expect(await db().select().from(gameInstances).where(eq(gameInstances.participationId, id)).all()).toHaveLength(1);
  });
});
