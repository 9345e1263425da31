import { describe, expect, it } from "vitest";
import { z } from "zod";
import { eventsQuerySchema, submissionsQuerySchema } from "../game-room/schemas";
import { gamesQuerySchema, noticesQuerySchema } from "./game";
import { queryBoolean, queryEnum, queryInt } from "./query";
import { pageQuerySchema } from "./team";

describe("query flags", () => {
  const flag = z.object({ on: queryBoolean });

  it("read true and false in any case, and 1 and 0", () => {
    for (const on of ["true", "True", "TRUE", " true ", "1", true]) expect(flag.parse({ on }).on, String(on)).toBe(true);
    for (const on of ["false", "False", "FALSE", "0", false]) expect(flag.parse({ on }).on, String(on)).toBe(false);
    expect(flag.parse({}).on).toBe(false);
  });

  it("refuse anything else instead of reading it as false", () => {
    for (const on of ["yes", "on", "2", "truth", ""]) {
      const result = flag.safeParse({ on });
      expect(result.success, on).toBe(false);
      expect(result.error?.issues[0]?.code).toBe("invalid_value");
    }
  });

  it("hide container events when a tool sends True", () => {
    expect(eventsQuerySchema.parse({ hideContainer: "True" }).hideContainer).toBe(true);
    expect(eventsQuerySchema.safeParse({ hideContainer: "yes" }).success).toBe(false);
  });
});

describe("query names", () => {
  it("match in any case and come back as spelt in the list", () => {
    const level = queryEnum(["All", "Error", "Warning"]);
    expect(level.parse("error")).toBe("Error");
    expect(level.parse(" WARNING ")).toBe("Warning");
    expect(level.safeParse("Fatal").success).toBe(false);
    expect(submissionsQuerySchema.parse({ type: "accepted" }).type).toBe("Accepted");
    expect(submissionsQuerySchema.parse({ type: "wronganswer" }).type).toBe("WrongAnswer");
  });
});

describe("query numbers", () => {
  const page = z.object({ count: queryInt(z.number().int().min(0).max(50)).default(10) });

  it("read optional-sign decimal digits only", () => {
    expect(page.parse({ count: "16" }).count).toBe(16);
    expect(page.parse({ count: "+16" }).count).toBe(16);
    expect(page.parse({ count: " 016 " }).count).toBe(16);
    expect(page.parse({}).count).toBe(10);
    for (const count of ["0x10", "1e1", "0b1", "0o7", "1.5", "1.", ".5", "Infinity", "NaN", "1_0", "abc", "1 0", "--1"]) {
      expect(page.safeParse({ count }).error?.issues[0]?.message, count).toBe("validation.whole_number");
    }
  });

  it("keep the field's range, with an exclusive bound for ids", () => {
    expect(page.safeParse({ count: "-1" }).error?.issues[0]).toMatchObject({ code: "too_small", minimum: 0 });
    expect(page.safeParse({ count: "51" }).error?.issues[0]).toMatchObject({ code: "too_big", maximum: 50 });
    expect(eventsQuerySchema.safeParse({ teamId: "-3" }).error?.issues[0]).toMatchObject({ code: "too_small", minimum: 0, inclusive: false });
    expect(eventsQuerySchema.parse({ teamId: "3" }).teamId).toBe(3);
  });

  it("are used by every paged list", () => {
    for (const schema of [gamesQuerySchema, noticesQuerySchema, pageQuerySchema, eventsQuerySchema, submissionsQuerySchema]) {
      expect(schema.safeParse({ count: "0x10" }).success).toBe(false);
      expect(schema.safeParse({ skip: "1e1" }).success).toBe(false);
      expect(schema.parse({ count: "5", skip: "2" })).toMatchObject({ count: 5, skip: 2 });
    }
    expect(submissionsQuerySchema.safeParse({ challengeId: "0x1" }).success).toBe(false);
  });
});
