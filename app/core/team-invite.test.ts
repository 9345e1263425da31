import { describe, expect, it } from "vitest";
import { formatInviteCode, generateInviteToken, parseInviteCode } from "./team-invite";

const token = "0123456789abcdef0123456789abcdef";

describe("invite codes", () => {
  it("round-trips through format and parse", () => {
    expect(parseInviteCode(formatInviteCode("Red Team", 42, token))).toEqual({ teamId: 42, token });
  });

  it.each([
    ["a name with colons", `a:b:c:7:${token}`, { teamId: 7, token }],
    ["surrounding spaces", `  x:7:${token}\n`, { teamId: 7, token }],
    ["an empty name", `:7:${token}`, { teamId: 7, token }],
  ])("reads the tail of %s", (_label, code, expected) => {
    expect(parseInviteCode(code)).toEqual(expected);
  });

  it.each([
    ["empty", ""],
    ["no team id", `x:${token}`],
    ["short token", "x:7:0123456789abcdef"],
    ["long token", `x:7:${token}0`],
    ["upper-case hex", `x:7:${token.toUpperCase()}`],
    ["non-hex", `x:7:${"g".repeat(32)}`],
    ["negative id", `x:-7:${token}`],
    ["zero id", `x:0:${token}`],
    ["trailing text", `x:7:${token}:y`],
  ])("refuses %s", (_label, code) => {
    expect(parseInviteCode(code)).toBeNull();
  });

  it("generates distinct 32 hex tokens", () => {
    const tokens = new Set(Array.from({ length: 50 }, generateInviteToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{32}$/);
  });
});
