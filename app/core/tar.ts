/**
 * A streaming tar (POSIX ustar, with pax headers for long or non-ASCII names) writer built only on web
 * streams, so it runs in Workers, browsers and Node alike. Gzip it with `gzipStream` (core/http/encoding).
 */

const BLOCK = 512;
const encoder = new TextEncoder();

export interface TarEntry {
  /** Path inside the archive, `/`-separated; directories end with `/`. */
  name: string;
  /** Exact byte length of the body (0 for directories). */
  size: number;
  /** Modification time, epoch milliseconds. */
  mtime: number;
  /** The body, opened only when the entry is written; null writes zeros (the entry keeps its size). */
  open?: () => Promise<ReadableStream<Uint8Array> | null>;
}

/** Writes `value` as a zero-padded octal number of `width - 1` digits followed by NUL. */
function writeOctal(block: Uint8Array, offset: number, width: number, value: number): void {
  const digits = Math.max(0, Math.floor(value)).toString(8).padStart(width - 1, "0");
  if (digits.length > width - 1) throw new RangeError(`tar: ${value} does not fit in ${width} octal digits`);
  block.set(encoder.encode(digits), offset);
  block[offset + width - 1] = 0;
}

function header(name: Uint8Array, size: number, mtime: number, type: "0" | "5" | "x"): Uint8Array<ArrayBuffer> {
  const block = new Uint8Array(BLOCK);
  block.set(name.subarray(0, 100), 0);
  writeOctal(block, 100, 8, type === "5" ? 0o755 : 0o644); // mode
  writeOctal(block, 108, 8, 0); // uid
  writeOctal(block, 116, 8, 0); // gid
  writeOctal(block, 124, 12, size);
  writeOctal(block, 136, 12, Math.floor(mtime / 1000));
  block.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  block[156] = type.charCodeAt(0);
  block.set(encoder.encode("ustar\u000000"), 257); // magic "ustar\0" + version "00"
  let sum = 0;
  for (const byte of block) sum += byte;
  block.set(encoder.encode(sum.toString(8).padStart(6, "0")), 148);
  block[154] = 0;
  block[155] = 0x20;
  return block;
}

/** One pax record `"<len> key=value\n"`, where len counts the whole record including itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = encoder.encode(body).length;
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length = String(length).length + bodyLength;
  return `${length}${body}`;
}

/** Zero bytes that round `size` up to a whole number of 512-byte blocks. */
export function tarPadding(size: number): Uint8Array<ArrayBuffer> {
  return new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);
}

/**
 * The header block(s) of an entry. A name that is not plain ASCII or longer than 100 bytes gets a pax
 * `path` record first (GNU tar, bsdtar and 7-Zip read it) and an ASCII fallback in the ustar field.
 */
export function tarHeader(entry: Pick<TarEntry, "name" | "size" | "mtime">): Uint8Array<ArrayBuffer> {
  const isDir = entry.name.endsWith("/");
  const type = isDir ? "5" : "0";
  const size = isDir ? 0 : entry.size;
  const nameBytes = encoder.encode(entry.name);
  const plain = nameBytes.length <= 100 && /^[\x20-\x7e]*$/.test(entry.name);
  if (plain) return header(nameBytes, size, entry.mtime, type);
  const pax = encoder.encode(paxRecord("path", entry.name));
  const fallback = encoder.encode(entry.name.replace(/[^\x20-\x7e]/g, "_").slice(-100));
  const out = new Uint8Array(BLOCK + pax.length + tarPadding(pax.length).length + BLOCK);
  out.set(header(encoder.encode("PaxHeader"), pax.length, entry.mtime, "x"), 0);
  out.set(pax, BLOCK);
  out.set(header(fallback, size, entry.mtime, type), out.length - BLOCK);
  return out;
}

/** Two zero blocks end an archive. */
export const tarTrailer = () => new Uint8Array(BLOCK * 2);

/**
 * Streams the entries as one tar archive, opening each body only when it is reached. A body shorter
 * than its declared size is padded with zeros and a longer one is cut, so the archive stays readable.
 */
export function createTarStream(entries: Iterable<TarEntry>): ReadableStream<Uint8Array> {
  const iterator = entries[Symbol.iterator]();
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  let remaining = 0;
  let declared = 0;
  let done = false;

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (reader) {
        const chunk = remaining > 0 ? await reader.read() : { done: true as const, value: undefined };
        if (!chunk.done) {
          const part = chunk.value.byteLength > remaining ? chunk.value.subarray(0, remaining) : chunk.value;
          remaining -= part.byteLength;
          if (part.byteLength > 0) controller.enqueue(part);
          return;
        }
        await reader.cancel().catch(() => undefined);
        reader = null;
        if (remaining > 0) controller.enqueue(new Uint8Array(remaining));
        controller.enqueue(tarPadding(declared));
        return;
      }
      if (done) return;
      const next = iterator.next();
      if (next.done) {
        done = true;
        controller.enqueue(tarTrailer());
        controller.close();
        return;
      }
      const entry = next.value;
      controller.enqueue(tarHeader(entry));
      if (entry.name.endsWith("/")) return;
      declared = entry.size;
      remaining = entry.size;
      const body = entry.open ? await entry.open() : null;
      if (body) {
        reader = body.getReader();
      } else {
        if (entry.size > 0) controller.enqueue(new Uint8Array(entry.size));
        controller.enqueue(tarPadding(entry.size));
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason).catch(() => undefined);
    },
  });
}
