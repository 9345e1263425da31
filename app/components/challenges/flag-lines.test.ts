import { describe, expect, it } from "vitest";
import { parseRemotePairs, parseStaticFlags } from "./flag-lines";

describe("static flags, one per line", () => {
  it("trims, skips blanks and keeps each flag once", () => {
    expect(parseStaticFlags(" flag{a} \r\n\nflag{b}\nflag{a}\n   ")).toEqual(["flag{a}", "flag{b}"]);
    expect(parseStaticFlags("")).toEqual([]);
  });
});

describe("remote pairs, one 'flag URL' per line", () => {
  it("splits at the last space so flags may hold spaces", () => {
    expect(parseRemotePairs("flag{one} https://x.test/1\n\n  flag{two words}   http://x.test/2  ")).toEqual({
      ok: true,
      pairs: [
        { flag: "flag{one}", remoteUrl: "https://x.test/1" },
        { flag: "flag{two words}", remoteUrl: "http://x.test/2" },
      ],
    });
  });

  it.each([
    ["https://x.test/only-url", 1],
    ["flag{a} https://x.test/a\nflag{b}", 2],
    ["flag{a} ftp://x.test/a", 1],
  ])("reports the first bad line of %j", (text, line) => {
    expect(parseRemotePairs(text)).toEqual({ ok: false, line });
  });
});
