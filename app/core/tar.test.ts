import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { gzipStream } from "./http/encoding";
import { createTarStream, type TarEntry, tarHeader, tarPadding } from "./tar";

const enc = new TextEncoder();
const dec = new TextDecoder();
const MTIME = Date.UTC(2024, 4, 6, 7, 8, 9);

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
      c.close();
    },
  });
}

const file = (name: string, text: string, chunks = 1): TarEntry => {
  const bytes = enc.encode(text);
  const step = Math.ceil(bytes.length / chunks) || 1;
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += step) parts.push(bytes.subarray(i, i + step));
  return { name, size: bytes.length, mtime: MTIME, open: async () => streamOf(parts) };
};

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A minimal reader (ustar + pax `path`) used to check the writer independently of system tools. */
function parseTar(bytes: Uint8Array): { name: string; type: string; body: Uint8Array }[] {
  const out: { name: string; type: string; body: Uint8Array }[] = [];
  let offset = 0;
  let paxPath: string | null = null;
  while (offset + 512 <= bytes.length) {
    const block = bytes.subarray(offset, offset + 512);
    if (block.every((b) => b === 0)) break;
    const field = (start: number, len: number) => dec.decode(block.subarray(start, start + len)).replace(/\0.*$/s, "");
    const size = parseInt(field(124, 12), 8);
    const type = String.fromCharCode(block[156]!);
    const body = bytes.subarray(offset + 512, offset + 512 + size);
    offset += 512 + size + tarPadding(size).length;
    if (type === "x") {
      paxPath = /\d+ path=(.*)\n/.exec(dec.decode(body))?.[1] ?? null;
      continue;
    }
    out.push({ name: paxPath ?? field(0, 100), type, body });
    paxPath = null;
  }
  return out;
}

describe("tarHeader", () => {
  it("writes a valid ustar block with a correct checksum", () => {
    const block = tarHeader({ name: "dir/a.txt", size: 1234, mtime: MTIME });
    expect(block.length).toBe(512);
    expect(dec.decode(block.subarray(0, 9))).toBe("dir/a.txt");
    expect(dec.decode(block.subarray(124, 135))).toBe((1234).toString(8).padStart(11, "0"));
    expect(dec.decode(block.subarray(257, 263))).toBe("ustar\0");
    const stored = parseInt(dec.decode(block.subarray(148, 154)), 8);
    const copy = block.slice();
    copy.fill(0x20, 148, 156);
    expect(copy.reduce((s, b) => s + b, 0)).toBe(stored);
  });

  it("uses a pax header for long or non-ASCII names", () => {
    expect(tarHeader({ name: "a".repeat(100), size: 0, mtime: MTIME }).length).toBe(512);
    expect(tarHeader({ name: "a".repeat(101), size: 0, mtime: MTIME }).length).toBe(1536);
    expect(tarHeader({ name: "Ω.pdf", size: 0, mtime: MTIME }).length).toBe(1536);
  });

  it("marks names ending in / as directories", () => {
    expect(tarHeader({ name: "d/", size: 99, mtime: MTIME })[156]).toBe("5".charCodeAt(0));
  });
});

describe("tarPadding", () => {
  it.each([
    [0, 0],
    [1, 511],
    [511, 1],
    [512, 0],
    [513, 511],
  ])("size %i → %i zero bytes", (size, pad) => {
    expect(tarPadding(size).length).toBe(pad);
  });
});

describe("createTarStream", () => {
  it("streams entries in order with bodies split across chunks", async () => {
    const bytes = await collect(createTarStream([{ name: "top/", size: 0, mtime: MTIME }, file("top/a.txt", "hello"), file("top/b.bin", "x".repeat(1500), 7)]));
    expect(bytes.length % 512).toBe(0);
    const entries = parseTar(bytes);
    expect(entries.map((e) => [e.name, e.type, dec.decode(e.body)])).toEqual([
      ["top/", "5", ""],
      ["top/a.txt", "0", "hello"],
      ["top/b.bin", "0", "x".repeat(1500)],
    ]);
  });

  it("keeps the archive valid when a body is missing, short or long", async () => {
    const short: TarEntry = { name: "short", size: 10, mtime: MTIME, open: async () => streamOf([enc.encode("abc")]) };
    const long: TarEntry = { name: "long", size: 2, mtime: MTIME, open: async () => streamOf([enc.encode("abcdef")]) };
    const missing: TarEntry = { name: "missing", size: 4, mtime: MTIME, open: async () => null };
    const entries = parseTar(await collect(createTarStream([short, long, missing, file("after", "ok")])));
    expect(entries.map((e) => [e.name, [...e.body]])).toEqual([
      ["short", [97, 98, 99, 0, 0, 0, 0, 0, 0, 0]],
      ["long", [97, 98]],
      ["missing", [0, 0, 0, 0]],
      ["after", [111, 107]],
    ]);
  });

  it("opens each body only when it is reached", async () => {
    const opened: string[] = [];
    const lazy = (name: string): TarEntry => ({
      name,
      size: 1,
      mtime: MTIME,
      open: async () => {
        opened.push(name);
        return streamOf([enc.encode("z")]);
      },
    });
    const reader = createTarStream([lazy("one"), lazy("two")]).getReader();
    await reader.read();
    expect(opened).toEqual(["one"]);
    await reader.cancel();
  });

  it("is an empty archive of two zero blocks without entries", async () => {
    const bytes = await collect(createTarStream([]));
    expect(bytes.length).toBe(1024);
    expect(bytes.every((b) => b === 0)).toBe(true);
  });
});

describe("system tar reads the gzipped output", () => {
  const dir = mkdtempSync(join(tmpdir(), "flagstaff-tar-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lists and extracts every entry with its bytes", async () => {
    const folder = "Writeups-Test CTF-20240506-07.08.09Z";
    const long = `${folder}/${"长".repeat(40)}-Writeup-1-2-20240506-07.08.09Z.pdf`;
    const entries = [
      { name: `${folder}/`, size: 0, mtime: MTIME },
      file(`${folder}/Team A-Writeup-1-1-20240506-07.08.09Z.pdf`, "%PDF-1.4 one"),
      file(long, "%PDF-1.7 two ".repeat(100), 3),
    ];
    const gz = await collect(gzipStream(createTarStream(entries)));
    const archive = join(dir, "w.tar.gz");
    writeFileSync(archive, gz);
    const listed = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n");
    expect(listed).toEqual([`${folder}/`, `${folder}/Team A-Writeup-1-1-20240506-07.08.09Z.pdf`, long]);
    execFileSync("tar", ["-xzf", archive, "-C", dir]);
    expect(readFileSync(join(dir, long), "utf8")).toBe("%PDF-1.7 two ".repeat(100));
    expect(readFileSync(join(dir, folder, "Team A-Writeup-1-1-20240506-07.08.09Z.pdf"), "utf8")).toBe("%PDF-1.4 one");
  });
});
