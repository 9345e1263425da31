/**
 * Classic pcap (libpcap 2.4, microsecond timestamps, LINKTYPE_ETHERNET) of synthetic Ethernet / IPv6 /
 * UDP frames, as rules.md §9 describes. Pure functions over bytes; the file handling is in capture.ts.
 */
import { isIP } from "node:net";

export const PCAP_SNAPLEN = 262_144;
export const LINKTYPE_ETHERNET = 1;
/** The dummy MAC address of both ends of every frame. */
export const CAPTURE_MAC = Uint8Array.of(0x00, 0x11, 0x00, 0x11, 0x00, 0x11);
export const ETHERTYPE_IPV6 = 0x86dd;
export const IP_PROTO_UDP = 17;
const ETHERNET_HEADER = 14;
const IPV6_HEADER = 40;
const UDP_HEADER = 8;
/** The largest UDP payload an IPv6 frame without jumbograms can carry. */
export const MAX_UDP_PAYLOAD = 0xffff - UDP_HEADER;

/** The 24-byte global header, little-endian. */
export function pcapGlobalHeader(snaplen = PCAP_SNAPLEN): Uint8Array {
  const out = new Uint8Array(24);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xa1b2c3d4, true);
  view.setUint16(4, 2, true);
  view.setUint16(6, 4, true);
  view.setInt32(8, 0, true);
  view.setUint32(12, 0, true);
  view.setUint32(16, snaplen, true);
  view.setUint32(20, LINKTYPE_ETHERNET, true);
  return out;
}

/** One record: 16-byte header (time in microseconds since the Unix epoch) followed by the frame. */
export function pcapRecord(frame: Uint8Array, timeMicros: number, snaplen = PCAP_SNAPLEN): Uint8Array {
  const captured = Math.min(frame.length, snaplen);
  const out = new Uint8Array(16 + captured);
  const view = new DataView(out.buffer);
  const seconds = Math.floor(timeMicros / 1_000_000);
  view.setUint32(0, seconds, true);
  view.setUint32(4, Math.floor(timeMicros - seconds * 1_000_000), true);
  view.setUint32(8, captured, true);
  view.setUint32(12, frame.length, true);
  out.set(frame.subarray(0, captured), 16);
  return out;
}

/**
 * 16 address bytes of an IPv6 address, or of an IPv4 address as IPv4-mapped IPv6 (`::ffff:a.b.c.d`).
 * Throws on anything else.
 */
export function ipv6Bytes(address: string): Uint8Array {
  const plain = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const kind = isIP(plain);
  if (kind === 4) return Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...ipv4Bytes(plain));
  if (kind !== 6) throw new Error(`not an IP address: ${address}`);
  // A zone id (fe80::1%eth0) is not part of the address bytes.
  const text = plain.split("%")[0]!;
  let groups: number[];
  let tail: number[] = [];
  let body = text;
  const lastColon = body.lastIndexOf(":");
  if (body.slice(lastColon + 1).includes(".")) {
    const v4 = ipv4Bytes(body.slice(lastColon + 1));
    tail = [(v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!];
    body = body.slice(0, lastColon + 1) + "0";
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const double = body.indexOf("::");
  if (double >= 0) {
    const head = parse(body.slice(0, double));
    const rest = parse(body.slice(double + 2));
    if (tail.length > 0) rest.pop();
    const fill = 8 - tail.length - head.length - rest.length;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  } else {
    groups = parse(body);
    if (tail.length > 0) groups.pop();
    groups = [...groups, ...tail];
  }
  const out = new Uint8Array(16);
  groups.forEach((group, i) => {
    out[i * 2] = group >> 8;
    out[i * 2 + 1] = group & 0xff;
  });
  return out;
}

function ipv4Bytes(address: string): number[] {
  return address.split(".").map((part) => Number(part));
}

/** One's-complement sum of 16-bit words, folded. */
function sum16(bytes: Uint8Array, start: number, end: number, initial: number): number {
  let sum = initial;
  for (let i = start; i + 1 < end; i += 2) sum += (bytes[i]! << 8) | bytes[i + 1]!;
  if ((end - start) % 2 === 1) sum += bytes[end - 1]! << 8;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

export interface UdpFrameInput {
  srcIp: Uint8Array;
  srcPort: number;
  dstIp: Uint8Array;
  dstPort: number;
  payload: Uint8Array;
}

/** Ethernet II + IPv6 + UDP (with its mandatory checksum) around `payload`. */
export function udpFrame({ srcIp, srcPort, dstIp, dstPort, payload }: UdpFrameInput): Uint8Array {
  if (srcIp.length !== 16 || dstIp.length !== 16) throw new Error("IPv6 addresses are 16 bytes");
  if (payload.length > MAX_UDP_PAYLOAD) throw new Error("payload too large for one UDP datagram");
  const udpLength = UDP_HEADER + payload.length;
  const frame = new Uint8Array(ETHERNET_HEADER + IPV6_HEADER + udpLength);
  const view = new DataView(frame.buffer);
  frame.set(CAPTURE_MAC, 0);
  frame.set(CAPTURE_MAC, 6);
  view.setUint16(12, ETHERTYPE_IPV6);
  const ip = ETHERNET_HEADER;
  view.setUint32(ip, 0x60000000); // version 6, traffic class 0, flow label 0
  view.setUint16(ip + 4, udpLength);
  frame[ip + 6] = IP_PROTO_UDP;
  frame[ip + 7] = 64; // hop limit
  frame.set(srcIp, ip + 8);
  frame.set(dstIp, ip + 24);
  const udp = ip + IPV6_HEADER;
  view.setUint16(udp, srcPort);
  view.setUint16(udp + 2, dstPort);
  view.setUint16(udp + 4, udpLength);
  frame.set(payload, udp + UDP_HEADER);
  // Pseudo header: source, destination, UDP length (32 bit), next header (32 bit); then the datagram.
  let sum = sum16(frame, ip + 8, ip + 40, 0);
  sum = sum16(Uint8Array.of(0, 0, udpLength >> 8, udpLength & 0xff, 0, 0, 0, IP_PROTO_UDP), 0, 8, sum);
  sum = sum16(frame, udp, frame.length, sum);
  const checksum = ~sum & 0xffff;
  view.setUint16(udp + 6, checksum === 0 ? 0xffff : checksum);
  return frame;
}

/** The metadata datagram that opens every capture file (rules.md §9). */
export interface CaptureMetadata {
  Challenge: string;
  ChallengeId: number;
  Team: string;
  TeamId: number;
  ContainerId: string;
  Flag: string | null;
}

export const METADATA_SOURCE_IP = new Uint8Array(16);
export const METADATA_SOURCE_PORT = 65535;
