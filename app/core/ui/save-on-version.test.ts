import { describe, expect, it } from "vitest";
import { saveOnVersion } from "./save-on-version";

class Stale extends Error {}

/** A stored list and its version; `saveAfterRead` lands another tab's save right after each of the first reads. */
function server(saveAfterRead: number) {
  const state = { items: ["a"], version: 1, reads: 0, writes: [] as (string | null)[] };
  const read = async () => {
    const seen = { value: [...state.items], etag: `"${state.version}"` };
    state.reads++;
    if (state.reads <= saveAfterRead) {
      state.items.push(`other${state.reads}`);
      state.version++;
    }
    return seen;
  };
  const write = async (current: string[], etag: string | null) => {
    state.writes.push(etag);
    if (etag !== `"${state.version}"`) throw new Stale();
    state.items = [...current, "mine"];
    state.version++;
    return state.items;
  };
  return { state, read, write, isStale: (e: unknown) => e instanceof Stale };
}

describe("saveOnVersion", () => {
  it("writes once on the version it read when nothing landed meanwhile", async () => {
    const s = server(0);
    expect(await saveOnVersion(s)).toEqual(["a", "mine"]);
    expect(s.state.writes).toEqual(['"1"']);
  });

  it("reads and merges again when a save landed between its read and its write, keeping both", async () => {
    const s = server(2);
    expect(await saveOnVersion(s)).toEqual(["a", "other1", "other2", "mine"]);
    expect(s.state.writes).toEqual(['"1"', '"2"', '"3"']);
  });

  it("gives up after the last attempt with the refusal, having written nothing", async () => {
    const s = server(10);
    await expect(saveOnVersion({ ...s, attempts: 3 })).rejects.toBeInstanceOf(Stale);
    expect(s.state.writes).toHaveLength(3);
    expect(s.state.items).not.toContain("mine");
  });

  it("does not retry another failure", async () => {
    let writes = 0;
    const failure = new Error("bad input");
    const save = saveOnVersion({
      read: async () => ({ value: 0, etag: '"1"' }),
      write: async () => {
        writes++;
        throw failure;
      },
      isStale: (e) => e instanceof Stale,
    });
    await expect(save).rejects.toBe(failure);
    expect(writes).toBe(1);
  });
});
