import { describe, expect, it } from "vitest";
import { checkContainerMinutes } from "./container-policy-form";

const ok = { defaultLifetime: "120", extensionDuration: "60", renewalWindow: "10" };

describe("checkContainerMinutes", () => {
  it("reads whole numbers in range (spaces around them allowed)", () => {
    expect(checkContainerMinutes({ ...ok, renewalWindow: " 360 " })).toEqual({ values: { defaultLifetime: 120, extensionDuration: 60, renewalWindow: 360 } });
    expect(checkContainerMinutes({ defaultLifetime: "1", extensionDuration: "7200", renewalWindow: "1" })).toEqual({ values: { defaultLifetime: 1, extensionDuration: 7200, renewalWindow: 1 } });
  });

  it.each([
    ["defaultLifetime", "", { min: 1, max: 7200 }],
    ["defaultLifetime", "   ", { min: 1, max: 7200 }],
    ["extensionDuration", "0", { min: 1, max: 7200 }],
    ["extensionDuration", "7201", { min: 1, max: 7200 }],
    ["renewalWindow", "2.5", { min: 1, max: 360 }],
    ["renewalWindow", "361", { min: 1, max: 360 }],
    ["renewalWindow", "abc", { min: 1, max: 360 }],
    ["renewalWindow", "1e9", { min: 1, max: 360 }],
  ] as const)("names %s = %j, with its range", (field, text, range) => {
    expect(checkContainerMinutes({ ...ok, [field]: text })).toEqual({ problems: { [field]: range } });
  });

  it("names every cleared field at once", () => {
    expect(checkContainerMinutes({ defaultLifetime: "", extensionDuration: "", renewalWindow: "" })).toEqual({
      problems: { defaultLifetime: { min: 1, max: 7200 }, extensionDuration: { min: 1, max: 7200 }, renewalWindow: { min: 1, max: 360 } },
    });
  });
});
