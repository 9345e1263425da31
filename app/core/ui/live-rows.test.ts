import { describe, expect, it } from "vitest";
import { liveRowsToKeep } from "./live-rows";

const row = (time: number, msg: string, level = "Warning", name: string | null = "alice") => ({ time, level, name, ip: "127.0.0.1", msg, status: null });

describe("liveRowsToKeep", () => {
  it("keeps a pushed row the page read before it was written does not list", () => {
    const page = [row(100, "older"), row(90, "oldest")];
    const pushed = row(120, "Failed sign-in");
    expect(liveRowsToKeep([pushed], page, "All")).toEqual([pushed]);
  });

  it("drops pushed rows the page now lists, by time, level, user, address and text", () => {
    const listed = row(120, "Failed sign-in");
    const sameTimeOtherUser = row(120, "Failed sign-in", "Warning", "bob");
    expect(liveRowsToKeep([sameTimeOtherUser, { ...listed }], [listed, row(100, "older")], "All")).toEqual([sameTimeOtherUser]);
  });

  it("drops rows of another level than the one shown", () => {
    expect(liveRowsToKeep([row(120, "error", "Error"), row(121, "warn")], [], "Warning")).toEqual([row(121, "warn")]);
  });

  it("drops rows older than the page's oldest row, which belong on a later page", () => {
    expect(liveRowsToKeep([row(80, "old"), row(95, "between")], [row(100, "a"), row(90, "b")], "All")).toEqual([row(95, "between")]);
  });

  it("keeps every row of the shown level when the page is empty", () => {
    const live = [row(2, "b"), row(1, "a")];
    expect(liveRowsToKeep(live, [], "All")).toEqual(live);
  });
});
