import { describe, expect, it } from "vitest";
import { FLAG_MAX_LENGTH } from "~/core/game-room/schemas";
import { parseRemotePairs, parseStaticFlags } from "./flag-lines";

const long = "f".repeat(FLAG_MAX_LENGTH + 1);
const emoji = "😀";

describe("static flags, one per line", () => {
  it("trims, skips blanks and keeps each flag once", () => {
    expect(parseStaticFlags(" flag{a} \r\n\nflag{b}\nflag{a}\n   ")).toEqual({ ok: true, flags: ["flag{a}", "flag{b}"] });
    expect(parseStaticFlags("")).toEqual({ ok: true, flags: [] });
    expect(parseStaticFlags("f".repeat(FLAG_MAX_LENGTH))).toEqual({ ok: true, flags: ["f".repeat(FLAG_MAX_LENGTH)] });
  });

  it("names the line of a flag too long for the server", () => {
    expect(parseStaticFlags(`flag{a}\n\nflag{b}\n${long}\nflag{c}`)).toEqual({ ok: false, line: 4, reason: "tooLong" });
  });

  it("counts a flag's length in characters, as the server does", () => {
    expect(parseStaticFlags(emoji.repeat(FLAG_MAX_LENGTH))).toEqual({ ok: true, flags: [emoji.repeat(FLAG_MAX_LENGTH)] });
    expect(parseStaticFlags(`flag{a}\n${emoji.repeat(FLAG_MAX_LENGTH + 1)}`)).toEqual({ ok: false, line: 2, reason: "tooLong" });
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
    expect(parseRemotePairs(text)).toEqual({ ok: false, line, reason: "format" });
  });

  it("names a flag too long, and a flag an earlier line already has", () => {
    expect(parseRemotePairs(`flag{a} https://x.test/a\n${long} https://x.test/b`)).toEqual({ ok: false, line: 2, reason: "tooLong" });
    expect(parseRemotePairs("flag{a} https://x.test/a\nflag{b} https://x.test/b\n\nflag{a} https://x.test/c")).toEqual({ ok: false, line: 4, reason: "duplicate", firstLine: 1 });
  });

  it("counts a flag's length in characters, as the server does", () => {
    const flag = `${emoji.repeat(FLAG_MAX_LENGTH - 2)} x`;
    expect(parseRemotePairs(`${flag} https://x.test/a`)).toEqual({ ok: true, pairs: [{ flag, remoteUrl: "https://x.test/a" }] });
    expect(parseRemotePairs(`${emoji.repeat(FLAG_MAX_LENGTH + 1)} https://x.test/a`)).toEqual({ ok: false, line: 1, reason: "tooLong" });
  });
});
