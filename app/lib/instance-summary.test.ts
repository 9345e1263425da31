import { createInstance } from "i18next";
import { describe, expect, it } from "vitest";
import resources from "~/locales";
import { i18nextOptions } from "./i18n";
import { formatInstanceSummary } from "./instance-summary";

describe("formatInstanceSummary", () => {
  it.each([
    ["en-US", { total: 1, teams: 1, challenges: 1 }, "1 running instance · 1 team · 1 challenge"],
    ["en-US", { total: 3, teams: 2, challenges: 1 }, "3 running instances · 2 teams · 1 challenge"],
    ["en-US", { total: 2, teams: 1, challenges: 2 }, "2 running instances · 1 team · 2 challenges"],
    ["ja-JP", { total: 1, teams: 1, challenges: 1 }, "稼働中のインスタンス 1 件 · 1 チーム · 1 問"],
    ["zh-CN", { total: 3, teams: 2, challenges: 1 }, "3 个运行中的实例 · 2 支队伍 · 1 道题目"],
  ] as const)("%s %j → %s", async (language, stats, expected) => {
    const i18n = createInstance();
    await i18n.init({ ...i18nextOptions, lng: language, resources });
    expect(formatInstanceSummary(i18n.getFixedT(language), stats)).toBe(expected);
  });
});
