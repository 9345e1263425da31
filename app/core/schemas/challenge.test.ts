import { describe, expect, it } from "vitest";
import { challengeUpdateSchema, flagsCreateSchema, isHttpUrl, isImageReference } from "./challenge";

describe("container image names", () => {
  it.each(["nginx", "nginx:latest", "flagstaff-test/busybox:latest", "registry.example.com:5000/team/web:1.0", "localhost/a_b__c/d-e:v1.2-rc", `web@sha256:${"a".repeat(64)}`])(
    "accepts %s",
    (image) => expect(isImageReference(image)).toBe(true),
  );

  it.each(["nginx:latest; rm -rf /", "Nginx", "web:", "a b", "web:-tag", "/web", "web/", "$(id)"])("refuses %s", (image) => expect(isImageReference(image)).toBe(false));

  it("lets an empty image clear the field and refuses a malformed one with its message", () => {
    expect(challengeUpdateSchema.parse({ containerImage: "" }).containerImage).toBe("");
    expect(challengeUpdateSchema.safeParse({ containerImage: "nginx:latest; rm -rf /" }).error?.issues[0]?.message).toBe("challenge.image_format");
  });
});

describe("links and flag lists", () => {
  it("refuses a link with white space, which new URL would quietly encode", () => {
    expect(isHttpUrl("https://example.com/a b")).toBe(false);
    expect(isHttpUrl("https://example.com/a%20b")).toBe(true);
  });

  it("says how many flags one request may add", () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ flag: `flag{${i}}` }));
    expect(flagsCreateSchema.safeParse(tooMany).error?.issues[0]?.message).toBe("challenge.flags_too_many");
    expect(flagsCreateSchema.safeParse(tooMany.slice(0, 1000)).success).toBe(true);
  });
});
