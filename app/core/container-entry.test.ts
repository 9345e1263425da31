import { describe, expect, it } from "vitest";
import { portMappingOfEntry } from "./container-entry";

describe("portMappingOfEntry", () => {
  it.each([
    ["0f8e7c1a-3b2d-4c5e-8f9a-0b1c2d3e4f5a", "PlatformProxy"],
    ["0F8E7C1A-3B2D-4C5E-8F9A-0B1C2D3E4F5A", "PlatformProxy"],
    ["127.0.0.1:32782", "Default"],
    ["ctf.example.org:40001", "Default"],
    ["[::1]:32782", "Default"],
    // A UUID-like host name with a port is still a direct address.
    ["0f8e7c1a-3b2d-4c5e-8f9a-0b1c2d3e4f5a:80", "Default"],
    ["", "Default"],
  ] as const)("%j → %s", (entry, expected) => {
    expect(portMappingOfEntry(entry)).toBe(expected);
  });
});
