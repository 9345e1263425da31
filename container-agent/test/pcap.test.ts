import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ipv6Bytes, pcapGlobalHeader, pcapRecord, udpFrame } from "../src/pcap.ts";
import { run } from "./helpers.ts";

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

describe("ipv6Bytes", () => {
  it("maps IPv4 and parses IPv6 forms", () => {
    expect(hex(ipv6Bytes("10.1.2.3"))).toBe("00000000000000000000ffff0a010203");
    expect(hex(ipv6Bytes("::"))).toBe("0".repeat(32));
    expect(hex(ipv6Bytes("::1"))).toBe(`${"0".repeat(30)}01`);
    expect(hex(ipv6Bytes("2001:db8::8a2e:370:7334"))).toBe("20010db80000000000008a2e03707334");
    expect(hex(ipv6Bytes("::ffff:192.168.0.1"))).toBe("00000000000000000000ffffc0a80001");
    expect(hex(ipv6Bytes("0:0:0:0:0:ffff:1.2.3.4"))).toBe("00000000000000000000ffff01020304");
    expect(hex(ipv6Bytes("[fe80::1%eth0]"))).toBe("fe800000000000000000000000000001");
    expect(() => ipv6Bytes("example.org")).toThrow();
  });
});

describe("pcap records", () => {
  it("writes the classic little-endian global header", () => {
    expect(hex(pcapGlobalHeader())).toBe("d4c3b2a1020004000000000000000000000004000100" + "0000");
  });

  it("builds Ethernet/IPv6/UDP frames with lengths and a valid checksum", () => {
    const payload = new TextEncoder().encode("hello");
    const frame = udpFrame({ srcIp: ipv6Bytes("::1"), srcPort: 10001, dstIp: ipv6Bytes("10.0.0.2"), dstPort: 7, payload });
    expect(frame.length).toBe(14 + 40 + 8 + 5);
    expect(hex(frame.subarray(0, 14))).toBe("001100110011001100110011" + "86dd");
    const view = new DataView(frame.buffer);
    expect(view.getUint16(14 + 4)).toBe(13); // IPv6 payload length
    expect(frame[14 + 6]).toBe(17);
    expect(view.getUint16(54)).toBe(10001);
    expect(view.getUint16(56)).toBe(7);
    expect(view.getUint16(58)).toBe(13);
    // Re-summing the pseudo header and datagram including the checksum gives 0xffff.
    let sum = 0;
    const add = (bytes: Uint8Array) => {
      for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i]! << 8) | (bytes[i + 1] ?? 0);
    };
    add(frame.subarray(22, 54));
    add(Uint8Array.of(0, 0, 0, 13, 0, 0, 0, 17));
    add(frame.subarray(54));
    while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
    expect(sum).toBe(0xffff);
  });

  it("stamps records in microseconds", () => {
    const record = pcapRecord(Uint8Array.of(1, 2, 3), 1_700_000_000_123_456);
    const view = new DataView(record.buffer);
    expect(view.getUint32(0, true)).toBe(1_700_000_000);
    expect(view.getUint32(4, true)).toBe(123_456);
    expect(view.getUint32(8, true)).toBe(3);
    expect(view.getUint32(12, true)).toBe(3);
  });
});

describe("tshark reads the written file", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "flagstaff-pcap-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("parses every frame, addresses, ports, payloads and checksums", async () => {
    const client = ipv6Bytes("203.0.113.9");
    const server = ipv6Bytes("172.18.0.5");
    const text = (s: string) => new TextEncoder().encode(s);
    const frames = [
      udpFrame({ srcIp: new Uint8Array(16), srcPort: 65535, dstIp: client, dstPort: 10001, payload: text('{"Challenge":"x"}') }),
      udpFrame({ srcIp: client, srcPort: 10001, dstIp: server, dstPort: 7, payload: text("ping") }),
      udpFrame({ srcIp: server, srcPort: 7, dstIp: client, dstPort: 10001, payload: new Uint8Array(4096).fill(0x41) }),
    ];
    const parts = [pcapGlobalHeader(), ...frames.map((f, i) => pcapRecord(f, 1_700_000_000_000_000 + i * 1000))];
    const file = join(dir, "frames.pcap");
    await writeFile(file, Buffer.concat(parts));
    const { stdout } = await run("tshark", [
      "-r", file,
      "-o", "udp.check_checksum:TRUE",
      "-T", "fields", "-E", "separator=|",
      "-e", "ipv6.src", "-e", "udp.srcport", "-e", "ipv6.dst", "-e", "udp.dstport", "-e", "udp.length", "-e", "udp.checksum.status", "-e", "udp.payload",
    ]);
    const rows = stdout.trim().split("\n").map((line) => line.split("|"));
    expect(rows).toHaveLength(3);
    expect(rows[0]!.slice(0, 4)).toEqual(["::", "65535", "::ffff:203.0.113.9", "10001"]);
    expect(rows[1]!.slice(0, 4)).toEqual(["::ffff:203.0.113.9", "10001", "::ffff:172.18.0.5", "7"]);
    expect(Buffer.from(rows[1]![6]!, "hex").toString()).toBe("ping");
    expect(rows[2]![4]).toBe(String(8 + 4096));
    // 1 = Good
    expect(rows.map((r) => r[5])).toEqual(["1", "1", "1"]);
  });
});
