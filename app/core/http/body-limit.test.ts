import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { BODY_LIMITS, type BodyRoute, bodyKindOf, bodyTooLarge, declaredLength, dropWithin, FILE_LIMITS, formatByteSize, needsLinger, readWithin } from "./body-limit";

const MiB = 1024 * 1024;

describe("BODY_LIMITS", () => {
  it("keeps each upload's cap just above its file rule, and JSON far below any upload", () => {
    expect(BODY_LIMITS.image - FILE_LIMITS.image).toBeGreaterThan(0);
    expect(BODY_LIMITS.image - FILE_LIMITS.image).toBeLessThanOrEqual(64 * 1024);
    expect(BODY_LIMITS.pdf - FILE_LIMITS.pdf).toBeLessThanOrEqual(64 * 1024);
    expect(BODY_LIMITS.attachments - FILE_LIMITS.attachment).toBeLessThanOrEqual(MiB);
    expect(FILE_LIMITS).toEqual({ image: 3 * MiB, pdf: 20 * MiB, attachment: 100 * MiB });
    expect(BODY_LIMITS.json).toBe(64 * 1024);
    expect(BODY_LIMITS.largeJson).toBe(4 * MiB);
  });
});

describe("bodyKindOf", () => {
  it.each<[string, BodyRoute, keyof typeof BODY_LIMITS]>([
    ["a public JSON route", { auth: "Public" }, "json"],
    ["a player's JSON route", { auth: "User" }, "json"],
    ["a monitor's route", { auth: "Monitor" }, "json"],
    ["an admin's editor", { auth: "Admin" }, "largeJson"],
    ["an agent's signed callback", { auth: "Public", internal: true }, "largeJson"],
    ["an avatar (image unless told)", { auth: "User", rawBody: "multipart" }, "image"],
    ["the logo", { auth: "Admin", rawBody: "multipart" }, "image"],
    ["a writeup", { auth: "User", rawBody: "multipart", upload: "pdf" }, "pdf"],
    ["attachments", { auth: "Admin", rawBody: "multipart", upload: "attachments" }, "attachments"],
  ])("%s", (_what, route, kind) => {
    expect(bodyKindOf(route)).toBe(kind);
  });
});

describe("declaredLength", () => {
  it.each<[string, Record<string, string>, number | null]>([
    ["a Content-Length", { "content-length": "1234" }, 1234],
    ["zero", { "content-length": "0" }, 0],
    ["a huge one", { "content-length": "314572800" }, 314572800],
    ["none (chunked or empty)", {}, null],
    ["chunked, whatever Content-Length says", { "content-length": "10", "transfer-encoding": "chunked" }, null],
    ["a malformed one", { "content-length": "12abc" }, null],
    ["a negative one", { "content-length": "-1" }, null],
  ])("%s", (_what, headers, expected) => {
    expect(declaredLength(new Headers(headers))).toBe(expected);
  });
});

/** A stream of `count` chunks of `size` bytes that records how many were pulled and whether it was cancelled. */
function source(count: number, size: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (seen.pulled === count) return controller.close();
        seen.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

describe("readWithin", () => {
  it("hands back every chunk of a body within the limit, the limit itself included", async () => {
    const { stream, seen } = source(4, 1000);
    const chunks = await readWithin(stream, 4000);
    expect(chunks?.reduce((n, c) => n + c.byteLength, 0)).toBe(4000);
    expect(seen.cancelled).toBe(false);
  });

  it("stops at the first chunk past the limit and leaves the rest unread for the lingering close", async () => {
    const { stream, seen } = source(1_000_000, 64 * 1024);
    expect(await readWithin(stream, MiB)).toBeNull();
    // 16 chunks make the limit, the 17th passes it; nothing after it is pulled.
    expect(seen.pulled).toBe(17);
    expect(stream.locked).toBe(false);
    expect(seen.cancelled).toBe(false);
    await stream.cancel();
    expect(seen.cancelled).toBe(true);
  });

  it("refuses a body one byte over", async () => {
    const { stream } = source(1, 4001);
    expect(await readWithin(stream, 4000)).toBeNull();
  });
});

describe("needsLinger", () => {
  it.each<[string, Record<string, string>, boolean]>([
    ["a small declared body (the runtime drops its rest itself)", { "content-length": "1000" }, false],
    ["a declared body at the small cap", { "content-length": String(64 * 1024) }, false],
    ["a larger declared body", { "content-length": String(64 * 1024 + 1) }, true],
    ["a chunked body of unknown size", { "transfer-encoding": "chunked" }, true],
  ])("%s", (_what, headers, expected) => {
    expect(needsLinger(new Headers(headers))).toBe(expected);
  });
});

describe("dropWithin", () => {
  const stream = (chunks: number[], end = true) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const n of chunks) controller.enqueue(new Uint8Array(n));
        if (end) controller.close();
      },
    });

  it("reads a rest that ends within the size and time", async () => {
    const body = stream([1000, 2000, 3000]);
    expect(await dropWithin(body.getReader(), 6000, 1000)).toBe(true);
  });

  it("stops past the size, leaving the rest to the caller", async () => {
    const reader = stream([4000, 4000, 4000]).getReader();
    expect(await dropWithin(reader, 6000, 1000)).toBe(false);
    await reader.cancel();
  });

  it("gives up on a rest slower than the time", async () => {
    const reader = stream([10], false).getReader();
    expect(await dropWithin(reader, 6000, 50)).toBe(false);
    await reader.cancel();
  });
});

describe("formatByteSize", () => {
  it.each([
    [64 * 1024, "64 KB"],
    [4 * MiB, "4 MB"],
    [3 * MiB, "3 MB"],
    [100 * MiB, "100 MB"],
    [1536 * 1024, "1.5 MB"],
    [512, "512 B"],
  ])("%i → %s", (bytes, text) => {
    expect(formatByteSize(bytes)).toBe(text);
  });
});

describe("bodyTooLarge", () => {
  it("is a 413 naming the JSON cap, or the file rule of an upload", () => {
    const json = bodyTooLarge("json");
    expect(json).toBeInstanceOf(AppError);
    expect([json.status, json.httpStatus, json.code, json.params]).toEqual([413, 413, "common.body_too_large", { limit: "64 KB" }]);
    expect(bodyTooLarge("largeJson").params).toEqual({ limit: "4 MB" });
    expect([bodyTooLarge("pdf").code, bodyTooLarge("pdf").params]).toEqual(["file.too_large", { limit: "20 MB" }]);
    expect(bodyTooLarge("image").params).toEqual({ limit: "3 MB" });
    expect(bodyTooLarge("attachments").params).toEqual({ limit: "100 MB" });
  });
});
