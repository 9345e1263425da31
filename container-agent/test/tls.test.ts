import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { signRequest, type AgentHealth } from "../../app/core/agent-protocol.ts";
import { cleanup, run, startAgent, type TestAgent } from "./helpers.ts";

let dir: string;
let t: TestAgent;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "flagstaff-agent-tls-"));
  await run("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"),
  ]);
  t = await startAgent({ tls: { certFile: join(dir, "cert.pem"), keyFile: join(dir, "key.pem") } });
});

afterAll(async () => {
  await t.stop();
  await cleanup(t.config);
  await rm(dir, { recursive: true, force: true });
});

it("serves the signed API over HTTPS when given a certificate", async () => {
  expect(t.agent.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const ca = await readFile(join(dir, "cert.pem"));
  const headers = await signRequest(t.config.secret, { method: "GET", path: "/health" });
  const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${t.agent.url}/health`, { headers, ca }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on("error", reject);
    req.end();
  });
  expect(status).toBe(200);
  expect((JSON.parse(body) as AgentHealth).agentId).toBe(t.config.agentId);
});
