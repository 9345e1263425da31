import { describe, expect, it } from "vitest";
import { adminTeamUpdateSchema, teamCreateSchema, teamUpdateSchema } from "./team";

describe("team schemas", () => {
  it.each([
    ["", false],
    ["   ", false],
    ["a", true],
    ["x".repeat(20), true],
    ["x".repeat(21), false],
    [`  ${"x".repeat(20)}  `, true],
    // Text-direction controls would let a name pass for another ("us win") and turn notices around.
    ["\u202eniw su", false],
    ["Red\u2067Team", false],
    ["فريق", true],
  ])("name %j valid: %s", (name, ok) => {
    expect(teamCreateSchema.safeParse({ name }).success).toBe(ok);
  });

  it("limits the bio to 72 characters and trims the name", () => {
    expect(teamCreateSchema.safeParse({ name: "a", bio: "b".repeat(72) }).success).toBe(true);
    expect(teamCreateSchema.safeParse({ name: "a", bio: "b".repeat(73) }).success).toBe(false);
    expect(teamCreateSchema.parse({ name: "  Red  " }).name).toBe("Red");
  });

  it("leaves omitted and null fields unset in updates", () => {
    expect(teamUpdateSchema.parse({ bio: null })).toEqual({ bio: null });
    expect(adminTeamUpdateSchema.parse({ locked: true })).toEqual({ locked: true });
    expect(adminTeamUpdateSchema.safeParse({ locked: "yes" }).success).toBe(false);
  });
});
