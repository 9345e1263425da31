import { describe, expect, it } from "vitest";
import { gameUpdateSchema } from "../schemas/game";
import { checkGameNumbers, GAME_UPDATE_FIELDS, type GameNumberField, gameRefusalPlace, savedGameTimes, writeupHoursShown } from "./info-form";

const fine: Record<GameNumberField, string> = { memberLimit: "4", containerLimit: "0", writeupHours: "1.5", bloodFirst: "5", bloodSecond: "3.5", bloodThird: "0" };

describe("checkGameNumbers", () => {
  it("reads the values", () => {
    expect(checkGameNumbers(fine)).toEqual({ values: { memberLimit: 4, containerLimit: 0, writeupHours: 1.5, bloodFirst: 5, bloodSecond: 3.5, bloodThird: 0 } });
  });

  it.each([
    ["memberLimit", "-3", "adminGames.numberWhole"],
    ["memberLimit", "", "adminGames.numberWhole"],
    ["containerLimit", "  ", "adminGames.numberWhole"],
    ["writeupHours", "", "adminGames.numberDecimal"],
    ["bloodFirst", "", "adminGames.numberDecimal"],
    ["memberLimit", "2.5", "adminGames.numberWhole"],
    ["containerLimit", "abc", "adminGames.numberWhole"],
    ["containerLimit", "1e9", "adminGames.numberWhole"],
    ["writeupHours", "-1", "adminGames.numberDecimal"],
    ["writeupHours", "0.125", "adminGames.numberDecimal"],
    ["bloodFirst", "150", "adminGames.numberDecimal"],
    ["bloodSecond", "-0.1", "adminGames.numberDecimal"],
    ["bloodThird", "2.55", "adminGames.numberDecimal"],
    ["bloodThird", "Infinity", "adminGames.numberDecimal"],
  ] as const)("%s = %j is refused (%s)", (field, value, key) => {
    const result = checkGameNumbers({ ...fine, [field]: value });
    expect(result).toMatchObject({ problem: { field, key } });
  });

  it("accepts the edges", () => {
    expect(checkGameNumbers({ ...fine, bloodFirst: "100", bloodThird: "0.1", memberLimit: "0", writeupHours: "0.01" })).toHaveProperty("values");
  });
});

describe("savedGameTimes", () => {
  // Start 12:04:37.250, end 18:32:54.162, writeup deadline 1 h 11 min 6 s after the end (shown as 1.19 h).
  const game = { start: Date.UTC(2026, 10, 26, 12, 4, 37, 250), end: Date.UTC(2026, 10, 26, 18, 32, 54, 162), writeupDeadline: 0 };
  game.writeupDeadline = game.end + 4_266_000;
  const untouched = { start: game.start - 37_250, startChanged: false, end: game.end - 54_162, endChanged: false, writeupHours: 1.19 };

  it("keeps every exact time when the fields are left as shown", () => {
    expect(writeupHoursShown(game)).toBe(1.19);
    expect(savedGameTimes(game, untouched)).toEqual({ start: game.start, end: game.end, writeupDeadline: game.writeupDeadline });
  });

  it("takes a changed time as typed and keeps the writeup deadline's distance from a moved end", () => {
    const end = Date.UTC(2026, 10, 26, 20, 0);
    expect(savedGameTimes(game, { ...untouched, end, endChanged: true })).toEqual({ start: game.start, end, writeupDeadline: end + 4_266_000 });
    const start = Date.UTC(2026, 10, 26, 13, 0);
    expect(savedGameTimes(game, { ...untouched, start, startChanged: true }).start).toBe(start);
  });

  it("takes changed writeup hours from the end", () => {
    expect(savedGameTimes(game, { ...untouched, writeupHours: 2 }).writeupDeadline).toBe(game.end + 7_200_000);
    expect(savedGameTimes(game, { ...untouched, writeupHours: 0 }).writeupDeadline).toBe(game.end);
  });
});

describe("gameRefusalPlace", () => {
  it.each([
    ["title", { at: "title", clearedBy: ["title"] }],
    ["teamMemberCountLimit", { at: "teamMemberCountLimit", clearedBy: ["teamMemberCountLimit"] }],
    // Refused for coming before the start too: gone when the start changes as well.
    ["end", { at: "end", clearedBy: ["end", "start"] }],
    // Sent as the end plus the hours after it: shown at the hours, gone when either changes.
    ["writeupDeadline", { at: "writeupHours", clearedBy: ["writeupHours", "end"] }],
    // Packed from three parts: shown at the three, gone when one changes.
    ["bloodBonus", { at: "bloodBonus", clearedBy: ["blood1", "blood2", "blood3"] }],
  ] as const)("shows a refusal of %s where the editor has it", (field, place) => {
    expect(gameRefusalPlace(field)).toEqual(place);
  });

  it("has a place for every field of the game update the editor has an input for", () => {
    const switchesAndLists = ["hidden", "acceptWithoutReview", "writeupRequired", "practiceMode", "divisions"];
    const fields = Object.keys(gameUpdateSchema.shape).filter((f) => !switchesAndLists.includes(f));
    expect([...GAME_UPDATE_FIELDS].sort()).toEqual(fields.sort());
  });
});
