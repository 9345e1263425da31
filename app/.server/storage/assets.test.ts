import { describe, expect, it } from "vitest";
import { decodeMultipartFileName, sanitizeFileName } from "./files";

describe("download names (the stored-name rule)", () => {
  it("keep the base name only, without control characters", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(sanitizeFileName("notes\n.txt")).toBe("notes.txt");
    expect(sanitizeFileName("题目附件.zip")).toBe("题目附件.zip");
    for (const name of ["", "..", "a/..", "dir/", "\u0007"]) expect(sanitizeFileName(name), JSON.stringify(name)).toBe("file");
  });
});

describe("multipart file names (the browser's escapes)", () => {
  it("decode exactly %22, %0D and %0A, then are sanitised as any name", () => {
    const stored = (sent: string) => sanitizeFileName(decodeMultipartFileName(sent));
    expect(stored("say %22hi%22.txt")).toBe('say "hi".txt');
    expect(stored("two%0D%0Alines.txt")).toBe("twolines.txt");
    // Other escapes are the name's own characters: browsers send `%` as it is.
    for (const name of ["100%.txt", "a%20b.txt", "%2e%2e", "x%0d%0a.txt", "%2522.txt"]) expect(stored(name), name).toBe(name);
    expect(stored("..%2F..%2Fetc")).toBe("..%2F..%2Fetc");
  });
});
