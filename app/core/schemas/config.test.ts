import { describe, expect, it } from "vitest";
import { configUpdateSchema, normalizeCustomTheme } from "./config";

describe("configUpdateSchema", () => {
  it("accepts null and omitted fields (left unchanged by the service)", () => {
    const parsed = configUpdateSchema.parse({
      globalConfig: { title: null, slogan: "s" },
      accountPolicy: { allowRegister: null },
      containerPolicy: null,
    });
    expect(parsed.globalConfig).toEqual({ title: null, slogan: "s" });
    expect(parsed.accountPolicy).toEqual({ allowRegister: null });
    expect(parsed.containerPolicy).toBeNull();
  });

  it("still validates the values that are sent", () => {
    expect(configUpdateSchema.safeParse({ globalConfig: { title: "  " } }).success).toBe(false);
    expect(configUpdateSchema.safeParse({ containerPolicy: { defaultLifetime: 0 } }).success).toBe(false);
    expect(configUpdateSchema.safeParse({ containerPolicy: { renewalWindow: 361 } }).success).toBe(false);
    expect(configUpdateSchema.safeParse({ containerPolicy: { extraFlagEnvNames: ["FLAGSTAFF_X"] } }).success).toBe(false);
    expect(configUpdateSchema.safeParse({ accountPolicy: { useCaptcha: "yes" } }).success).toBe(false);
    expect(configUpdateSchema.safeParse({ containerPolicy: { defaultLifetime: 60, extraFlagEnvNames: ["MY_FLAG"] } }).success).toBe(true);
  });

  it("turns an invalid customTheme into \"\" instead of refusing it; null and omitted stay", () => {
    const theme = (customTheme: unknown) => configUpdateSchema.safeParse({ globalConfig: { customTheme } });
    for (const bad of [123, "#".repeat(33), "red", {}, true]) expect(theme(bad)).toMatchObject({ success: true, data: { globalConfig: { customTheme: "" } } });
    expect(theme(" #A1b2C3 ")).toMatchObject({ success: true, data: { globalConfig: { customTheme: "#A1b2C3" } } });
    expect(theme("brand")).toMatchObject({ success: true, data: { globalConfig: { customTheme: "brand" } } });
    expect(theme(null)).toMatchObject({ success: true, data: { globalConfig: { customTheme: null } } });
    expect(configUpdateSchema.parse({ globalConfig: { slogan: "s" } }).globalConfig).toEqual({ slogan: "s" });
  });
});

describe("normalizeCustomTheme", () => {
  it("keeps 7-character hex and brand, clears anything else", () => {
    expect(normalizeCustomTheme("#A1b2C3")).toBe("#A1b2C3");
    expect(normalizeCustomTheme(" brand ")).toBe("brand");
    for (const bad of ["#abc", "red", "#1234567", "Brand", 12, null]) expect(normalizeCustomTheme(bad)).toBe("");
  });
});
