import { describe, expect, it } from "vitest";
import { computeEmailProblem } from "./email";

describe("computeEmailProblem", () => {
  it("asks for an email when none is given", () => {
    expect(computeEmailProblem("")).toBe("register.emailRequired");
    expect(computeEmailProblem("   ")).toBe("register.emailRequired");
  });

  it.each(["not-an-email", "a@b", "@example.com", "sakura@", "a b@example.com"])("names %j as not an address", (email) => {
    expect(computeEmailProblem(email)).toBe("register.emailInvalid");
  });

  it.each(["sakura@example.com", " lihua@example.com ", "user+tag@mail.example.co.jp", "a@xn--p1ai.xn--p1ai"])("takes %j, as the server does", (email) => {
    expect(computeEmailProblem(email)).toBeNull();
  });
});
