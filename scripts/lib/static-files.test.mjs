import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { collectStaticFiles, contentTypeOf, GZIP_MIN_BYTES, gzipStaticFiles, IMMUTABLE, REVALIDATE } from "./static-files.mjs";

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

describe("gzipStaticFiles", () => {
  let root;
  let out;
  afterEach(() => {
    for (const dir of [root, out]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes a gzipped copy of each text file of 1 KiB or more, with its own ETag and size", () => {
    root = mkdtempSync(join(tmpdir(), "flagstaff-static-"));
    out = mkdtempSync(join(tmpdir(), "flagstaff-static-gz-"));
    writeFileSync(join(out, "stale.js"), "left by an earlier build");
    mkdirSync(join(root, "assets"));
    const script = "export const answer = 42;\n".repeat(200);
    writeFileSync(join(root, "assets", "entry-abc123.js"), script);
    writeFileSync(join(root, "assets", "tiny.css"), "body{}");
    writeFileSync(join(root, "logo.svg"), `<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(400)}</svg>`);
    writeFileSync(join(root, "photo.png"), Buffer.alloc(4096, 7));

    const files = gzipStaticFiles(root, collectStaticFiles(root), out);
    const entry = files["/assets/entry-abc123.js"];
    expect(entry.gzip.size).toBeLessThan(entry.size / 10);
    expect(entry.gzip.etag).toBe(`${entry.etag.slice(0, -1)}.gz"`);
    const copy = readFileSync(join(out, "assets", "entry-abc123.js"));
    expect(copy.length).toBe(entry.gzip.size);
    expect(gunzipSync(copy).toString("utf8")).toBe(script);
    expect(files["/logo.svg"].gzip).toBeDefined();
    // Too small, or not text: served as they are.
    expect(files["/assets/tiny.css"].size).toBeLessThan(GZIP_MIN_BYTES);
    expect(files["/assets/tiny.css"].gzip).toBeUndefined();
    expect(files["/photo.png"].gzip).toBeUndefined();
    expect(existsSync(join(out, "photo.png"))).toBe(false);
    expect(existsSync(join(out, "stale.js"))).toBe(false);
  });

  it("keeps no copy that is not smaller than the file", () => {
    root = mkdtempSync(join(tmpdir(), "flagstaff-static-"));
    out = mkdtempSync(join(tmpdir(), "flagstaff-static-gz-"));
    // Random bytes do not compress.
    writeFileSync(join(root, "noise.txt"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + ((i * i) % 251)) % 256)));
    const files = gzipStaticFiles(root, collectStaticFiles(root), out);
    expect(files["/noise.txt"].gzip).toBeUndefined();
    expect(existsSync(join(out, "noise.txt"))).toBe(false);
  });
});
