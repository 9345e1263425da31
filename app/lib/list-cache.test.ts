import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearListCaches, LIST_CACHE_PREFIX } from "./cache";
import { decodeEntry, encodeEntry, LIST_CACHE_BUDGET, loadCached, planEviction, readCache, writeCache } from "./list-cache";

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

describe("encodeEntry / decodeEntry", () => {
  it("round-trips JSON values with non-ASCII text", async () => {
    const value = { data: [{ id: 1, title: "決勝 — 初赛 ✓" }], total: 1 };
    expect(await decodeEntry(await encodeEntry(value, 1234))).toEqual({ data: value, savedAt: 1234 });
  });

  it("compresses repetitive lists", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, title: "A challenge title", category: "Web" }));
    expect((await encodeEntry(rows, 0)).length).toBeLessThan(JSON.stringify(rows).length / 4);
  });

  it.each([null, "", "not json", '{"v":1,"t":1}', '{"v":2,"t":1,"z":""}', '{"v":1,"t":1,"z":"!!!"}'])(
    "rejects %j",
    async (raw) => {
      expect(await decodeEntry(raw)).toBeNull();
    },
  );
});

describe("planEviction", () => {
  const e = (key: string, size: number, savedAt: number) => ({ key, size, savedAt });

  it("drops nothing under the budget", () => {
    expect(planEviction([e("a", 10, 1), e("b", 10, 2)], 20)).toEqual([]);
  });

  it("drops the oldest first until the total fits", () => {
    expect(planEviction([e("new", 10, 3), e("old", 10, 1), e("mid", 10, 2)], 15)).toEqual(["old", "mid"]);
  });

  it("never drops the entry being written and treats unreadable entries as oldest", () => {
    expect(planEviction([e("keep", 10, 0), e("bad", 5, Number.NaN), e("b", 10, 5)], 12, "keep")).toEqual(["bad", "b"]);
  });
});

describe("browser storage", () => {
  let store: MemoryStorage;
  beforeEach(() => {
    store = new MemoryStorage();
    (globalThis as { window?: unknown }).window = { localStorage: store, location: { reload() {} } };
  });
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it("writes compressed entries under the prefix, which Clear Cache empties", async () => {
    await writeCache("games", [{ id: 1 }], 5);
    store.setItem("flagstaff-theme", "dark");
    expect(store.getItem(`${LIST_CACHE_PREFIX}games`)).toMatch(/^\{"v":1,"t":5,"z":"/);
    expect(await readCache("games")).toEqual({ data: [{ id: 1 }], savedAt: 5 });
    clearListCaches();
    expect(await readCache("games")).toBeNull();
    expect(store.getItem("flagstaff-theme")).toBe("dark");
  });

  it("evicts the oldest lists beyond the budget", async () => {
    // Random hex compresses to about half; each entry is then about 0.4 of the budget. One string serves
    // every entry (making it is most of this test's time): eviction goes by size and age, not content.
    const bytes = new Uint8Array(Math.floor((LIST_CACHE_BUDGET * 0.5) / 2));
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    const hex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
    const noise = Array.from(bytes, (b) => hex[b]).join("");
    const size = (await encodeEntry([noise], 0)).length / LIST_CACHE_BUDGET;
    expect(size).toBeGreaterThan(0.34);
    expect(size).toBeLessThan(0.5);
    await writeCache("one", [noise], 1);
    await writeCache("two", [noise], 2);
    await writeCache("three", [noise], 3);
    expect((await readCache("one")) === null).toBe(true);
    expect((await readCache<string[]>("two"))?.savedAt).toBe(2);
    expect((await readCache<string[]>("three"))?.savedAt).toBe(3);
  });

  it("loadCached answers from the cache on the first load, then from the network", async () => {
    await writeCache("posts", ["cached"], 1);
    let calls = 0;
    const fetcher = async () => {
      calls += 1;
      return ["fresh"];
    };
    expect(await loadCached("posts", fetcher)).toEqual({ data: ["cached"], fromCache: true });
    expect(calls).toBe(0);
    expect(await loadCached("posts", fetcher)).toEqual({ data: ["fresh"], fromCache: false });
    expect((await readCache("posts"))?.data).toEqual(["fresh"]);
    expect(await loadCached("posts", fetcher)).toEqual({ data: ["fresh"], fromCache: false });
    expect(calls).toBe(2);
  });

  it("loadCached fetches when nothing is cached", async () => {
    expect(await loadCached("empty", async () => [42])).toEqual({ data: [42], fromCache: false });
    expect((await readCache("empty"))?.data).toEqual([42]);
  });

  it("keeps the latest write when an older one finishes later", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ id: i, title: `row ${i}` }));
    const older = writeCache("race", big, 1);
    const newer = writeCache("race", ["small"], 2);
    await Promise.all([older, newer]);
    expect(await readCache("race")).toEqual({ data: ["small"], savedAt: 2 });
  });

  it("reads entries stored by the earlier fflate encoding (raw DEFLATE, latin1 base64)", async () => {
    // encodeEntry({ a: 1, t: "決勝" }, 7) as fflate wrote it: deflateSync → strFromU8(…, true) → btoa.
    store.setItem(`${LIST_CACHE_PREFIX}old`, '{"v":1,"t":7,"z":"q1ZKVLIy1FEqUbJSerZx19PuuUq1AA=="}');
    expect(await readCache("old")).toEqual({ data: { a: 1, t: "決勝" }, savedAt: 7 });
  });

  it("never caches what is not a list (a broken body read as text)", async () => {
    await writeCache("broken", '{"data": [', 1);
    expect(store.getItem(`${LIST_CACHE_PREFIX}broken`)).toBeNull();
    store.setItem(`${LIST_CACHE_PREFIX}text`, await encodeEntry("<html>", 1));
    expect(await readCache("text")).toBeNull();
  });
});
