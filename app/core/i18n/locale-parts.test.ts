import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import resources from "~/locales";
import routes from "~/routes";
import { commonPart, isAdminGroup, isAdminPath } from "./locale-parts";

const APP = join(import.meta.dirname, "../..");

describe("commonPart", () => {
  it.each(Object.keys(resources))("splits %s's common translations into two disjoint parts", (language) => {
    const common = resources[language as keyof typeof resources].common as Record<string, unknown>;
    const shared = commonPart(common, "shared");
    const admin = commonPart(common, "admin");
    expect({ ...shared, ...admin }).toEqual(common);
    expect(Object.keys(shared).filter((group) => group in admin)).toEqual([]);
    expect(Object.keys(admin)).toContain("adminUsers");
    expect(Object.keys(shared)).toContain("nav");
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

describe("admin translation groups", () => {
  // The browser loads the admin groups only on /admin pages; a key of them read elsewhere would show raw.
  it("are read only by code that only admin pages (under /admin) load", () => {
    const adminRouteFiles = new Set(
      [...routePaths(routes as RouteEntry[])]
        .filter(([file, path]) => file.startsWith("routes/admin/") && (path === "admin" || path.startsWith("admin/")))
        .map(([file]) => join(APP, file)),
    );
    expect(adminRouteFiles.size).toBeGreaterThan(5);
    // The admin layout has no path of its own: it wraps only the /admin routes.
    adminRouteFiles.add(join(APP, "routes/admin/layout.tsx"));

    const files = sourceFiles(APP);
    const importers = new Map<string, string[]>();
    for (const file of files) {
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const target = specifier ? resolveImport(file, specifier) : null;
        if (target) importers.set(target, [...(importers.get(target) ?? []), file]);
      }
    }
    const adminOnly = (file: string, seen = new Set<string>()): boolean => {
      if (adminRouteFiles.has(file)) return true;
      if (seen.has(file)) return true;
      seen.add(file);
      const users = importers.get(file) ?? [];
      return users.length > 0 && users.every((user) => adminOnly(user, seen));
    };

    const groups = Object.keys(resources["en-US"].common).filter(isAdminGroup);
    const pattern = new RegExp(`["'\`](?:${groups.join("|")})\\.[A-Za-z]`);
    const readers = files.filter((file) => pattern.test(readFileSync(file, "utf8")));
    expect(readers.length).toBeGreaterThan(5);
    expect(readers.filter((file) => !adminOnly(file)).map((file) => relative(APP, file))).toEqual([]);
  });
});
