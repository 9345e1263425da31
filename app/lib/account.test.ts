import { describe, expect, it } from "vitest";
import { loginPath, pagePath, safeRedirect } from "./account";

const at = (path: string) => new URL(path, "http://127.0.0.1:8787");

describe("pagePath", () => {
  it("names the page of a client navigation's data request", () => {
    expect(pagePath(at("/teams.data?_routes=routes%2Fteams"))).toBe("/teams");
    expect(pagePath(at("/account/profile.data?_routes=root%2Croutes%2Faccount%2Fprofile"))).toBe("/account/profile");
    expect(pagePath(at("/_.data"))).toBe("/");
    expect(pagePath(at("/_root.data?_routes=root"))).toBe("/");
    expect(pagePath(at("/games/3/challenges.data?x=1&_routes=routes%2Fgames%2Fchallenges"))).toBe("/games/3/challenges?x=1");
  });

  it("keeps a page address as it is", () => {
    expect(pagePath(at("/admin/games/1/challenges/1"))).toBe("/admin/games/1/challenges/1");
    expect(pagePath(at("/games/1/challenges?x=1"))).toBe("/games/1/challenges?x=1");
  });
});

describe("loginPath and safeRedirect", () => {
  it("sends the login page back to the page, not to its data", () => {
    expect(loginPath(at("/teams.data?_routes=routes%2Fteams"))).toBe("/account/login?from=%2Fteams");
    expect(loginPath(at("/posts?page=2"))).toBe("/account/login?from=%2Fposts%3Fpage%3D2");
  });

  it("turns a data address given as the way back into its page", () => {
    expect(safeRedirect("/teams.data?_routes=routes%2Fteams")).toBe("/teams");
    expect(safeRedirect("/account/profile.data?_routes=x")).toBe("/account/profile");
    expect(safeRedirect("/games/1?tab=2")).toBe("/games/1?tab=2");
  });

  it("refuses other sites", () => {
    expect(safeRedirect("//evil.example/x")).toBe("/");
    expect(safeRedirect("https://evil.example/")).toBe("/");
    expect(safeRedirect("/\\evil.example")).toBe("/");
    expect(safeRedirect(null, "/home")).toBe("/home");
  });

  it("refuses other sites spelt with characters a browser drops or reads as a slash", () => {
    for (const to of ["/\t/evil.example", "/\t\\evil.example", "/\n/evil.example", "/\r/evil.example", "\\/evil.example", "/.//evil.example", "/./\\evil.example"]) {
      expect(safeRedirect(to), JSON.stringify(to)).toBe("/");
    }
  });

  it("sends back a path without control characters", () => {
    expect(safeRedirect("/games/1\r\nSet-Cookie: x=1")).toBe("/games/1Set-Cookie:%20x=1");
    expect(safeRedirect("/games/1#top")).toBe("/games/1#top");
  });
});
