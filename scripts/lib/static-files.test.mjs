import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { collectStaticFiles, contentTypeOf, IMMUTABLE, REVALIDATE } from "./static-files.mjs";

describe("collectStaticFiles", () => {
  let root;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("lists every served file with its type, cache policy, size and a content ETag", () => {
    root = mkdtempSync(join(tmpdir(), "flagstaff-static-"));
    mkdirSync(join(root, "assets"));
    mkdirSync(join(root, ".vite"));
    writeFileSync(join(root, "assets", "entry-abc123.js"), "console.log(1);");
    writeFileSync(join(root, "assets", "root-def456.css"), "body{}");
    writeFileSync(join(root, "favicon.ico"), Buffer.from([0, 0, 1, 0]));
    writeFileSync(join(root, ".assetsignore"), "*.map");
    writeFileSync(join(root, ".vite", "manifest.json"), "{}");

    const files = collectStaticFiles(root);
    expect(Object.keys(files).sort()).toEqual(["/assets/entry-abc123.js", "/assets/root-def456.css", "/favicon.ico"]);
    expect(files["/assets/entry-abc123.js"]).toMatchObject({ type: "text/javascript; charset=utf-8", cacheControl: IMMUTABLE, size: 15 });
    expect(files["/favicon.ico"]).toMatchObject({ type: "image/x-icon", cacheControl: REVALIDATE, size: 4 });
    expect(files["/assets/root-def456.css"].etag).toMatch(/^"[\w-]{22}"$/);
    expect(files["/assets/root-def456.css"].etag).not.toBe(files["/assets/entry-abc123.js"].etag);
  });

  it.each([
    ["/a/b.woff2", "font/woff2"],
    ["/x.SVG", "image/svg+xml"],
    ["/manifest.webmanifest", "application/manifest+json; charset=utf-8"],
    ["/unknown.bin", "application/octet-stream"],
  ])("types %s as %s", (path, type) => {
    expect(contentTypeOf(path)).toBe(type);
  });
});
