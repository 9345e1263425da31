import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { readChunked, responseFraming } from "./http-framing.mjs";
import { hammer } from "./load.mjs";

const b = (s) => Buffer.from(s, "latin1");

describe("responseFraming and readChunked", () => {
  it("frame a response by its length, without reading the body", () => {
    expect(responseFraming(b("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"))).toBeNull();
    const ok = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n";
    expect(responseFraming(b(`${ok}12`))).toEqual({ status: 200, headSize: ok.length, bodySize: 5, chunked: false, close: false });
    const notModified = "HTTP/1.1 304 Not Modified\r\nETag: x\r\nConnection: close\r\n\r\n";
    expect(responseFraming(b(notModified))).toEqual({ status: 304, headSize: notModified.length, bodySize: 0, chunked: false, close: true });
  });

  it("find where a chunked body ends, collecting its data only when asked", () => {
    const body = "3\r\nabc\r\n2;x=y\r\nde\r\n0\r\nX-T: 1\r\n\r\n";
    const head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n";
    const framing = responseFraming(b(head + body));
    expect(framing).toMatchObject({ status: 200, bodySize: null, chunked: true });
    expect(readChunked(b(head + body), framing.headSize)).toEqual({ end: head.length + body.length, parts: null });
    const collected = readChunked(b(head + body), framing.headSize, true);
    expect(Buffer.concat(collected.parts).toString()).toBe("abcde");
    expect(readChunked(b(head + body.slice(0, -2)), framing.headSize)).toBeNull();
    expect(() => readChunked(b(`${head}zz\r\n`), framing.headSize)).toThrow(/bad chunk size/);
  });

  it("refuse what cannot be framed", () => {
    expect(() => responseFraming(b("SSH-2.0\r\n\r\n"))).toThrow(/not an HTTP response/);
    expect(() => responseFraming(b("HTTP/1.1 200 OK\r\n\r\nbody"))).toThrow(/Content-Length/);
  });
});

describe("hammer", () => {
  let server;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r) ?? r());
    server = null;
  });

  async function serve(handler) {
    server = http.createServer(handler);
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${server.address().port}`;
  }

  it("counts answers by status over keep-alive connections, with the request's headers", async () => {
    let connections = 0;
    let requests = 0;
    const base = await serve((req, res) => {
      requests++;
      if (req.headers["if-none-match"] === "W/\"v1\"") return res.writeHead(304).end();
      if (req.url === "/chunked") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("a".repeat(5000));
        return res.end("b");
      }
      res.writeHead(200, { "content-length": 20_000 }).end(Buffer.alloc(20_000, 120));
    });
    server.on("connection", () => connections++);

    const plain = await hammer(`${base}/page?count=50`, { connections: 4, seconds: 0.5 });
    expect(plain.errors).toBe(0);
    expect(plain.requests).toBeGreaterThan(20);
    expect(plain.statuses).toEqual({ 200: plain.requests });
    // Over the run's time: 0.5 s as the timer measured it (which may fire a millisecond early) and its lateness.
    expect(plain.rps).toBeLessThanOrEqual(plain.requests / 0.49);
    expect(plain.rps).toBeGreaterThan(plain.requests / 0.6);
    expect(plain.p50Ms).toBeGreaterThan(0);
    expect(plain.p99Ms).toBeGreaterThanOrEqual(plain.p90Ms);
    expect(plain.p90Ms).toBeGreaterThanOrEqual(plain.p50Ms);
    // One connection each, kept alive; answers after the time are served but not counted.
    expect(connections).toBe(4);
    expect(requests).toBeGreaterThanOrEqual(plain.requests);

    const conditional = await hammer(`${base}/page`, { connections: 2, seconds: 0.3, headers: { "if-none-match": 'W/"v1"' } });
    expect(conditional).toMatchObject({ errors: 0, non2xx: conditional.requests, statuses: { 304: conditional.requests } });
    expect(conditional.requests).toBeGreaterThan(5);

    const chunked = await hammer(`${base}/chunked`, { connections: 2, seconds: 0.3 });
    expect(chunked).toMatchObject({ errors: 0, statuses: { 200: chunked.requests } });
    expect(chunked.requests).toBeGreaterThan(5);
  });

  it("opens a connection again after an answer with Connection: close, which is no error", async () => {
    let connections = 0;
    const base = await serve((req, res) => res.writeHead(200, { "content-length": 2, connection: "close" }).end("ok"));
    server.on("connection", () => connections++);
    const r = await hammer(`${base}/`, { connections: 2, seconds: 0.4 });
    expect(r.requests).toBeGreaterThan(10);
    expect(r).toMatchObject({ errors: 0, statuses: { 200: r.requests } });
    expect(connections).toBeGreaterThanOrEqual(r.requests);
  });

  it("counts a connection cut mid-answer as an error and opens another", async () => {
    let n = 0;
    const base = await serve((req, res) => {
      n++;
      if (n % 3 === 0) {
        res.writeHead(200, { "content-length": 100 });
        res.write("only part");
        return setTimeout(() => res.socket.destroy(), 5);
      }
      res.writeHead(200, { "content-length": 2, connection: "close" }).end("ok");
    });
    const r = await hammer(`${base}/`, { connections: 3, seconds: 0.5 });
    expect(r.requests).toBeGreaterThan(10);
    expect(r.statuses).toEqual({ 200: r.requests });
    expect(r.errors).toBeGreaterThan(0);
    // Every third request was cut: errors and answers keep that ratio (within what the end of the run cut).
    expect(r.errors).toBeGreaterThanOrEqual(Math.floor(r.requests / 2) - 3);
  });

  it("cuts an answer that never comes once the time and the grace are over", async () => {
    const base = await serve(() => {
      // Never answers.
    });
    const started = performance.now();
    const r = await hammer(`${base}/`, { connections: 2, seconds: 0.2, graceMs: 200 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(r).toMatchObject({ requests: 0, errors: 2, statuses: {} });
    expect(Number.isNaN(r.p50Ms)).toBe(true);
  });
});
