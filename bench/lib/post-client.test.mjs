import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostClient, parseResponse } from "./post-client.mjs";

const b = (s) => Buffer.from(s, "latin1");

describe("parseResponse", () => {
  it("waits for the whole head and body", () => {
    expect(parseResponse(b("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n"))).toBeNull();
    expect(parseResponse(b("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n12"))).toBeNull();
    expect(parseResponse(b("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n123"))).toEqual({ status: 200, body: "123", size: 41, close: false });
  });

  it("reads chunked bodies, with and without trailers", () => {
    const plain = "HTTP/1.1 429 Too Many\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n";
    expect(parseResponse(b(plain))).toEqual({ status: 429, body: "abcde", size: plain.length, close: false });
    expect(parseResponse(b(plain.slice(0, -2)))).toBeNull();
    const trailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\nX-T: 1\r\n\r\n";
    expect(parseResponse(b(trailers))).toEqual({ status: 200, body: "z", size: trailers.length, close: false });
  });

  it("knows bodiless answers, Connection: close and UTF-8", () => {
    expect(parseResponse(b("HTTP/1.1 304 Not Modified\r\nETag: x\r\n\r\n"))).toMatchObject({ status: 304, body: "" });
    const utf8 = Buffer.concat([b("HTTP/1.1 400 Bad\r\nConnection: close\r\nContent-Length: 3\r\n\r\n"), Buffer.from("ü!", "utf8"), b("HTTP/1.1")]);
    expect(parseResponse(utf8)).toMatchObject({ status: 400, body: "ü!", close: true, size: utf8.length - 8 });
  });

  it("refuses what it cannot frame", () => {
    expect(() => parseResponse(b("SSH-2.0\r\n\r\n"))).toThrow(/not an HTTP response/);
    expect(() => parseResponse(b("HTTP/1.1 200 OK\r\n\r\nbody"))).toThrow(/Content-Length/);
  });
});

describe("createPostClient", () => {
  let server;
  let base;
  const connections = new Set();
  const seen = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        seen.push({ url: req.url, cookie: req.headers.cookie, type: req.headers["content-type"], body });
        if (req.url === "/chunked") {
          res.writeHead(201);
          res.write("par");
          setTimeout(() => res.end("ts"), 5);
        } else if (req.url === "/close") {
          res.writeHead(200, { connection: "close", "content-length": 2 });
          res.end("ok");
        } else if (req.url === "/slow") {
          setTimeout(() => {
            res.writeHead(200, { "content-length": 4 });
            res.end("slow");
          }, 20);
        } else {
          const out = JSON.stringify({ echo: JSON.parse(body) });
          res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
          res.end(out);
        }
      });
    });
    server.on("connection", (socket) => {
      connections.add(socket);
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${server.address().port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("sends the body and headers and keeps one connection alive for requests in turn", async () => {
    connections.clear();
    const client = createPostClient(base, { maxSockets: 1 });
    for (let i = 0; i < 20; i++) {
      const res = await client.post(`/e/${i}`, { cookie: `s=${i}` }, JSON.stringify({ flag: `flag{${i}}` }));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ echo: { flag: `flag{${i}}` } });
      expect(res.totalMs).toBeGreaterThan(0);
    }
    expect(connections.size).toBe(1);
    expect(seen.at(-1)).toEqual({ url: "/e/19", cookie: "s=19", type: "application/json", body: '{"flag":"flag{19}"}' });
    client.destroy();
  });

  it("reads chunked answers and opens a new connection after Connection: close", async () => {
    connections.clear();
    const client = createPostClient(base, { maxSockets: 1 });
    expect(await client.post("/chunked", {}, "{}")).toMatchObject({ status: 201, body: "parts" });
    expect(await client.post("/close", {}, "{}")).toMatchObject({ status: 200, body: "ok" });
    expect(await client.post("/e/after", {}, '{"a":1}')).toMatchObject({ status: 200, body: '{"echo":{"a":1}}' });
    expect(connections.size).toBe(2);
    client.destroy();
  });

  it("queues beyond maxSockets and answers every request", async () => {
    connections.clear();
    const client = createPostClient(base, { maxSockets: 4 });
    const answers = await Promise.all(Array.from({ length: 24 }, () => client.post("/slow", {}, "{}")));
    expect(answers.every((a) => a.status === 200 && a.body === "slow")).toBe(true);
    expect(connections.size).toBe(4);
    client.destroy();
  });

  it("rejects on timeout and when destroyed, and refuses other hosts", async () => {
    const client = createPostClient(base, { maxSockets: 1, timeoutMs: 5 });
    await expect(client.post("/slow", {}, "{}")).rejects.toThrow(/timeout/);
    const pending = client.post("/slow", {}, "{}");
    const queued = client.post("/slow", {}, "{}");
    client.destroy();
    await expect(queued).rejects.toThrow(/destroyed/);
    await expect(pending).rejects.toThrow();
    expect(() => createPostClient("http://10.0.0.1:80")).toThrow(/loopback only/);
  });
});
