import { describe, expect, it } from "vitest";
import { downloadName } from "./assets";

describe("download names", () => {
  it("keep the base name only, without control characters", () => {
    expect(downloadName("../../etc/passwd")).toBe("passwd");
    expect(downloadName("..\\..\\boot.ini")).toBe("boot.ini");
    expect(downloadName("notes\n.txt")).toBe("notes.txt");
    expect(downloadName("题目附件.zip")).toBe("题目附件.zip");
    for (const name of ["", "..", "a/..", "dir/", "\u0007"]) expect(downloadName(name), JSON.stringify(name)).toBe("file");
  });
});
