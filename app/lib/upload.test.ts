import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api";
import { uploadForAttachment } from "./upload";

/** What the browser would send: the upload (XMLHttpRequest) and the JSON calls (fetch), in order. */
let calls: string[];

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
    calls.push(this.target);
    const files = form.getAll("files") as File[];
    this.status = 200;
    this.responseText = JSON.stringify(files.map((file, i) => ({ hash: `h${i + 1}`, name: file.name })));
    queueMicrotask(() => this.onload?.());
  }
}

beforeEach(() => {
  calls = [];
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

describe("uploadForAttachment", () => {
  it("attaches the stored files, then drops the upload's own reference to each", async () => {
    const attached = await uploadForAttachment(files, () => {}, async (stored) => {
      calls.push(`attach ${stored.map((s) => s.hash).join(",")}`);
      return "done";
    });
    expect(attached).toBe("done");
    expect(calls).toEqual(["POST /api/assets", "attach h1,h2", "DELETE /api/assets/h1", "DELETE /api/assets/h2"]);
  });

  it("drops the upload's references when attaching fails, and rejects with that failure", async () => {
    const refused = new ApiError("Unknown file", 400);
    await expect(
      uploadForAttachment(files, () => {}, async () => {
        calls.push("attach");
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(calls).toEqual(["POST /api/assets", "attach", "DELETE /api/assets/h1", "DELETE /api/assets/h2"]);
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
