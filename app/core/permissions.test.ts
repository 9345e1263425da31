import { describe, expect, it } from "vitest";
import { checkAccess } from "./permissions";

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
