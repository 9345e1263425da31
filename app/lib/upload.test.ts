import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api";
import { uploadForAttachment } from "./upload";

/** What the browser would send: the upload (XMLHttpRequest) and the JSON calls (fetch), in order. */
let calls: string[];
/** Requests whose first file is one of these are answered 413. */
let refuse: Set<string>;

/** Answers POST /api/assets with one stored file per part of the form, hashes h1, h2, … */
class FakeXhr {
  status = 0;
  responseText = "";
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  withCredentials = false;
  private target = "";
  open(method: string, url: string) {
    this.target = `${method} ${url}`;
  }
  setRequestHeader() {}
  send(form: FormData) {
    const files = form.getAll("files") as File[];
    calls.push(`${this.target} ${files.map((file) => file.name).join(",")}`);
    this.status = 200;
    this.responseText = JSON.stringify(files.map((file) => ({ hash: `h-${file.name}`, name: file.name })));
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
      if (refuse.has(files[0]?.name ?? "")) {
        this.status = 413;
        this.responseText = JSON.stringify({ title: "The upload is larger than 100 MB", status: 413 });
      }
      this.onload?.();
    });
  }
}

beforeEach(() => {
  calls = [];
  refuse = new Set();
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (path: string, init: RequestInit) => {
      calls.push(`${init.method} ${path}`);
      return new Response(JSON.stringify({ title: "ok", status: 200 }), { headers: { "Content-Type": "application/json" } });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const files = [new File(["a"], "a.txt"), new File(["b"], "b.txt")];

const MiB = 1024 * 1024;
/** A file that says it has `size` bytes (without holding them). */
function sized(name: string, size: number): File {
  const file = new File(["x"], name);
  Object.defineProperty(file, "size", { value: size });
  return file;
}

describe("uploadForAttachment", () => {
  it("attaches the stored files, then drops the upload's own reference to each", async () => {
    const attached = await uploadForAttachment(files, () => {}, async (stored) => {
      calls.push(`attach ${stored.map((s) => s.hash).join(",")}`);
      return "done";
    });
    expect(attached).toBe("done");
    expect(calls).toEqual(["POST /api/assets a.txt,b.txt", "attach h-a.txt,h-b.txt", "DELETE /api/assets/h-a.txt", "DELETE /api/assets/h-b.txt"]);
  });

  it("drops the upload's references when attaching fails, and rejects with that failure", async () => {
    const refused = new ApiError("Unknown file", 400);
    await expect(
      uploadForAttachment(files, () => {}, async () => {
        calls.push("attach");
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toEqual(["POST /api/assets a.txt,b.txt", "attach", "DELETE /api/assets/h-a.txt", "DELETE /api/assets/h-b.txt"]);
  });

  it("sends files that together exceed one request's cap in several requests, with progress over all", async () => {
    const big = ["1.bin", "2.bin", "3.bin"].map((name) => sized(name, 40 * MiB));
    const progress: number[] = [];
    const attached = await uploadForAttachment(big, (fraction) => progress.push(fraction), async (stored) => {
      calls.push(`attach ${stored.map((s) => s.hash).join(",")}`);
      return "done";
    });
    expect(attached).toBe("done");
    expect(calls).toEqual([
      "POST /api/assets 1.bin,2.bin",
      "POST /api/assets 3.bin",
      "attach h-1.bin,h-2.bin,h-3.bin",
      "DELETE /api/assets/h-1.bin",
      "DELETE /api/assets/h-2.bin",
      "DELETE /api/assets/h-3.bin",
    ]);
    // Halfway through the first request (80 of 120 MB), its end, halfway through the second, the end.
    expect(progress.map((p) => Math.round(p * 120))).toEqual([40, 80, 100, 120]);
  });

  it("drops what earlier requests stored when a later one fails, and attaches nothing", async () => {
    refuse.add("3.bin");
    const big = ["1.bin", "2.bin", "3.bin"].map((name) => sized(name, 40 * MiB));
    await expect(uploadForAttachment(big, () => {}, async () => "done")).rejects.toMatchObject({ status: 413 });
    expect(calls).toEqual(["POST /api/assets 1.bin,2.bin", "POST /api/assets 3.bin", "DELETE /api/assets/h-1.bin", "DELETE /api/assets/h-2.bin"]);
  });

  it("refuses a file over the per-file limit by name, before sending anything", async () => {
    const files = [sized("small.bin", 10), sized("huge.iso", 100 * MiB + 1)];
    const refused = uploadForAttachment(files, () => {}, async () => "done");
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 400 });
    expect(calls).toEqual([]);
  });

  it("still resolves when a release fails (the file then stays listed under Settings → Files)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("network down");
      }),
    );
    await expect(uploadForAttachment(files, () => {}, async () => "done")).resolves.toBe("done");
  });
});
