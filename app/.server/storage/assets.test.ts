import { describe, expect, it } from "vitest";
import { sanitizeFileName } from "./files";

describe("download names (the stored-name rule)", () => {
  it("keep the base name only, without control characters", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(sanitizeFileName("notes\n.txt")).toBe("notes.txt");
    expect(sanitizeFileName("题目附件.zip")).toBe("题目附件.zip");
    for (const name of ["", "..", "a/..", "dir/", "\u0007"]) expect(sanitizeFileName(name), JSON.stringify(name)).toBe("file");
  });
});
