import { describe, expect, it } from "vitest";
import { contentTypeForName, detectImage, isPdf } from "./magic-bytes";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((ch) => ch.charCodeAt(0)) : p)));

describe("detectImage", () => {
  it.each([
    ["png", bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "png"],
    ["jpeg", bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]), "jpeg"],
    ["gif87a", bytes("GIF87a", [1, 0]), "gif"],
    ["gif89a", bytes("GIF89a", [1, 0]), "gif"],
    ["webp", bytes("RIFF", [0x24, 0, 0, 0], "WEBPVP8 "), "webp"],
  ])("recognises %s", (_name, input, kind) => {
    expect(detectImage(input)).toBe(kind);
  });

  it.each([
    ["empty", bytes()],
    ["text", bytes("hello world")],
    ["truncated png", bytes([0x89, 0x50, 0x4e, 0x47])],
    ["riff that is not webp", bytes("RIFF", [0, 0, 0, 0], "WAVEfmt ")],
    ["gif without version", bytes("GIF8")],
    ["pdf", bytes("%PDF-1.7\n")],
    ["svg", bytes("<svg xmlns='http://www.w3.org/2000/svg'/>")],
    ["html named .png", bytes("<html><script>alert(1)</script>")],
  ])("refuses %s", (_name, input) => {
    expect(detectImage(input)).toBeNull();
  });
});

describe("isPdf", () => {
  it("accepts a PDF header and refuses others", () => {
    expect(isPdf(bytes("%PDF-1.4\n%âãÏÓ"))).toBe(true);
    expect(isPdf(bytes("%PDF"))).toBe(false);
    expect(isPdf(bytes([0x89, 0x50, 0x4e, 0x47]))).toBe(false);
    expect(isPdf(bytes())).toBe(false);
  });
});

describe("contentTypeForName", () => {
  it.each([
    ["flag.PNG", "image/png"],
    ["photo.jpeg", "image/jpeg"],
    ["writeup.pdf", "application/pdf"],
    ["dist.tar.gz", "application/gzip"],
    ["avatar", "application/octet-stream"],
    ["weird.xyz", "application/octet-stream"],
  ])("%s → %s", (name, type) => {
    expect(contentTypeForName(name)).toBe(type);
  });
});
