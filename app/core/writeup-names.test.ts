import { describe, expect, it } from "vitest";
import {
  attachmentDisposition,
  formatUtcStamp,
  isPdfNameAndType,
  safeSegment,
  writeupArchiveEntry,
  writeupArchiveFolder,
  writeupArchiveName,
  writeupFileName,
} from "./writeup-names";

const T = Date.UTC(2024, 0, 2, 3, 4, 5, 678);

describe("formatUtcStamp", () => {
  it.each([
    [T, "20240102-03.04.05"],
    [Date.UTC(1999, 11, 31, 23, 59, 59), "19991231-23.59.59"],
    [0, "19700101-00.00.00"],
  ])("%i → %s", (ms, expected) => {
    expect(formatUtcStamp(ms)).toBe(expected);
  });
});

describe("names", () => {
  it("names a stored writeup by game, team and UTC time", () => {
    expect(writeupFileName(7, 42, T)).toBe("Writeup-7-42-20240102-03.04.05Z.pdf");
  });

  it("names the archive and its folder after the game title", () => {
    expect(writeupArchiveFolder("Spring CTF", T)).toBe("Writeups-Spring CTF-20240102-03.04.05Z");
    expect(writeupArchiveName("Spring CTF", T)).toBe("Writeups-Spring CTF-20240102-03.04.05Z.tar.gz");
    expect(writeupArchiveName("a/b\\c", T)).toBe("Writeups-a_b_c-20240102-03.04.05Z.tar.gz");
  });

  it("puts the team name before the stored name, inside the folder", () => {
    expect(writeupArchiveEntry("W", "Team Ω", "Writeup-1-2-x.pdf")).toBe("W/Team Ω-Writeup-1-2-x.pdf");
    expect(writeupArchiveEntry("W", "../evil", "f.pdf")).toBe("W/.._evil-f.pdf");
  });

  it.each([
    ["a/b", "a_b"],
    ["x\u0000y\n", "x_y_"],
    ["..", "_"],
    ["  ", "_"],
    ["普通", "普通"],
  ])("safeSegment(%j) = %j", (input, expected) => {
    expect(safeSegment(input)).toBe(expected);
  });
});

describe("isPdfNameAndType", () => {
  it.each([
    ["report.pdf", "application/pdf", true],
    ["REPORT.PDF", "application/pdf", true],
    ["report.pdf", "Application/PDF; charset=binary", true],
    ["report.png", "application/pdf", false],
    ["report.pdf", "image/png", false],
    ["report.pdf", "", false],
    ["pdf", "application/pdf", false],
  ])("%s %s → %s", (name, type, expected) => {
    expect(isPdfNameAndType(name, type)).toBe(expected);
  });
});

describe("attachmentDisposition", () => {
  it("keeps ASCII names and encodes others", () => {
    expect(attachmentDisposition("a.tar.gz")).toBe(`attachment; filename="a.tar.gz"; filename*=UTF-8''a.tar.gz`);
    expect(attachmentDisposition('Ω "x".gz')).toBe(`attachment; filename="_ _x_.gz"; filename*=UTF-8''%CE%A9%20%22x%22.gz`);
  });
});
