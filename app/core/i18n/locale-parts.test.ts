import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import resources from "~/locales";
import routes from "~/routes";
import { commonPart, isAdminGroup, isAdminPath, isGameGroup, isGamePath, LOCALE_PARTS, partsForPath } from "./locale-parts";

const APP = join(import.meta.dirname, "../..");

describe("commonPart", () => {
  it.each(Object.keys(resources))("splits %s's common translations into three disjoint parts", (language) => {
    const common = resources[language as keyof typeof resources].common as Record<string, unknown>;
    const shared = commonPart(common, "shared");
    const game = commonPart(common, "game");
    const admin = commonPart(common, "admin");
    expect(LOCALE_PARTS).toEqual(["shared", "game", "admin"]);
    expect({ ...shared, ...game, ...admin }).toEqual(common);
    const groups = [shared, game, admin].flatMap((part) => Object.keys(part));
    expect(groups.length).toBe(Object.keys(common).length);
    expect(new Set(groups).size).toBe(groups.length);
    expect(Object.keys(admin)).toContain("adminUsers");
    expect(Object.keys(game)).toContain("verdict");
    expect(Object.keys(shared)).toContain("nav");
  });

  it("names only groups that exist as game groups", () => {
    const groups = Object.keys(resources["en-US"].common);
    const game = groups.filter(isGameGroup);
    expect(game.length).toBe(13);
    expect(game.filter(isAdminGroup)).toEqual([]);
  });
});

describe("isGamePath and partsForPath", () => {
  it.each(["/games", "/games/3", "/Games/3/Challenges", "/games/1/monitor/events", "/admin/games/3/challenges"])("%s is a game page", (path) => {
    expect(isGamePath(path)).toBe(true);
  });
  it.each(["/", "/gamesx", "/teams", "/account/profile", "/posts/games"])("%s is not", (path) => {
    expect(isGamePath(path)).toBe(false);
  });
  it("gives each page the parts it reads, shared first", () => {
    expect(partsForPath("/")).toEqual(["shared"]);
    expect(partsForPath("/games/3/scoreboard")).toEqual(["shared", "game"]);
    expect(partsForPath("/admin/users")).toEqual(["shared", "game", "admin"]);
  });
});

describe("isAdminPath", () => {
  it.each(["/admin", "/admin/", "/admin/users", "/Admin/Games/3/Info"])("%s is an admin page", (path) => {
    expect(isAdminPath(path)).toBe(true);
  });
  it.each(["/", "/administrator", "/games/1/monitor/events", "/account/profile", "/posts/admin"])("%s is not", (path) => {
    expect(isAdminPath(path)).toBe(false);
  });
});

interface RouteEntry {
  path?: string;
  file: string;
  children?: RouteEntry[];
}

/** Route module → its full URL path (without the leading slash). */
function routePaths(entries: RouteEntry[], parent = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of entries) {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    out.set(entry.file, path);
    for (const [file, child] of routePaths(entry.children ?? [], path)) out.set(file, child);
  }
  return out;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === ".server" || entry.name === "locales" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("~/")) base = join(APP, specifier.slice(2));
  else if (specifier.startsWith(".")) base = join(dirname(from), specifier);
  else return null;
  for (const candidate of [base, `${base}.tsx`, `${base}.ts`, join(base, "index.tsx"), join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Files that read a key of these groups, statically ("group.key") or by a template (`group.${…}`). */
function readersOf(files: string[], groups: string[]): string[] {
  const pattern = new RegExp(`["'\`](?:${groups.join("|")})\\.(?:[A-Za-z]|\\$\\{)`);
  return files.filter((file) => pattern.test(readFileSync(file, "utf8")));
}

/** Whether a file is loaded only through these route modules (following static and dynamic imports). */
function loadedOnlyBy(routeFiles: Set<string>, files: string[]): (file: string) => boolean {
  const importers = new Map<string, string[]>();
  for (const file of files) {
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      const target = specifier ? resolveImport(file, specifier) : null;
      if (target) importers.set(target, [...(importers.get(target) ?? []), file]);
    }
  }
  const only = (file: string, seen = new Set<string>()): boolean => {
    if (routeFiles.has(file)) return true;
    if (seen.has(file)) return true;
    seen.add(file);
    const users = importers.get(file) ?? [];
    return users.length > 0 && users.every((user) => only(user, seen));
  };
  return (file) => only(file);
}

/** Route modules whose URL path is under one of these first segments (with "admin", the admin layout, which has no path of its own and wraps only the /admin routes). */
function routeFilesUnder(segments: string[]): Set<string> {
  const files = new Set(
    [...routePaths(routes as RouteEntry[])]
      .filter(([, path]) => segments.some((segment) => path === segment || path.startsWith(`${segment}/`)))
      .map(([file]) => join(APP, file)),
  );
  if (segments.includes("admin")) files.add(join(APP, "routes/admin/layout.tsx"));
  return files;
}

/** The files that read a key of these groups, and those of them that pages outside these segments load too. */
function readersOutside(isGroup: (group: string) => boolean, segments: string[]): { readers: string[]; outside: string[] } {
  const files = sourceFiles(APP);
  const readers = readersOf(files, Object.keys(resources["en-US"].common).filter(isGroup));
  const inside = loadedOnlyBy(routeFilesUnder(segments), files);
  return { readers, outside: readers.filter((file) => !inside(file)).map((file) => relative(APP, file)) };
}

describe("admin translation groups", () => {
  // The browser loads the admin groups only on /admin pages; a key of them read elsewhere would show raw.
  it("are read only by code that only admin pages (under /admin) load", () => {
    expect(routeFilesUnder(["admin"]).size).toBeGreaterThan(5);
    const { readers, outside } = readersOutside(isAdminGroup, ["admin"]);
    expect(readers.length).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  });
});

describe("game translation groups", () => {
  // The browser loads the game groups only on /games and /admin pages; a key of them read elsewhere would show raw.
  it("are read only by code that only game and admin pages (under /games and /admin) load", () => {
    expect([...routeFilesUnder(["games"])].filter((file) => file.includes("/routes/games/")).length).toBeGreaterThan(5);
    const { readers, outside } = readersOutside(isGameGroup, ["games", "admin"]);
    expect(readers.length).toBeGreaterThan(10);
    expect(outside).toEqual([]);
  });

  it("would catch a reader outside those pages", () => {
    const gameOnly = loadedOnlyBy(routeFilesUnder(["games", "admin"]), sourceFiles(APP));
    expect(gameOnly(join(APP, "routes/home.tsx"))).toBe(false);
    expect(readersOf([join(APP, "routes/home.tsx")], ["home"])).toHaveLength(1);
  });
});
