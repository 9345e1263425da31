import { describe, expect, it } from "vitest";
import { keepInput, keptValue } from "./kept-input";

describe("the text a refused form keeps for the page the server draws again", () => {
  const form = new FormData();
  form.set("userName", "  Alice ");
  form.set("email", "alice@example.com");
  form.set("password", "Secret123!");
  form.set("challenge", "captcha-token");
  form.set("avatar", new File(["x"], "a.png"));

  it("copies only the fields named, as typed; an absent field or a file is empty", () => {
    expect(keepInput(form, ["userName", "email", "avatar", "phone"])).toEqual({
      keptInput: { userName: "  Alice ", email: "alice@example.com", avatar: "", phone: "" },
    });
    const kept = JSON.stringify(keepInput(form, ["userName", "email"]));
    expect(kept).not.toContain("Secret123!");
    expect(kept).not.toContain("captcha-token");
  });

  it("gives a field its kept text, and nothing for an answer without any", () => {
    const refused = { formError: "no", unchanged: true, ...keepInput(form, ["userName", "email"]) };
    expect(keptValue(refused, "userName")).toBe("  Alice ");
    expect(keptValue(refused, "email")).toBe("alice@example.com");
    type Answer = typeof refused | { formError: string } | undefined;
    for (const other of [undefined, { formError: "no" }] as Answer[]) expect(keptValue(other, "userName")).toBeUndefined();
    expect(keptValue({ keptInput: { userName: 1 } } as unknown as typeof refused, "userName")).toBeUndefined();
  });
});
