import { describe, expect, it } from "vitest";
import { checkPlatformFields } from "./platform-form";

describe("checkPlatformFields", () => {
  it("refuses an empty or blank platform name at its field", () => {
    expect(checkPlatformFields({ title: "", customTheme: "" })).toEqual({ title: "required" });
    expect(checkPlatformFields({ title: "   ", customTheme: "#4f6df5" })).toEqual({ title: "required" });
  });

  it("refuses a colour the platform cannot use, and names both fields when both are wrong", () => {
    expect(checkPlatformFields({ title: "CTF", customTheme: "red" })).toEqual({ customTheme: "colourInvalid" });
    expect(checkPlatformFields({ title: " ", customTheme: "#zzz" })).toEqual({ title: "required", customTheme: "colourInvalid" });
  });

  it("accepts a name with a usable colour, the default colour or none", () => {
    for (const customTheme of ["#e11d48", "brand", "", "  "]) expect(checkPlatformFields({ title: "校园 CTF", customTheme })).toEqual({});
  });
});
