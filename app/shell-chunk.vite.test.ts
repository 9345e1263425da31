import { resolve } from "node:path";
import type { Rolldown } from "vite";
import { describe, expect, it } from "vitest";
import { shellChunk } from "./shell-chunk.vite.ts";

const root = resolve("app/root.tsx");
const entry = resolve("app/entry.client.tsx");
const own = (file: string) => resolve("app", file);

/** A module graph: each id and the ids it imports statically. */
function context(graph: Record<string, string[]>): Rolldown.ChunkingContext & { reads: number } {
  const ctx = {
    reads: 0,
    getModuleInfo(id: string) {
      ctx.reads++;
      const importedIds = graph[id];
      return importedIds ? ({ id, importedIds } as unknown as Rolldown.ModuleInfo) : null;
    },
  };
  return ctx;
}

describe("shellChunk", () => {
  const graph = {
    [root]: [own("lib/api.ts"), own("app.css"), "/x/node_modules/react/index.js", "\0virtual:flagstaff/locale/en-US"],
    [entry]: [own("locales/browser.ts")],
    [own("lib/api.ts")]: [own("core/errors.ts"), own("lib/api.ts")],
    [own("core/errors.ts")]: [],
    [own("locales/browser.ts")]: [own("core/i18n/languages.ts"), own("routes/home.tsx?route-chunk=clientLoader")],
    [own("core/i18n/languages.ts")]: [],
    [own("routes/home.tsx")]: [own("components/post-card.tsx"), own("lib/api.ts")],
    [own("components/post-card.tsx")]: [],
  };

  it("groups the app modules the entries import, directly or not", () => {
    const name = shellChunk(["app/root.tsx", "app/entry.client.tsx"]);
    const ctx = context(graph);
    const grouped = Object.keys(graph).filter((id) => name(id, ctx) === "shell");
    expect(grouped.sort()).toEqual(
      [own("lib/api.ts"), own("core/errors.ts"), own("locales/browser.ts"), own("core/i18n/languages.ts")].sort(),
    );
  });

  it("leaves the entries, other routes' modules, libraries, styles and virtual modules to the automatic split", () => {
    const name = shellChunk(["app/root.tsx", "app/entry.client.tsx"]);
    const ctx = context(graph);
    for (const id of [root, entry, own("routes/home.tsx"), own("components/post-card.tsx"), own("app.css"), "/x/node_modules/react/index.js", "\0virtual:flagstaff/locale/en-US", own("routes/home.tsx?route-chunk=clientLoader")]) {
      expect(name(id, ctx), id).toBeNull();
    }
  });

  it("walks the graph once per build", () => {
    const name = shellChunk(["app/root.tsx", "app/entry.client.tsx"]);
    const ctx = context(graph);
    name(own("lib/api.ts"), ctx);
    const reads = ctx.reads;
    name(own("core/errors.ts"), ctx);
    name(own("routes/home.tsx"), ctx);
    expect(ctx.reads).toBe(reads);
  });

  it("fails the build when an entry is not in the graph, rather than leaving the group empty", () => {
    const name = shellChunk(["app/moved-root.tsx"]);
    expect(() => name(own("lib/api.ts"), context(graph))).toThrow(/moved-root\.tsx is not in the browser build/);
  });
});
