import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createInstance } from "i18next";
import resources from "~/locales";
import { i18nextOptions } from "./i18n";
import { axisLabels, axisTicks, formatAxisTime, formatCountdown, formatDateTime, formatUtcDate, fromLocalInput, toLocalInput } from "./datetime";

// 2031-05-06 07:08:09 UTC
const MS = Date.UTC(2031, 4, 6, 7, 8, 9);

describe("datetime in the viewer's time zone", () => {
  const original = process.env.TZ;
  afterEach(() => {
    process.env.TZ = original;
  });

  it.each([
    ["UTC", "06/05/2031 07:08:09"],
    ["Asia/Tokyo", "06/05/2031 16:08:09"],
    ["Asia/Shanghai", "06/05/2031 15:08:09"],
    ["America/Los_Angeles", "06/05/2031 00:08:09"],
    ["Pacific/Honolulu", "05/05/2031 21:08:09"],
  ])("%s shows DD/MM/YYYY HH:mm:ss as %s", (zone, expected) => {
    process.env.TZ = zone;
    expect(formatDateTime(MS)).toBe(expected);
  });

  it("pads single digits", () => {
    process.env.TZ = "UTC";
    expect(formatDateTime(Date.UTC(2030, 0, 2, 3, 4, 5))).toBe("02/01/2030 03:04:05");
  });

  it("shows the UTC date whatever the zone (server render)", () => {
    process.env.TZ = "Pacific/Honolulu";
    expect(formatUtcDate(MS)).toBe("06/05/2031");
  });
});

describe("countdowns and datetime-local", () => {
  beforeEach(() => {
    process.env.TZ = "Asia/Tokyo";
  });

  it("formats countdowns", () => {
    const days = (_key: "common.days", { count }: { count: number }) => `${count}d`;
    expect(formatCountdown(0, days)).toBe("00:00:00");
    expect(formatCountdown(-5, days)).toBe("00:00:00");
    expect(formatCountdown(61_000, days)).toBe("00:01:01");
    expect(formatCountdown(3 * 86_400_000 + 3_600_000 + 1500, days)).toBe("3d 01:00:01");
  });

  it.each([
    ["en-US", "1 d 00:00:00", "3 d 01:00:01"],
    ["ja-JP", "1日 00:00:00", "3日 01:00:01"],
    ["zh-CN", "1天 00:00:00", "3天 01:00:01"],
  ] as const)("names the days of a countdown in %s", async (language, oneDay, threeDays) => {
    const i18n = createInstance();
    await i18n.init({ ...i18nextOptions, lng: language, resources });
    const t = i18n.getFixedT(language);
    expect(formatCountdown(86_400_000, t)).toBe(oneDay);
    expect(formatCountdown(3 * 86_400_000 + 3_600_000 + 1500, t)).toBe(threeDays);
    expect(formatCountdown(61_000, t)).toBe("00:01:01");
  });

  it("round-trips datetime-local values in the viewer's zone", () => {
    expect(toLocalInput(MS)).toBe("2031-05-06T16:08");
    expect(fromLocalInput("2031-05-06T16:08")).toBe(MS - 9000);
    expect(fromLocalInput("")).toBeNull();
    expect(fromLocalInput("garbage")).toBeNull();
    expect(fromLocalInput("2031-02-30T10:00")).toBeNull();
    // East of UTC, the API's last time (9999-12-31 23:59 UTC) is in the year 10000 on the viewer's clock.
    const far = new Date(0);
    far.setFullYear(10000, 0, 1);
    far.setHours(8, 59, 0, 0);
    expect(fromLocalInput("10000-01-01T08:59")).toBe(far.getTime());
    expect(fromLocalInput(toLocalInput(far.getTime()))).toBe(far.getTime());
    expect(fromLocalInput("2031-05-06T16:08:09.5")).toBe(fromLocalInput("2031-05-06T16:08")! + 9500);
  });
});

describe("time axis", () => {
  const original = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = "Asia/Tokyo";
  });
  afterEach(() => {
    process.env.TZ = original;
  });

  it("spaces the ticks evenly from the start to the end", () => {
    expect(axisTicks(1000, 5000)).toEqual([1000, 2000, 3000, 4000, 5000]);
    expect(axisTicks(0, 10, 3)).toEqual([0, 3, 7, 10]);
    expect(axisTicks(5000, 5000, 2)).toEqual([5000, 5000, 5000]);
  });

  it("labels a day's span with the time and a longer one with the date too", () => {
    expect(formatAxisTime(MS, 3_600_000)).toBe("16:08");
    expect(formatAxisTime(MS, 3 * 86_400_000)).toBe("06/05 16:08");
  });

  it("labels a span under ten minutes with seconds, so ticks under a minute apart differ", () => {
    const labels = axisTicks(MS, MS + 150_000).map((tick) => formatAxisTime(tick, 150_000));
    expect(labels).toEqual(["16:08:09", "16:08:46", "16:09:24", "16:10:01", "16:10:39"]);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it("labels a tick only where its label differs from the one before it", () => {
    expect(axisLabels(MS, MS + 150_000).map((l) => l.text)).toEqual(["16:08:09", "16:08:46", "16:09:24", "16:10:01", "16:10:39"]);
    // A game's first second: one label, not five alike.
    expect(axisLabels(MS, MS + 400)).toEqual([{ time: MS, text: "16:08:09" }]);
    // Two seconds over four ticks: each second once.
    expect(axisLabels(MS - 9, MS + 1_991).map((l) => l.text)).toEqual(["16:08:08", "16:08:09", "16:08:10"]);
  });
});
