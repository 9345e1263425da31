import { describe, expect, it } from "vitest";
import { boardCopyStats, COPY_TTL_MS, keepBoardCopy, pageKey, readBoardCopy, withdrawBoardCopies } from "./board-copies";

const bytes = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;
const text = (read: ReturnType<typeof readBoardCopy>) => (read && read.kind === "ok" ? new TextDecoder().decode(read.body) : null);
const NOW = 1_000_000;
let game = 0;

describe("board copies", () => {
  it("keys the whole board and each page apart", () => {
    expect(pageKey(undefined, undefined)).toBe("all");
    expect(pageKey(5, undefined)).toBe("all");
    expect(pageKey(undefined, 50)).toBe("0:50");
    expect(pageKey(50, 50)).toBe("50:50");
  });

  it("answers a read as the room would: the body, the gzipped body, or not modified", () => {
    const id = ++game;
    keepBoardCopy(id, 3, 900, "0:50", { etag: 'W/"sb-x-3-0:50"', body: bytes("page"), gzip: null }, NOW);
    const hits = boardCopyStats.hits;
    const plain = readBoardCopy(id, "0:50", { etag: null, coding: "identity" }, NOW + 1);
    expect(plain).toMatchObject({ kind: "ok", coding: "identity", etag: 'W/"sb-x-3-0:50"', changedAt: 900, at: NOW + 1 });
    expect(text(plain)).toBe("page");
    // No gzipped bytes yet: the read goes to the room, which compresses them once.
    expect(readBoardCopy(id, "0:50", { etag: null, coding: "gzip" }, NOW)).toBeNull();
    keepBoardCopy(id, 3, 900, "0:50", { etag: 'W/"sb-x-3-0:50"', body: bytes("page"), gzip: bytes("gz") }, NOW);
    expect(text(readBoardCopy(id, "0:50", { etag: null, coding: "gzip" }, NOW))).toBe("gz");
    // Identity bytes kept after the gzipped ones keep them.
    keepBoardCopy(id, 3, 900, "0:50", { etag: 'W/"sb-x-3-0:50"', body: bytes("page"), gzip: null }, NOW);
    expect(text(readBoardCopy(id, "0:50", { etag: null, coding: "gzip" }, NOW))).toBe("gz");
    expect(readBoardCopy(id, "0:50", { etag: 'W/"sb-x-3-0:50"', coding: "gzip" }, NOW)).toMatchObject({ kind: "notModified" });
    expect(readBoardCopy(id, "0:50", { etag: '"sb-x-3-0:50"', coding: "identity" }, NOW)).toMatchObject({ kind: "notModified" });
    expect(text(readBoardCopy(id, "0:50", { etag: 'W/"sb-x-2-0:50"', coding: "identity" }, NOW))).toBe("page");
    expect(boardCopyStats.hits - hits).toBe(6);
    // Another page, the whole board or another game: not copied.
    expect(readBoardCopy(id, "50:50", { etag: null, coding: "identity" }, NOW)).toBeNull();
    expect(readBoardCopy(id, "all", { etag: null, coding: "identity" }, NOW)).toBeNull();
    expect(readBoardCopy(++game, "0:50", { etag: null, coding: "identity" }, NOW)).toBeNull();
  });

  it("keeps one version per game: a newer one replaces the copies, an older one is refused", () => {
    const id = ++game;
    keepBoardCopy(id, 4, 1, "all", { etag: "v4", body: bytes("four"), gzip: null }, NOW);
    keepBoardCopy(id, 4, 1, "0:50", { etag: "v4p", body: bytes("four page"), gzip: null }, NOW);
    keepBoardCopy(id, 5, 2, "all", { etag: "v5", body: bytes("five"), gzip: null }, NOW);
    expect(text(readBoardCopy(id, "all", { etag: null, coding: "identity" }, NOW))).toBe("five");
    expect(readBoardCopy(id, "0:50", { etag: null, coding: "identity" }, NOW)).toBeNull();
    // A slow read of version 4 finishing now does not bring it back.
    keepBoardCopy(id, 4, 1, "0:50", { etag: "v4p", body: bytes("four page"), gzip: null }, NOW);
    expect(readBoardCopy(id, "0:50", { etag: null, coding: "identity" }, NOW)).toBeNull();
    expect(readBoardCopy(id, "all", { etag: null, coding: "identity" }, NOW)).toMatchObject({ etag: "v5", changedAt: 2 });
  });

  it("forgets a game's copies when the room withdraws them, and when they are older than their time", () => {
    const id = ++game;
    const other = ++game;
    keepBoardCopy(id, 1, 1, "all", { etag: "a", body: bytes("a"), gzip: null }, NOW);
    keepBoardCopy(other, 1, 1, "all", { etag: "b", body: bytes("b"), gzip: null }, NOW);
    withdrawBoardCopies(id);
    expect(readBoardCopy(id, "all", { etag: null, coding: "identity" }, NOW)).toBeNull();
    expect(text(readBoardCopy(other, "all", { etag: null, coding: "identity" }, NOW + COPY_TTL_MS - 1))).toBe("b");
    expect(readBoardCopy(other, "all", { etag: null, coding: "identity" }, NOW + COPY_TTL_MS)).toBeNull();
    // Gone for good: a read at an earlier clock finds nothing either.
    expect(readBoardCopy(other, "all", { etag: null, coding: "identity" }, NOW)).toBeNull();
    // Each keep (a read the room answered) gives the game's copies their full time again.
    keepBoardCopy(id, 2, 1, "all", { etag: "c", body: bytes("c"), gzip: null }, NOW);
    keepBoardCopy(id, 2, 1, "0:50", { etag: "d", body: bytes("d"), gzip: null }, NOW + 1_500);
    expect(text(readBoardCopy(id, "all", { etag: null, coding: "identity" }, NOW + 1_500 + COPY_TTL_MS - 1))).toBe("c");
  });
});
