import { describe, expect, it } from "vitest";
import { newAdmin } from "./game-helpers";

type Config = { globalConfig: { customTheme: string; slogan: string } };

describe("PUT admin/config customTheme", () => {
  it("stores an invalid colour as \"\" instead of refusing the call (rules.md §16)", async () => {
    const { client } = await newAdmin();
    const put = (globalConfig: Record<string, unknown>) => client.json("/api/admin/config", { method: "PUT", body: { globalConfig } });
    const stored = async () => (await client.json<Config>("/api/admin/config")).body.globalConfig;
    for (const bad of [123, "#".repeat(33)]) {
      expect((await put({ customTheme: "#123abc" })).status).toBe(200);
      expect((await stored()).customTheme).toBe("#123abc");
      expect((await put({ customTheme: bad })).status).toBe(200);
      expect((await stored()).customTheme).toBe("");
    }
    // null still means "unchanged".
    expect((await put({ customTheme: "brand" })).status).toBe(200);
    expect((await put({ customTheme: null, slogan: "kept theme" })).status).toBe(200);
    expect(await stored()).toMatchObject({ customTheme: "brand", slogan: "kept theme" });
  });
});
