import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { AgentCaptureFile } from "../../app/core/agent-protocol.ts";
import { CaptureManager, type CaptureTarget } from "../src/capture.ts";
import { MemoryLogger } from "../src/log.ts";
import { run } from "./helpers.ts";

let dir: string;
const target: CaptureTarget = {
  instanceId: "5f0c7a52-8d1e-4e8b-9d55-0a4c1c0e9b11",
  containerId: "ab".repeat(32),
  serverIp: "172.18.0.9",
  serverPort: 1337,
  flag: "flag{capture}",
  spec: { challengeId: 4, challengeTitle: "Pwn", participationId: 9, teamId: 2, teamName: "Green" },
};

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "flagstaff-capture-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it("hands finished files to the uploader and deletes them once it accepts", async () => {
  const uploaded: { capture: AgentCaptureFile; bytes: Buffer }[] = [];
  const ready: AgentCaptureFile[] = [];
  const captures = new CaptureManager({
    dir,
    log: new MemoryLogger(),
    onReady: (capture) => ready.push(capture),
    uploader: {
      upload: async (capture, path) => {
        uploaded.push({ capture, bytes: await readFile(path) });
        return true;
      },
    },
  });
  const { connectionId, connection } = captures.open(target, "198.51.100.4");
  expect(connection.clientPort).toBe(10001);
  connection.toServer(Buffer.from("GET / HTTP/1.0\r\n\r\n"));
  connection.toClient(Buffer.from("HTTP/1.0 200 OK\r\n\r\n"));
  connection.close();
  await captures.release(target.instanceId);

  expect(ready).toHaveLength(1);
  expect(uploaded).toHaveLength(1);
  expect(uploaded[0]!.capture).toMatchObject({ key: `4/9/abababababab-${connectionId}.pcap`, packets: 3, dropped: 0, instanceId: target.instanceId });
  expect(await captures.list()).toEqual([]);
  await expect(stat(join(dir, "4", "9", `abababababab-${connectionId}.pcap.gz`))).rejects.toThrow();

  const pcap = join(dir, "check.pcap");
  await writeFile(pcap, gunzipSync(uploaded[0]!.bytes));
  const { stdout } = await run("tshark", ["-r", pcap, "-T", "fields", "-e", "udp.srcport", "-e", "udp.dstport"]);
  expect(stdout.trim().split("\n")).toEqual(["65535\t10001", "10001\t1337", "1337\t10001"]);
});

it("drops packets beyond the write buffer and counts them", async () => {
  const captures = new CaptureManager({ dir, log: new MemoryLogger(), bufferPackets: 1 });
  const { connection } = captures.open(target, "198.51.100.4");
  const chunk = Buffer.alloc(4096, 0x5a);
  for (let i = 0; i < 200; i++) connection.toClient(chunk);
  await captures.release(target.instanceId);
  const [file] = await captures.list();
  expect(file!.dropped).toBeGreaterThan(0);
  expect(file!.packets + file!.dropped).toBe(201);
});

it("gives each live connection its own synthetic port, counting from 10001", async () => {
  const captures = new CaptureManager({ dir, log: new MemoryLogger() });
  const a = captures.open(target, "198.51.100.4").connection;
  const b = captures.open(target, "198.51.100.5").connection;
  expect([a.clientPort, b.clientPort]).toEqual([10001, 10002]);
  a.close();
  b.close();
  await captures.closeAll();
});
