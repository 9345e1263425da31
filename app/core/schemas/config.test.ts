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

  it("normalises the email domain whitelist and names an entry that is not a domain", () => {
    const domains = (v: string) => configUpdateSchema.safeParse({ accountPolicy: { emailDomainList: v } });
    expect(domains(" Example.COM,@ctf.example.org , ,example.com,例え.jp ").data?.accountPolicy?.emailDomainList).toBe("example.com, ctf.example.org, 例え.jp");
    expect(domains("").data?.accountPolicy?.emailDomainList).toBe("");
    for (const bad of ["example.com, bad domain!!", "-a.com", "a-.com", "a..com", `${"a".repeat(64)}.com`, "user@example.com"]) {
      const parsed = domains(bad);
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ message: "validation.email_domain_invalid", path: ["accountPolicy", "emailDomainList"] });
    }
    expect((domains("ok.org, bad domain!!").error?.issues[0] as { params?: unknown }).params).toEqual({ domain: "bad domain!!" });
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
