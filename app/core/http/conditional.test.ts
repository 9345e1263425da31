import { describe, expect, it } from "vitest";
import { ChangeTimes, etagMatches, formatHttpDate, isNotModified, lastModifiedOf, parseHttpDate } from "./conditional";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const T = Date.UTC(1994, 10, 6, 8, 49, 37);

describe("formatHttpDate / parseHttpDate", () => {
  it("writes IMF-fixdate, dropping the milliseconds", () => {
    expect(formatHttpDate(T + 999)).toBe("Sun, 06 Nov 1994 08:49:37 GMT");
    expect(parseHttpDate(formatHttpDate(NOW + 123), NOW)).toBe(NOW);
  });

  it.each([
    ["IMF-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", T],
    ["surrounding spaces", "  Sun, 06 Nov 1994 08:49:37 GMT ", T],
    ["RFC 850", "Sunday, 06-Nov-94 08:49:37 GMT", T],
    ["RFC 850, a two-digit year within 50 years ahead", "Friday, 06-Nov-26 08:49:37 GMT", Date.UTC(2026, 10, 6, 8, 49, 37)],
    ["asctime", "Sun Nov  6 08:49:37 1994", T],
    ["asctime, two-digit day", "Sun Nov 16 08:49:37 1994", Date.UTC(1994, 10, 16, 8, 49, 37)],
    ["empty", "", null],
    ["a number", "784111777", null],
    ["ISO 8601", "1994-11-06T08:49:37Z", null],
    ["no zone", "Sun, 06 Nov 1994 08:49:37", null],
    ["another zone", "Sun, 06 Nov 1994 08:49:37 UTC", null],
    ["lower-case month", "Sun, 06 nov 1994 08:49:37 GMT", null],
    ["unknown month", "Sun, 06 Nox 1994 08:49:37 GMT", null],
    ["unknown day name", "Sux, 06 Nov 1994 08:49:37 GMT", null],
    ["31 February", "Sun, 31 Feb 1994 08:49:37 GMT", null],
    ["day 0", "Sun, 00 Nov 1994 08:49:37 GMT", null],
    ["hour 24", "Sun, 06 Nov 1994 24:00:00 GMT", null],
    ["second 60", "Sun, 06 Nov 1994 08:49:60 GMT", null],
    ["two dates", "Sun, 06 Nov 1994 08:49:37 GMT, Sun, 06 Nov 1994 08:49:38 GMT", null],
  ])("%s", (_name, text, expected) => {
    expect(parseHttpDate(text, NOW)).toBe(expected);
  });
});

describe("lastModifiedOf", () => {
  it.each([
    ["just changed", 0, null],
    ["999 ms old", 999, null],
    ["exactly 1 s old", 1000, "Sun, 06 Nov 1994 08:49:37 GMT"],
    ["an hour old", 3_600_000, "Sun, 06 Nov 1994 08:49:37 GMT"],
  ])("%s", (_name, age, expected) => {
    expect(lastModifiedOf(T + 500, T + 500 + age)).toBe(expected);
  });
});

describe("etagMatches", () => {
  it.each([
    ['W/"a"', 'W/"a"', true],
    ['"a"', 'W/"a"', true],
    ['W/"b", W/"a"', 'W/"a"', true],
    ["*", 'W/"a"', true],
    ['W/"b"', 'W/"a"', false],
    ['W/"a-1"', 'W/"a"', false],
    ["", 'W/"a"', false],
  ])("If-None-Match %s against %s", (header, etag, expected) => {
    expect(etagMatches(header, etag)).toBe(expected);
  });
});

describe("isNotModified", () => {
  const etag = 'W/"x"';
  const at = (ms: number) => formatHttpDate(ms);
  it.each([
    ["no conditions", {}, T, false],
    ["If-None-Match matches", { ifNoneMatch: etag }, T, true],
    ["If-None-Match differs", { ifNoneMatch: 'W/"y"' }, T, false],
    ["If-None-Match decides alone: differs, date would match", { ifNoneMatch: 'W/"y"', ifModifiedSince: at(T) }, T, false],
    ["If-None-Match decides alone: matches, date older", { ifNoneMatch: etag, ifModifiedSince: at(T - 60_000) }, T, true],
    ["If-Modified-Since equal to Last-Modified", { ifModifiedSince: at(T) }, T, true],
    ["If-Modified-Since later", { ifModifiedSince: at(T + 5000) }, T, true],
    ["If-Modified-Since a second earlier", { ifModifiedSince: at(T - 1000) }, T, false],
    ["invalid If-Modified-Since ignored", { ifModifiedSince: "yesterday" }, T, false],
    ["If-Modified-Since later than the server's clock ignored", { ifModifiedSince: at(NOW + 1000) }, T, false],
    ["If-Modified-Since at the server's clock", { ifModifiedSince: at(NOW) }, T, true],
    ["unknown change time", { ifModifiedSince: at(T) }, null, false],
    // A client holding Last-Modified L of a version at least 1 s old; every later version is made after
    // L was handed out, i.e. at least 1 s after its change time: its floor(t) is a later second.
    ["sub-second change after the date was handed out", { ifModifiedSince: at(T + 200) }, T + 200 + 1000, false],
    ["a version within the date's own second (its date was never handed out)", { ifModifiedSince: at(T) }, T + 999, true],
  ])("%s", (_name, conditions, changedAt, expected) => {
    expect(isNotModified(conditions, { etag, changedAt }, NOW)).toBe(expected);
  });

  it("never answers 304 to a version made after its date was handed out (changes within a second)", () => {
    // Versions a few ms to a few seconds apart; reads every 50 ms hand out Last-Modified when they may.
    const gaps = [300, 200, 1500, 100, 2500, 50, 1200, 999, 1000, 1001, 30, 4000, 700];
    const versions = gaps.reduce<number[]>((list, gap) => [...list, list[list.length - 1]! + gap], [T + 123]);
    let handedOut = 0;
    for (let read = versions[0]!; read < versions[versions.length - 1]! + 3000; read += 50) {
      const i = versions.findLastIndex((v) => v <= read);
      const lm = lastModifiedOf(versions[i]!, read);
      if (lm === null) continue;
      handedOut += 1;
      expect(isNotModified({ ifModifiedSince: lm }, { etag: null, changedAt: versions[i]! }, NOW)).toBe(true);
      for (const later of versions.slice(i + 1)) expect(isNotModified({ ifModifiedSince: lm }, { etag: null, changedAt: later }, NOW)).toBe(false);
    }
    expect(handedOut).toBeGreaterThan(100);
  });

  it("would answer a wrong 304 if Last-Modified were sent at once (why the 1 s wait exists)", () => {
    const first = T + 100;
    const second = T + 600;
    const naive = formatHttpDate(first);
    expect(isNotModified({ ifModifiedSince: naive }, { etag: null, changedAt: second }, NOW)).toBe(true);
    expect(lastModifiedOf(first, second)).toBeNull();
  });
});

describe("ChangeTimes", () => {
  it("keeps the time an ETag was first seen, and starts again when it changes or reverts", () => {
    const times = new ChangeTimes(10);
    expect(times.changedAt("/a", "e1", 100)).toBe(100);
    expect(times.changedAt("/a", "e1", 900)).toBe(100);
    expect(times.changedAt("/b", "e1", 950)).toBe(950);
    expect(times.changedAt("/a", "e2", 1000)).toBe(1000);
    expect(times.changedAt("/a", "e1", 1100)).toBe(1100);
    expect(times.changedAt("/a", "e1", 5000)).toBe(1100);
  });

  it("stays bounded, forgetting the least recently read key", () => {
    const times = new ChangeTimes(2);
    times.changedAt("/a", "e", 1);
    times.changedAt("/b", "e", 2);
    times.changedAt("/a", "e", 3);
    times.changedAt("/c", "e", 4);
    expect(times.size).toBe(2);
    expect(times.changedAt("/a", "e", 5)).toBe(1);
    expect(times.changedAt("/b", "e", 6)).toBe(6);
  });
});
