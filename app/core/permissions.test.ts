import { describe, expect, it } from "vitest";
import { channelsToClose, checkAccess, staffViewLost } from "./permissions";

describe("checkAccess", () => {
  it.each([
    [null, "Public", "ok"],
    [null, "User", "login"],
    ["Banned", "User", "login"],
    ["User", "User", "ok"],
    ["User", "Monitor", "forbidden"],
    ["Monitor", "Monitor", "ok"],
    ["Monitor", "Admin", "forbidden"],
    ["Admin", "Monitor", "ok"],
    ["Admin", "Admin", "ok"],
  ] as const)("role %s at level %s → %s", (role, level, expected) => {
    expect(checkAccess(role, level)).toBe(expected);
  });
});

describe("channelsToClose", () => {
  it.each([
    ["Admin", "Monitor", false, ["admin"]],
    ["Admin", "User", false, ["admin", "monitor"]],
    ["Monitor", "User", false, ["monitor"]],
    ["Monitor", "Admin", false, []],
    ["User", "Monitor", false, []],
    ["User", "User", false, []],
    ["User", "Banned", false, ["admin", "monitor", "game"]],
    ["Monitor", null, false, ["admin", "monitor", "game"]],
    ["User", "User", true, ["admin", "monitor", "game"]],
  ] as const)("%s → %s (sessions revoked: %s) closes %j", (before, after, revoked, expected) => {
    expect(channelsToClose(before, after, revoked)).toEqual(expected);
  });
});

describe("staffViewLost", () => {
  it.each([
    ["Admin", "User", false, true],
    ["Monitor", "User", false, true],
    ["Admin", "Monitor", false, false],
    ["User", "Monitor", false, false],
    ["User", "User", false, false],
    // Every socket closes anyway.
    ["Monitor", "Banned", false, false],
    ["Admin", null, false, false],
    ["Monitor", "Monitor", true, false],
  ] as const)("%s → %s (sessions revoked: %s): %s", (before, after, revoked, expected) => {
    expect(staffViewLost(before, after, revoked)).toBe(expected);
  });
});
