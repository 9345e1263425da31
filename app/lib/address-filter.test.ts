import { describe, expect, it } from "vitest";
import { applyFilterChanges, onlyParamChanged } from "./address-filter";

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

describe("onlyParamChanged", () => {
  const at = (path: string) => new URL(path, "http://127.0.0.1");
  it("is true when only that parameter changed on the same page", () => {
    expect(onlyParamChanged(at("/games/1/challenges"), at("/games/1/challenges?challenge=3"), "challenge")).toBe(true);
    expect(onlyParamChanged(at("/games/1/challenges?challenge=3&x=1"), at("/games/1/challenges?x=1&challenge=4"), "challenge")).toBe(true);
    expect(onlyParamChanged(at("/games/1/challenges?challenge=3"), at("/games/1/challenges"), "challenge")).toBe(true);
  });

  it("is false for another page, another parameter, or no change (a revalidation)", () => {
    expect(onlyParamChanged(at("/games/1/challenges"), at("/games/2/challenges?challenge=3"), "challenge")).toBe(false);
    expect(onlyParamChanged(at("/games/1/challenges?challenge=3"), at("/games/1/challenges?challenge=4&x=1"), "challenge")).toBe(false);
    expect(onlyParamChanged(at("/games/1/challenges?challenge=3"), at("/games/1/challenges?challenge=3"), "challenge")).toBe(false);
  });
});
