import { describe, expect, it } from "vitest";
import { applyFilterChanges } from "./address-filter";

const apply = (search: string, changes: Record<string, string>) => applyFilterChanges(new URLSearchParams(search), changes).toString();

describe("applyFilterChanges", () => {
  it.each([
    ["", { status: "Pending" }, "status=Pending"],
    ["status=Pending&page=3", { q: "abc" }, "status=Pending&q=abc"],
    ["status=Pending&q=abc", { status: "" }, "q=abc"],
    ["q=abc&page=2", { page: "3" }, "q=abc&page=3"],
    ["q=abc&page=2", { page: "1" }, "q=abc"],
    ["q=a", { q: "a b" }, "q=a+b"],
    ["other=1", { show: "missing" }, "other=1&show=missing"],
  ])("%j + %j → %j", (search, changes, expected) => {
    expect(apply(search, changes)).toBe(expected);
  });

  it("leaves the parameters it was given alone", () => {
    const params = new URLSearchParams("q=abc");
    applyFilterChanges(params, { q: "" });
    expect(params.toString()).toBe("q=abc");
  });
});
