import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { arrayOf, arrayResponseOf, recordWith, type Shape } from "~/core/ui/list-shape";
import { clearListCaches, LIST_CACHE_PREFIX } from "./cache";
import { decodeEntry, encodeEntry, LIST_CACHE_BUDGET, loadCached, planEviction, readCache, writeCache } from "./list-cache";

const anything = (_value: unknown): _value is unknown => true;
const strings: Shape<string[]> = (value): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");
const numbers: Shape<number[]> = (value): value is number[] => Array.isArray(value) && value.every((v) => typeof v === "number");
const rows = arrayOf(recordWith<{ id: number }>({ id: "number" }));

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
    expect(await decodeEntry(await encodeEntry(value, 1234), anything)).toEqual({ data: value, savedAt: 1234 });
  });

  it("compresses repetitive lists", async () => {
    const rows = Array.from({ length: 200 }, (_, i) => ({ id: i, title: "A challenge title", category: "Web" }));
    expect((await encodeEntry(rows, 0)).length).toBeLessThan(JSON.stringify(rows).length / 4);
  });

  it.each([null, "", "not json", '{"v":2,"b":"","t":1}', '{"v":3,"b":"","t":1,"z":""}', '{"v":2,"b":"","t":1,"z":"!!!"}'])(
    "rejects %j",
    async (raw) => {
      expect(await decodeEntry(raw, anything)).toBeNull();
    },
  );

  it("uses an entry only in the build that stored it", async () => {
    const raw = await encodeEntry([1, 2], 9, "build-a");
    expect(raw).toMatch(/^\{"v":2,"b":"build-a","t":9,"z":"/);
    expect(await decodeEntry(raw, numbers, "build-a")).toEqual({ data: [1, 2], savedAt: 9 });
    expect(await decodeEntry(raw, numbers, "build-b")).toBeNull();
    // The format before builds were named (fflate's raw DEFLATE of { a: 1, t: "決勝" }) is another build's.
    expect(await decodeEntry('{"v":1,"t":7,"z":"q1ZKVLIy1FEqUbJSerZx19PuuUq1AA=="}', anything)).toBeNull();
  });

  it("uses an entry only when its data has the caller's shape", async () => {
    const games = arrayResponseOf(recordWith<{ id: number; title: string }>({ id: "number", title: "string" }));
    const good = { data: [{ id: 1, title: "A" }], length: 1, total: 1 };
    expect(await decodeEntry(await encodeEntry(good, 1), games)).toEqual({ data: good, savedAt: 1 });
    for (const bad of [{ x: 1 }, { data: null, length: 0, total: 0 }, [{ id: 1, title: "A" }], { data: [{ id: "1", title: "A" }], length: 1, total: 1 }]) {
      expect(await decodeEntry(await encodeEntry(bad, 1), games), JSON.stringify(bad)).toBeNull();
    }
  });
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
    await writeCache("games", [{ id: 1 }], rows, 5);
    store.setItem("flagstaff-theme", "dark");
    expect(store.getItem(`${LIST_CACHE_PREFIX}games`)).toMatch(/^\{"v":2,"b":"","t":5,"z":"/);
    expect(await readCache("games", rows)).toEqual({ data: [{ id: 1 }], savedAt: 5 });
    clearListCaches();
    expect(await readCache("games", rows)).toBeNull();
    expect(store.getItem("flagstaff-theme")).toBe("dark");
  });

  it("evicts the oldest lists beyond the budget", async () => {
    // Random hex compresses to about half; each entry is then about 0.4 of the budget. One string serves
    // every entry (making it is most of this test's time): eviction goes by size and age, not content.
    const bytes = new Uint8Array(Math.floor((LIST_CACHE_BUDGET * 0.5) / 2));
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    const hex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
    const noise = Array.from(bytes, (b) => hex[b]).join("");
    const size = (await encodeEntry([noise], 0, "")).length / LIST_CACHE_BUDGET;
    expect(size).toBeGreaterThan(0.34);
    expect(size).toBeLessThan(0.5);
    await writeCache("one", [noise], strings, 1);
    await writeCache("two", [noise], strings, 2);
    await writeCache("three", [noise], strings, 3);
    expect((await readCache("one", strings)) === null).toBe(true);
    expect((await readCache("two", strings))?.savedAt).toBe(2);
    expect((await readCache("three", strings))?.savedAt).toBe(3);
  });

  it("loadCached answers from the cache on the first load, then from the network", async () => {
    await writeCache("posts", ["cached"], strings, 1);
    let calls = 0;
    const fetcher = async () => {
      calls += 1;
      return ["fresh"];
    };
    expect(await loadCached("posts", fetcher, strings)).toEqual({ data: ["cached"], fromCache: true });
    expect(calls).toBe(0);
    expect(await loadCached("posts", fetcher, strings)).toEqual({ data: ["fresh"], fromCache: false });
    expect((await readCache("posts", strings))?.data).toEqual(["fresh"]);
    expect(await loadCached("posts", fetcher, strings)).toEqual({ data: ["fresh"], fromCache: false });
    expect(calls).toBe(2);
  });

  it("loadCached fetches when nothing is cached", async () => {
    expect(await loadCached("empty", async () => [42], numbers)).toEqual({ data: [42], fromCache: false });
    expect((await readCache("empty", numbers))?.data).toEqual([42]);
  });

  it("loadCached refuses an answer of another shape and stores nothing, so the next load fetches again", async () => {
    await expect(loadCached("posts-bad", async () => ({ x: 1 }), strings)).rejects.toMatchObject({ name: "ApiError", status: 502 });
    expect(store.getItem(`${LIST_CACHE_PREFIX}posts-bad`)).toBeNull();
    expect(await loadCached("posts-bad", async () => ["fine"], strings)).toEqual({ data: ["fine"], fromCache: false });
  });

  it("loadCached does not paint a cached list of another shape (stored before the API changed): it fetches", async () => {
    store.setItem(`${LIST_CACHE_PREFIX}games-old`, await encodeEntry({ data: null, length: 0, total: 0 }, 1));
    const games = arrayResponseOf(recordWith<{ id: number }>({ id: "number" }));
    const fresh = { data: [{ id: 3 }], length: 1, total: 1 };
    expect(await loadCached("games-old", async () => fresh, games)).toEqual({ data: fresh, fromCache: false });
    expect((await readCache("games-old", games))?.data).toEqual(fresh);
  });

  it("loadCached does not use a list stored by another build of the app", async () => {
    store.setItem(`${LIST_CACHE_PREFIX}other-build`, await encodeEntry(["old"], 1, "another-build"));
    expect(await loadCached("other-build", async () => ["new"], strings)).toEqual({ data: ["new"], fromCache: false });
  });

  it("keeps the latest write when an older one finishes later", async () => {
    const big = Array.from({ length: 20_000 }, (_, i) => ({ id: i, title: `row ${i}` }));
    const older = writeCache("race", big, anything, 1);
    const newer = writeCache("race", ["small"], anything, 2);
    await Promise.all([older, newer]);
    expect(await readCache("race", anything)).toEqual({ data: ["small"], savedAt: 2 });
  });

  it("never caches what does not have the list's shape (a broken body read as text, another object)", async () => {
    await writeCache("broken", '{"data": [', strings, 1);
    expect(store.getItem(`${LIST_CACHE_PREFIX}broken`)).toBeNull();
    await writeCache("object", { x: 1 }, strings, 1);
    expect(store.getItem(`${LIST_CACHE_PREFIX}object`)).toBeNull();
    store.setItem(`${LIST_CACHE_PREFIX}text`, await encodeEntry("<html>", 1));
    expect(await readCache("text", strings)).toBeNull();
  });

  it("evicts entries of another build first, however recent", async () => {
    // Each entry about 0.4 of the budget (as above): the third write must drop one.
    const bytes = new Uint8Array(Math.floor((LIST_CACHE_BUDGET * 0.5) / 2));
    for (let i = 0; i < bytes.length; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
    const hex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));
    const noise = Array.from(bytes, (b) => hex[b]).join("");
    store.setItem(`${LIST_CACHE_PREFIX}stale`, await encodeEntry([noise], 5, "another-build"));
    await writeCache("older-but-ours", [noise], strings, 1);
    await writeCache("new", [noise], strings, 6);
    expect(store.getItem(`${LIST_CACHE_PREFIX}stale`)).toBeNull();
    expect((await readCache("older-but-ours", strings))?.savedAt).toBe(1);
    expect((await readCache("new", strings))?.savedAt).toBe(6);
  });
});
