import { describe, expect, it } from "vitest";
import { routeCodeToPreload } from "./route-code";

describe("routeCodeToPreload", () => {
  it("names each route's module, its imports and its split exports once, in the manifest's order", () => {
    const routes = {
      root: { module: "/assets/root-a.js", imports: ["/assets/jsx-b.js", "/assets/api-c.js"] },
      "routes/about": { module: "/assets/about-d.js", imports: ["/assets/jsx-b.js", "/assets/markdown-e.js"] },
      "routes/teams": {
        module: "/assets/teams-f.js",
        imports: ["/assets/api-c.js"],
        clientLoaderModule: "/assets/teams-client-loader-g.js",
        hydrateFallbackModule: "/assets/teams-fallback-h.js",
      },
    };
    expect(routeCodeToPreload(routes, new Set())).toEqual([
      "/assets/root-a.js",
      "/assets/jsx-b.js",
      "/assets/api-c.js",
      "/assets/about-d.js",
      "/assets/markdown-e.js",
      "/assets/teams-f.js",
      "/assets/teams-client-loader-g.js",
      "/assets/teams-fallback-h.js",
    ]);
  });

  it("leaves out what is already in the page or asked for, stylesheets and routes the manifest lost", () => {
    const routes = {
      root: { module: "/assets/root-a.js", imports: ["/assets/jsx-b.js"] },
      "routes/about": { module: "/assets/about-d.js", imports: ["/assets/jsx-b.js", "/assets/about-e.css"] },
      "routes/gone": undefined,
    };
    expect(routeCodeToPreload(routes, new Set(["/assets/root-a.js", "/assets/jsx-b.js"]))).toEqual(["/assets/about-d.js"]);
    expect(routeCodeToPreload(routes, new Set(["/assets/root-a.js", "/assets/jsx-b.js", "/assets/about-d.js"]))).toEqual([]);
  });
});
