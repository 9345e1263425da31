import { describe, expect, it } from "vitest";
import { isLoginRedirectOfShownPage, replaceLoginRedirectsOfShownPage } from "./login-history";

const at = (path: string) => new URL(path, "http://127.0.0.1:8787");
const redirected = { usr: { _isRedirect: true }, key: "k", idx: 4 };

describe("a redirect to the login page for the page on screen", () => {
  it("is one when the address bar already shows the page the login page will come back to", () => {
    expect(isLoginRedirectOfShownPage(at("/account/login?from=%2Fgames%2F1%2FChallenges"), at("/games/1/Challenges"), redirected)).toBe(true);
    expect(isLoginRedirectOfShownPage(at("/Account/Login?from=%2Fadmin%2FUsers%3Fpage%3D2"), at("/admin/Users?page=2"), redirected)).toBe(true);
  });

  it("is not one for a link followed from another page, a plain push, or another site", () => {
    expect(isLoginRedirectOfShownPage(at("/account/login?from=%2FTeams"), at("/games"), redirected)).toBe(false);
    expect(isLoginRedirectOfShownPage(at("/account/login?from=%2FTeams"), at("/Teams"), { usr: null, key: "k", idx: 4 })).toBe(false);
    expect(isLoginRedirectOfShownPage(at("/account/login?from=%2FTeams"), at("/Teams"), null)).toBe(false);
    expect(isLoginRedirectOfShownPage(at("/account/register?from=%2FTeams"), at("/Teams"), redirected)).toBe(false);
    expect(isLoginRedirectOfShownPage(new URL("http://evil.example/account/login?from=%2FTeams"), at("/Teams"), redirected)).toBe(false);
  });

  it("replaces the shown page's entry, keeping its number; other pushes push", () => {
    const calls: [string, unknown, string][] = [];
    const history = {
      state: { usr: null, key: "a", idx: 3 } as unknown,
      pushState(state: unknown, _unused: string, url: string) {
        calls.push(["push", state, url]);
      },
      replaceState(state: unknown, _unused: string, url: string) {
        calls.push(["replace", state, url]);
      },
    };
    const win = { history, location: { href: "http://127.0.0.1:8787/games/1/Challenges" } } as unknown as Window;
    replaceLoginRedirectsOfShownPage(win);
    win.history.pushState(redirected, "", "/account/login?from=%2Fgames%2F1%2FChallenges");
    win.history.pushState({ usr: null, key: "b", idx: 4 }, "", "/games/1/Scoreboard");
    expect(calls).toEqual([
      ["replace", { ...redirected, idx: 3 }, "/account/login?from=%2Fgames%2F1%2FChallenges"],
      ["push", { usr: null, key: "b", idx: 4 }, "/games/1/Scoreboard"],
    ]);
  });
});
