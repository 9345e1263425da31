import { describe, expect, it } from "vitest";
import { captureArchiveName } from "./captures";
import { portMappingOf, testFlagOf } from "./containers";

describe("container helpers", () => {
  it("derives a test container's flag from its id: the same id gives the same flag", () => {
    const challenge = { type: "DynamicContainer" as const, flagTemplate: "flag{[GUID]}" };
    const a = testFlagOf(challenge, "2f6f4a52-5d1c-4a8e-9b8e-3d2a1c0b9f11");
    expect(a).toMatch(/^flag\{[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}\}$/);
    expect(testFlagOf(challenge, "2f6f4a52-5d1c-4a8e-9b8e-3d2a1c0b9f11")).toBe(a);
    expect(testFlagOf(challenge, "00000000-0000-4000-8000-000000000000")).not.toBe(a);
    expect(testFlagOf({ type: "DynamicContainer", flagTemplate: "flag{[TEAM_HASH]}" }, "x")).toBe("flag{TestTeamHash}");
    expect(testFlagOf({ type: "StaticContainer", flagTemplate: null }, "x")).toBeNull();
  });

  it("reads the port mapping from the environment (Default unless PlatformProxy)", () => {
    expect(portMappingOf({})).toBe("Default");
    expect(portMappingOf({ FLAGSTAFF_PORT_MAPPING: "PlatformProxy" })).toBe("PlatformProxy");
    expect(portMappingOf({ FLAGSTAFF_PORT_MAPPING: "platformproxy" })).toBe("Default");
  });

  it("names the capture archive Capture-{cid}-{teamId}-{yyyyMMdd-HH.mm.ss}Z.tar.gz in UTC", () => {
    expect(captureArchiveName(7, 12, Date.UTC(2026, 0, 2, 3, 4, 5))).toBe("Capture-7-12-20260102-03.04.05Z.tar.gz");
  });
});
