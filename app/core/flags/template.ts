/**
 * The flag template language of rules.md §6 (DynamicContainer challenges). Pure: randomness and UUIDs
 * are injected so generation is testable; defaults use Web Crypto.
 */

import { codePointLength } from "../text-length";

export type LeetMode = "none" | "basic" | "complex";

export const TEMPLATE_MAX = 120;
export const FLAG_MAX = 127;
export const MIN_ENTROPY_BITS = 32;
export const TEST_TEAM_HASH = "TestTeamHash";
export const EMPTY_TEMPLATE_TEST_FLAG = "flag{FLAGSTAFF_dynamic_flag_test}";

const PLACEHOLDER = /\[(GUID|TEAM_HASH)\]/g;
const GUID_LENGTH = 36;
const TEAM_HASH_LENGTH = 12;

const basicTable: Record<string, string[]> = {
  A: ["A", "a", "4"],
  B: ["B", "b", "6", "8"],
  C: ["C", "c"],
  E: ["E", "e", "3"],
  F: ["F", "f", "1"],
  G: ["G", "g", "6", "9"],
  I: ["I", "i", "1", "l"],
  L: ["L", "l", "1", "I"],
  O: ["O", "o", "0"],
  Q: ["Q", "q", "9"],
  S: ["S", "s", "5"],
  T: ["T", "t", "7"],
  Z: ["Z", "z", "2"],
  "0": ["0", "o", "O"],
  "1": ["1", "l", "I"],
  "2": ["2", "z", "Z"],
  "3": ["3", "e", "E"],
  "4": ["4", "a", "A"],
  "5": ["5", "S", "s"],
  "6": ["6", "G", "b"],
  "7": ["7", "T"],
  "8": ["8", "b", "B"],
  "9": ["9", "g"],
};
for (const letter of "DHJKMNPRUVWXY") basicTable[letter] = [letter, letter.toLowerCase()];

const complexTable: Record<string, string[]> = {
  ...basicTable,
  A: ["A", "a", "4", "@"],
  B: ["B", "b", "6", "&"],
  C: ["C", "c", "("],
  I: ["I", "i", "1", "l", "!"],
  L: ["L", "l", "1", "I", "!"],
  O: ["O", "o", "0", "#"],
  S: ["S", "s", "5", "$"],
  Z: ["Z", "z", "2", "?"],
  "0": ["0", "o", "O", "#"],
  "1": ["1", "l", "I", "|"],
  "2": ["2", "z", "Z", "?"],
  "8": ["8", "B", "&"],
};

export const LEET_TABLES: Record<Exclude<LeetMode, "none">, Readonly<Record<string, readonly string[]>>> = {
  basic: basicTable,
  complex: complexTable,
};

export interface ParsedTemplate {
  /** The leet mode in force (explicit marker, or the default rule). */
  mode: LeetMode;
  /** The template without its marker. */
  body: string;
  hasPlaceholder: boolean;
}

export function parseTemplate(template: string): ParsedTemplate {
  let body = template.trim();
  let explicit: LeetMode | null = null;
  if (body.startsWith("[LEET]")) {
    explicit = "basic";
    body = body.slice(6);
  } else if (body.startsWith("[CLEET]")) {
    explicit = "complex";
    body = body.slice(7);
  }
  PLACEHOLDER.lastIndex = 0;
  const hasPlaceholder = PLACEHOLDER.test(body);
  PLACEHOLDER.lastIndex = 0;
  return { mode: explicit ?? (hasPlaceholder ? "none" : "basic"), body, hasPlaceholder };
}

type Segment = { kind: "text"; text: string } | { kind: "guid" } | { kind: "teamHash" };

function segments(body: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of body.matchAll(PLACEHOLDER)) {
    if (m.index > last) out.push({ kind: "text", text: body.slice(last, m.index) });
    out.push({ kind: m[1] === "GUID" ? "guid" : "teamHash" });
    last = m.index + m[0].length;
  }
  if (last < body.length) out.push({ kind: "text", text: body.slice(last) });
  return out;
}

/** Calls `visit` for each literal character with whether it lies inside braces; placeholders are skipped. */
function walkLiterals(body: string, visit: (ch: string, inside: boolean) => void, onPlaceholder?: (s: Segment) => void) {
  let depth = 0;
  for (const seg of segments(body)) {
    if (seg.kind !== "text") {
      onPlaceholder?.(seg);
      continue;
    }
    for (const ch of seg.text) {
      if (ch === "{") {
        visit(ch, false);
        depth++;
      } else if (ch === "}") {
        depth = Math.max(0, depth - 1);
        visit(ch, false);
      } else {
        visit(ch, depth > 0);
      }
    }
  }
}

/** H = Σ log2(choices) over the characters inside braces that have a table entry. */
export function templateEntropy(template: string): number {
  const { mode, body } = parseTemplate(template);
  if (mode === "none") return 0;
  const table = LEET_TABLES[mode];
  let bits = 0;
  walkLiterals(body, (ch, inside) => {
    const entry = inside ? table[ch.toUpperCase()] : undefined;
    if (entry) bits += Math.log2(entry.length);
  });
  return bits;
}

/** Length of any flag the template generates (leet keeps lengths; placeholders have fixed lengths). */
export function generatedLength(template: string, teamHashLength = TEAM_HASH_LENGTH): number {
  if (template.trim() === "") return 6 + GUID_LENGTH;
  let length = 0;
  walkLiterals(
    parseTemplate(template).body,
    () => length++,
    (s) => (length += s.kind === "guid" ? GUID_LENGTH : teamHashLength),
  );
  return length;
}

export type TemplateProblem = "blank" | "too_long" | "too_trivial" | "flag_too_long";

/** Why a non-empty template cannot be saved, or null when it can (rules.md §6 validity). */
export function checkTemplate(template: string): TemplateProblem | null {
  // In characters, as every other text limit (an emoji is one).
  if (codePointLength(template) > TEMPLATE_MAX) return "too_long";
  if (template.trim() === "") return "blank";
  const parsed = parseTemplate(template);
  if (parsed.body.trim() === "") return "blank";
  if (!parsed.hasPlaceholder && (parsed.mode === "none" || templateEntropy(template) < MIN_ENTROPY_BITS)) return "too_trivial";
  if (generatedLength(template) > FLAG_MAX) return "flag_too_long";
  return null;
}

export interface Randomness {
  /** A uniform integer in [0, n). */
  int(n: number): number;
  uuid(): string;
}

export const cryptoRandomness: Randomness = {
  int(n) {
    // Rejection sampling keeps the choice uniform.
    const limit = Math.floor(0x1_0000_0000 / n) * n;
    const buf = new Uint32Array(1);
    for (;;) {
      crypto.getRandomValues(buf);
      if (buf[0]! < limit) return buf[0]! % n;
    }
  },
  uuid: () => crypto.randomUUID(),
};

/** Generates a flag for a team. An empty template gives `flag{<uuid>}`. */
export function generateFlag(template: string, teamHash: string, rng: Randomness = cryptoRandomness): string {
  if (template.trim() === "") return `flag{${rng.uuid()}}`;
  const { mode, body } = parseTemplate(template);
  const table = mode === "none" ? null : LEET_TABLES[mode];
  let out = "";
  walkLiterals(
    body,
    (ch, inside) => {
      if (!inside || !table) {
        out += ch;
        return;
      }
      if (ch === " ") {
        out += "_";
        return;
      }
      const entry = table[ch.toUpperCase()];
      out += entry ? entry[rng.int(entry.length)] : ch;
    },
    (s) => (out += s.kind === "guid" ? rng.uuid() : teamHash),
  );
  return out;
}

/** The flag of admin test containers and the editor preview. */
export function generateTestFlag(template: string, rng: Randomness = cryptoRandomness): string {
  if (template.trim() === "") return EMPTY_TEMPLATE_TEST_FLAG;
  return generateFlag(template, TEST_TEAM_HASH, rng);
}
