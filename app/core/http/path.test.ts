import { describe, expect, it } from "vitest";
import { isHttpsUrl, pathOf } from "./path";

describe("pathOf", () => {
  it.each([
    "http://127.0.0.1:8787/api/game/1/challenges/2",
    "http://127.0.0.1:8787/API/Game/1/Challenges/2?x=1#y",
    "http://localhost/",
    "http://localhost",
    "http://localhost?q=1",
    "http://localhost#frag",
    "https://example.com/assets/app-abc123.js",
    "http://h/a/./b",
    "http://h/a/../b",
    "http://h/a/..",
    "http://h/a/.",
    "http://h/a/%2e%2E/b",
    "http://h/a/.%2e/b",
    "http://h/a/..b/c",
    "http://h/.well-known/x",
    "http://h/a%20b/%41",
    "http://h/a b",
    "http://h/ünï/código",
    "http://h/a\\b",
    "http://h/a{b}|c^`d",
    "http://h/a\"<>",
    "http://h//double//slash/",
    "http://user:pass@h:1/p/q",
    "http://h/p?a=/b/../c",
    "http://h/p#a/../b",
    "HTTP://H/Upper/Case",
    "http://h\\a/b",
    "http://h\ta/b",
    " http://h/lead",
    "http://h?x/y",
    "http://h#x/y",
  ])("%s → the URL parser's pathname", (url) => {
    expect(pathOf(url)).toBe(new URL(url).pathname);
  });
});

describe("isHttpsUrl", () => {
  it.each([
    ["https://example.com/", true],
    ["HTTPS://example.com/", true],
    ["http://example.com/", false],
    ["http://example.com/https://x", false],
    ["wss://example.com/", false],
  ] as const)("%s → %s", (url, https) => {
    expect(isHttpsUrl(url)).toBe(https);
    expect(isHttpsUrl(url)).toBe(new URL(url).protocol === "https:");
  });
});
