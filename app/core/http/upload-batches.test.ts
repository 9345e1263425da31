import { describe, expect, it } from "vitest";
import { BODY_LIMITS, FILE_LIMITS } from "./body-limit";
import { multipartPartSize, planUploadBatches, type UploadFileInfo } from "./upload-batches";

const MiB = 1024 * 1024;
const file = (size: number, name = "f.bin"): UploadFileInfo => ({ name, size });

describe("planUploadBatches", () => {
  it.each<[string, UploadFileInfo[], number[][]]>([
    ["nothing", [], []],
    ["one small file", [file(10)], [[0]]],
    ["many small files in one request", Array.from({ length: 500 }, (_, i) => file(1000, `flag{${i}}`)), [Array.from({ length: 500 }, (_, i) => i)]],
    ["three 40 MB files (120 MB together): two requests", [file(40 * MiB), file(40 * MiB), file(40 * MiB)], [[0, 1], [2]]],
    ["a file of the full 100 MB goes alone", [file(MiB), file(FILE_LIMITS.attachment), file(MiB)], [[0], [1], [2]]],
    ["small files still fit beside it in the framing room", [file(10), file(FILE_LIMITS.attachment), file(10)], [[0, 1, 2]]],
    ["order kept: a small file after a big one waits for the next request", [file(90 * MiB), file(20 * MiB), file(5 * MiB)], [[0], [1, 2]]],
  ])("%s", (_what, files, batches) => {
    expect(planUploadBatches(files)).toEqual({ ok: true, batches });
  });

  it("keeps every request within the cap, counting the multipart framing of each part", () => {
    const files = Array.from({ length: 40 }, (_, i) => file(((i * 7919) % 37) * MiB + 1, `${"名".repeat(i)}.bin`));
    const plan = planUploadBatches(files);
    expect(plan.ok).toBe(true);
    if (!plan.ok) return;
    expect(plan.batches.flat()).toEqual(files.map((_, i) => i));
    for (const batch of plan.batches) expect(batch.reduce((sum, i) => sum + multipartPartSize(files[i]!), 0)).toBeLessThanOrEqual(BODY_LIMITS.attachments);
    // Nothing is split needlessly: each request but the last could not take the next file.
    for (const [n, batch] of plan.batches.slice(0, -1).entries()) {
      const next = plan.batches[n + 1]![0]!;
      expect([...batch, next].reduce((sum, i) => sum + multipartPartSize(files[i]!), 0)).toBeGreaterThan(BODY_LIMITS.attachments);
    }
  });

  it("names the first file no request can carry", () => {
    expect(planUploadBatches([file(10), file(FILE_LIMITS.attachment + 1, "huge.iso"), file(0)])).toEqual({ ok: false, index: 1, reason: "tooLarge" });
    expect(planUploadBatches([file(10), file(0, "empty.txt")])).toEqual({ ok: false, index: 1, reason: "empty" });
  });

  it("takes other limits", () => {
    expect(planUploadBatches([file(10), file(10), file(10)], { fileLimit: 10, requestLimit: 2 * multipartPartSize(file(10)) })).toEqual({ ok: true, batches: [[0, 1], [2]] });
    expect(planUploadBatches([file(11)], { fileLimit: 10 })).toEqual({ ok: false, index: 0, reason: "tooLarge" });
  });
});
