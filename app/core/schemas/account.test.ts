import { describe, expect, it } from "vitest";
import { emailSchema, passwordHints, passwordSchema, profileUpdateSchema, registerSchema } from "./account";

describe("password policy", () => {
  it.each([
    ["", "validation.password_empty"],
    ["Ab1", "validation.password_too_short"],
    ["ABCDEF1", "validation.password_lowercase"],
    ["abcdef1", "validation.password_uppercase"],
    ["Abcdefg", "validation.password_digit"],
  ])("refuses %j with %s first", (password, key) => {
    const result = passwordSchema.safeParse(password);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(key);
  });

  it("accepts a password with lower, upper and digit (symbol optional)", () => {
    expect(passwordSchema.safeParse("Abcdef1").success).toBe(true);
  });

  it("reports the four hints", () => {
    expect(passwordHints("abc")).toEqual({ length: false, lowercase: true, uppercase: false, digit: false, symbol: false });
    expect(passwordHints("Abcdef1!")).toEqual({ length: true, lowercase: true, uppercase: true, digit: true, symbol: true });
  });
});

describe("register schema", () => {
  it("enforces user name length 3–15 and allowed characters", () => {
    const base = { password: "Abcdef1", email: "a@b.co" };
    expect(registerSchema.safeParse({ ...base, userName: "ab" }).success).toBe(false);
    expect(registerSchema.safeParse({ ...base, userName: "a".repeat(16) }).success).toBe(false);
    expect(registerSchema.safeParse({ ...base, userName: "<script>" }).success).toBe(false);
    expect(registerSchema.safeParse({ ...base, userName: "alice_01" }).success).toBe(true);
    expect(registerSchema.safeParse({ ...base, userName: "花子さん" }).success).toBe(true);
    // Compatibility forms that pass for another name: full-width letters, a circled digit.
    expect(registerSchema.safeParse({ ...base, userName: "ａlice" }).error?.issues[0]?.message).toBe("validation.username_chars");
    expect(registerSchema.safeParse({ ...base, userName: "alice①" }).success).toBe(false);
  });

  it("refuses names mixing look-alike alphabets, and keeps names in one of them or beside other scripts", () => {
    const base = { password: "Abcdef1", email: "a@b.co" };
    const message = (userName: string) => registerSchema.safeParse({ ...base, userName }).error?.issues[0]?.message;
    // Cyrillic а (U+0430) in a Latin name; Greek ο (U+03BF) in a Latin name; Cyrillic beside Greek.
    expect(message("\u0430lice")).toBe("validation.username_mixed_scripts");
    expect(message("b\u03bfb")).toBe("validation.username_mixed_scripts");
    expect(message("\u0434\u03b1\u0434")).toBe("validation.username_mixed_scripts");
    for (const name of ["alice", "алиса", "αλίκη", "alice花子", "Иван_42", "user.名前"]) expect(message(name), name).toBeUndefined();
  });

  it("refuses malformed emails", () => {
    const r = registerSchema.safeParse({ userName: "alice", password: "Abcdef1", email: "not-an-email" });
    expect(r.success).toBe(false);
  });
});

describe("profile update schema", () => {
  it("keeps omitted and null fields unset and limits lengths", () => {
    expect(profileUpdateSchema.parse({ bio: null })).toEqual({ bio: null });
    expect(profileUpdateSchema.safeParse({ bio: "x".repeat(129) }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ phone: "+81 (3) 1234-5678" }).success).toBe(true);
    expect(profileUpdateSchema.safeParse({ phone: "call me" }).success).toBe(false);
  });
});

describe("password length", () => {
  it("says a password over 128 characters is too long, not empty", () => {
    const result = passwordSchema.safeParse(`Aa1${"a".repeat(200)}`);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ code: "too_big", maximum: 128 });
    expect(passwordSchema.safeParse(undefined).error?.issues[0]?.message).toBe("validation.password_empty");
  });
});

describe("email addresses", () => {
  it.each(["a@xn--e1afmkfd.xn--p1ai", "user@example.xn--80ao21a", "user@EXAMPLE.XN--P1AI", "a.b+c@sub.example.com", " a@b.co "])("accepts %s", (email) => {
    expect(emailSchema.safeParse(email).success).toBe(true);
  });

  it.each(["a@b.xn--", "a@b.xn--p1ai-", "a@b.c1", "a@b.c", "a@b", "a b@c.com", "a@-b.com", ".a@b.com", "a@b.xn-p1ai", "a@b..com"])("refuses %s", (email) => {
    expect(emailSchema.safeParse(email).error?.issues[0]?.message).toBe("validation.invalid_email");
  });
});
