// The framing of an HTTP/1.1 response read from a raw loopback socket, for the bench's lean clients
// (bench/lib/post-client.mjs, bench/lib/get-load.mjs): status, where the head ends, how the body is framed.

const CRLF2 = Buffer.from("\r\n\r\n");

/**
 * Reads the head of the response at the front of `buf`: null while it is incomplete, else
 * {status, headSize, bodySize, chunked, close}. `bodySize` is null for a chunked body (see readChunked);
 * bodiless answers (1xx, 204, 304) have 0. Throws on what is not an HTTP/1.x response with a usable length.
 */
export function responseFraming(buf) {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return null;
  const lines = buf.toString("latin1", 0, headEnd).split("\r\n");
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) throw new Error(`not an HTTP response: ${lines[0].slice(0, 80)}`);
  const status = Number(m[1]);
  let bodySize = null;
  let chunked = false;
  let close = false;
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(":");
    if (colon < 0) continue;
    const name = lines[i].slice(0, colon).trim().toLowerCase();
    const value = lines[i].slice(colon + 1).trim().toLowerCase();
    if (name === "content-length") bodySize = Number(value);
    else if (name === "transfer-encoding") chunked = value.split(",").some((v) => v.trim() === "chunked");
    else if (name === "connection") close = value.split(",").some((v) => v.trim() === "close");
  }
  const headSize = headEnd + 4;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) return { status, headSize, bodySize: 0, chunked: false, close };
  if (chunked) return { status, headSize, bodySize: null, chunked: true, close };
  if (bodySize === null || !Number.isInteger(bodySize) || bodySize < 0) throw new Error(`response ${status} without a usable Content-Length`);
  return { status, headSize, bodySize, chunked: false, close };
}

/**
 * Walks a chunked body that starts at `at` in `buf`: null while it is incomplete, else {end, parts} — the
 * offset just past it (last chunk, trailers, empty line) and, with `collect`, its data chunks.
 */
export function readChunked(buf, at, collect = false) {
  const parts = collect ? [] : null;
  for (;;) {
    const lineEnd = buf.indexOf("\r\n", at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(buf.toString("latin1", at, lineEnd).split(";")[0], 16);
    if (!Number.isFinite(size) || size < 0) throw new Error("bad chunk size");
    if (size === 0) {
      const end = buf.indexOf(CRLF2, lineEnd);
      return end < 0 ? null : { end: end + 4, parts };
    }
    const dataStart = lineEnd + 2;
    if (buf.length < dataStart + size + 2) return null;
    parts?.push(buf.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
