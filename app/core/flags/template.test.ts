import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flagsEqual, matchesAny } from "./match";
import { computeGameSalt, computeTeamHash } from "./team-hash";
import {
  checkTemplate,
  EMPTY_TEMPLATE_TEST_FLAG,
  generatedLength,
  generateFlag,
  generateTestFlag,
  LEET_TABLES,
  parseTemplate,
  type Randomness,
  templateEntropy,
} from "./template";

/** Deterministic randomness: always the same choice index (clamped), numbered UUIDs. */
function fixed(index: number): Randomness {
  let n = 0;
  return {
    int: (k) => Math.min(index, k - 1),
    uuid: () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`,
  };
}

describe("parseTemplate", () => {
  it.each([
    ["flag{abc}", "basic", "flag{abc}"],
    ["[LEET]flag{abc}", "basic", "flag{abc}"],
    ["[CLEET]flag{abc}", "complex", "flag{abc}"],
    ["flag{[GUID]}", "none", "flag{[GUID]}"],
    ["flag{x_[TEAM_HASH]}", "none", "flag{x_[TEAM_HASH]}"],
    ["[LEET]flag{x_[TEAM_HASH]}", "basic", "flag{x_[TEAM_HASH]}"],
  ] as const)("%s → mode %s", (template, mode, body) => {
    expect(parseTemplate(template)).toMatchObject({ mode, body });
  });
});

describe("generateFlag", () => {
  it("replaces an empty template by flag{uuid}", () => {
    expect(generateFlag("", "h", fixed(0))).toBe("flag{00000000-0000-4000-8000-000000000001}");
    expect(generateFlag("   ", "h")).toMatch(/^flag\{[0-9a-f-]{36}\}$/);
  });

  it("replaces every placeholder occurrence, each GUID anew, and never leets them", () => {
    const flag = generateFlag("[LEET]flag{[GUID]_[GUID]_[TEAM_HASH]}", "abcdef012345", fixed(1));
    expect(flag).toBe("flag{00000000-0000-4000-8000-000000000001_00000000-0000-4000-8000-000000000002_abcdef012345}");
  });

  it("leets only inside braces, turns spaces into underscores and keeps unknown characters", () => {
    expect(generateFlag("flag{leet me!}", "", fixed(0))).toBe("flag{LEET_ME!}");
    expect(generateFlag("flag{leet me!}", "", fixed(2))).toBe("flag{1337_m3!}");
    expect(generateFlag("TEST{aaa} tail", "", fixed(1))).toBe("TEST{aaa} tail");
  });

  it("draws every character from its table entry (basic and complex)", () => {
    fc.assert(
      fc.property(fc.constantFrom("basic", "complex"), fc.stringMatching(/^[A-Za-z0-9 ]{1,40}$/), (mode, inner) => {
        const template = `${mode === "complex" ? "[CLEET]" : "[LEET]"}x{${inner}}`;
        const flag = generateFlag(template, "");
        expect(flag.startsWith("x{") && flag.endsWith("}")).toBe(true);
        const body = [...flag.slice(2, -1)];
        [...inner].forEach((ch, i) => {
          const entry = LEET_TABLES[mode][ch.toUpperCase()];
          if (ch === " ") expect(body[i]).toBe("_");
          else if (entry) expect(entry).toContain(body[i]);
          else expect(body[i]).toBe(ch);
        });
      }),
    );
  });

  it("uses the complex table's special characters", () => {
    expect(generateFlag("[CLEET]f{aio}", "", fixed(4))).toBe("f{@!#}");
  });
});

describe("entropy and validity", () => {
  it("gives about 12.3 bits for flag{leet me in} (rules.md §6)", () => {
    expect(templateEntropy("flag{leet me in}")).toBeCloseTo(12.34, 1);
    expect(templateEntropy("flag{[GUID]}")).toBe(0);
  });

  it.each([
    ["flag{leet me in}", "too_trivial"],
    ["[LEET]flag{short}", "too_trivial"],
    ["flag{this_is_a_much_longer_leet_flag_text}", null],
    ["flag{[GUID]}", null],
    ["flag{[TEAM_HASH]}", null],
    ["[CLEET]flag{Complex Leet Flag Is Fun}", null],
    ["   ", "blank"],
    ["[LEET]", "blank"],
    [`flag{${"[GUID]".repeat(4)}}`, "flag_too_long"],
    ["x".repeat(121), "too_long"],
    // 121 characters are too long; 120 emoji-laden ones are judged on their other rules (an emoji is one).
    [`flag{${"😀".repeat(115)}}`, "too_long"],
    [`flag{${"😀".repeat(114)}}`, "too_trivial"],
  ] as const)("%s → %s", (template, problem) => {
    expect(checkTemplate(template)).toBe(problem);
  });

  it("predicts the generated length", () => {
    for (const t of ["flag{[GUID]}", "a{[TEAM_HASH]-b}", "", "[LEET]flag{x y z}"]) {
      expect(generateFlag(t, "0123456789ab").length).toBe(generatedLength(t));
    }
  });
});

describe("test flags", () => {
  it("reads [TEAM_HASH] as TestTeamHash and the empty template as the fixed test flag", () => {
    expect(generateTestFlag("flag{[TEAM_HASH]}")).toBe("flag{TestTeamHash}");
    expect(generateTestFlag("")).toBe(EMPTY_TEMPLATE_TEST_FLAG);
  });
});

describe("team hash", () => {
  it("is 12 hex characters, deterministic per team and challenge, and differs between them", async () => {
    const salt = await computeGameSalt("private-key-base64");
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    const a = await computeTeamHash(salt, 1, "5:sig");
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(await computeTeamHash(salt, 1, "5:sig")).toBe(a);
    expect(await computeTeamHash(salt, 2, "5:sig")).not.toBe(a);
    expect(await computeTeamHash(salt, 1, "6:sig")).not.toBe(a);
  });

  it("follows the documented derivation", async () => {
    const hex = async (s: string) =>
      [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s)))].map((b) => b.toString(16).padStart(2, "0")).join("");
    const gameSalt = await hex("Flagstaff@K@PK");
    expect(await computeGameSalt("K")).toBe(gameSalt);
    const challengeSalt = await hex(`${gameSalt}::7`);
    expect(await computeTeamHash(gameSalt, 7, "3:t")).toBe((await hex(`${challengeSalt}::3:t`)).slice(12, 24));
  });
});

describe("flag matching", () => {
  it("is exact and case-sensitive after trimming the submission", () => {
    expect(flagsEqual("  flag{A}\n", "flag{A}")).toBe(true);
    expect(flagsEqual("flag{a}", "flag{A}")).toBe(false);
    expect(flagsEqual("flag{A}x", "flag{A}")).toBe(false);
    expect(flagsEqual("", "flag{A}")).toBe(false);
    expect(matchesAny("flag{2}", ["flag{1}", "flag{2}"])).toBe(true);
    expect(matchesAny("flag{3}", ["flag{1}", "flag{2}"])).toBe(false);
  });
});
