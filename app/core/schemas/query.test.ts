import { describe, expect, it } from "vitest";
import { z } from "zod";
import { eventsQuerySchema, submissionsQuerySchema } from "../game-room/schemas";
import { queryBoolean, queryEnum } from "./query";

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
