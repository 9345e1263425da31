import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { teams } from "~/.server/db/schema";
import { gameTeamOptions } from "~/.server/services/submissions";
import type { AdminWriteupList } from "~/.server/services/writeups";
import { createGame, newAdmin, seedPlayers } from "./game-helpers";
import { db } from "./helpers";

/** What people expect of a list of names, in the runtime's own ICU: not SQLite's order of character codes. */
const NAMES = ["Zürich", "abc", "ALPHA", "éclair", "Åland", "alpha", "Bravo", "zoe", "team 10", "team 9"];
const READ_ORDER = ["abc", "Åland", "alpha", "ALPHA", "Bravo", "éclair", "team 9", "team 10", "zoe", "Zürich"];

describe("team names in the order people read them", () => {
  it("the monitor's team filter and the writeups list sort Åland beside alpha and Zürich after zoe", async () => {
    const admin = await newAdmin();
    const game = await createGame(admin.client);
    const players = await seedPlayers(game.id, NAMES.length);
    for (const [i, p] of players.entries()) await db().update(teams).set({ name: NAMES[i]! }).where(eq(teams.id, p.teamId)).run();

    expect((await gameTeamOptions(db(), game.id)).map((t) => t.name)).toEqual(READ_ORDER);
    const list = await admin.client.json<AdminWriteupList>(`/api/admin/writeups/${game.id}`);
    expect(list.status).toBe(200);
    expect(list.body.unsubmitted.map((w) => w.team.name)).toEqual(READ_ORDER);
  });
});
