import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { EventType } from "~/core/enums";
import type { GameEvent } from "~/core/protocol";
import { applyFilterChanges } from "~/lib/address-filter";
import { appendOlderEvents, eventFilterChanges, eventText, eventFilterFrom, eventTypeOptions, HELD_MAX, matchesEventFilter, prependLiveEvent } from "./event-list";

const ev = (time: number, type: EventType = "FlagSubmit", values: string[] = [String(time)]): GameEvent => ({ type, values, time, user: "u", team: "t", teamId: 1 });

describe("eventTypeOptions", () => {
  it("offers every type, or none of the container types while they are hidden", () => {
    expect(eventTypeOptions(false)).toEqual(["Normal", "ContainerStart", "ContainerDestroy", "FlagSubmit", "CheatDetected"]);
    expect(eventTypeOptions(true)).toEqual(["Normal", "FlagSubmit", "CheatDetected"]);
  });
});

describe("the events monitor's filter in the address", () => {
  it("reads the address, ignoring what it cannot read", () => {
    expect(eventFilterFrom(new URLSearchParams(""))).toEqual({ hideContainer: true, type: "", team: null });
    expect(eventFilterFrom(new URLSearchParams("type=CheatDetected&team=7"))).toEqual({ hideContainer: true, type: "CheatDetected", team: 7 });
    expect(eventFilterFrom(new URLSearchParams("containers=shown&type=ContainerStart"))).toEqual({ hideContainer: false, type: "ContainerStart", team: null });
    expect(eventFilterFrom(new URLSearchParams("type=Bogus&team=1.5&containers=yes"))).toEqual({ hideContainer: true, type: "", team: null });
    expect(eventFilterFrom(new URLSearchParams("team=0")).team).toBeNull();
    expect(eventFilterFrom(new URLSearchParams("team=-2")).team).toBeNull();
  });

  it("offers no container type while container events are hidden", () => {
    expect(eventFilterFrom(new URLSearchParams("type=ContainerDestroy")).type).toBe("");
  });

  it("writes a change to the address, a hidden container type dropped with it", () => {
    const at = (search: string, next: Parameters<typeof eventFilterChanges>[1]) =>
      applyFilterChanges(new URLSearchParams(search), eventFilterChanges(eventFilterFrom(new URLSearchParams(search)), next)).toString();
    expect(at("", { type: "FlagSubmit" })).toBe("type=FlagSubmit");
    expect(at("type=FlagSubmit", { team: 7 })).toBe("type=FlagSubmit&team=7");
    expect(at("type=FlagSubmit&team=7", { team: null })).toBe("type=FlagSubmit");
    expect(at("", { hideContainer: false })).toBe("containers=shown");
    expect(at("containers=shown&type=ContainerStart", { hideContainer: true })).toBe("");
    expect(at("containers=shown&type=FlagSubmit", { hideContainer: true })).toBe("type=FlagSubmit");
    expect(at("type=Normal", { type: "" })).toBe("");
  });
});

describe("matchesEventFilter", () => {
  it.each([
    { type: "ContainerStart", filter: { hideContainer: true, type: "" }, shown: false },
    { type: "ContainerDestroy", filter: { hideContainer: true, type: "ContainerDestroy" }, shown: false },
    { type: "ContainerStart", filter: { hideContainer: false, type: "" }, shown: true },
    { type: "ContainerStart", filter: { hideContainer: false, type: "ContainerStart" }, shown: true },
    { type: "FlagSubmit", filter: { hideContainer: true, type: "" }, shown: true },
    { type: "FlagSubmit", filter: { hideContainer: true, type: "CheatDetected" }, shown: false },
    { type: "CheatDetected", filter: { hideContainer: true, type: "CheatDetected" }, shown: true },
  ] as const)("$type with $filter → $shown", ({ type, filter, shown }) => {
    expect(matchesEventFilter(ev(1, type), filter)).toBe(shown);
  });
});

describe("appendOlderEvents", () => {
  it("appends the older page", () => {
    expect(appendOlderEvents([ev(9), ev(8)], [ev(7), ev(6)]).map((e) => e.time)).toEqual([9, 8, 7, 6]);
    expect(appendOlderEvents([], [ev(2), ev(1)]).map((e) => e.time)).toEqual([2, 1]);
  });

  it("drops the events a page repeats after newer events shifted the offsets", () => {
    // Held 10, 9, 8; two events were stored meanwhile, so the page asked at skip 3 starts at 9.
    expect(appendOlderEvents([ev(10), ev(9), ev(8)], [ev(9), ev(8), ev(7)]).map((e) => e.time)).toEqual([10, 9, 8, 7]);
  });

  it("drops only the repeats at the page's start", () => {
    const same = ev(5, "Normal", ["x"]);
    expect(appendOlderEvents([ev(6), same], [ev(4), same]).map((e) => e.time)).toEqual([6, 5, 4, 5]);
  });

  it("returns the held list itself when the page adds nothing", () => {
    const held = [ev(3), ev(2)];
    expect(appendOlderEvents(held, [])).toBe(held);
    expect(appendOlderEvents(held, [ev(2)])).toBe(held);
  });
});

describe("prependLiveEvent", () => {
  const all = { hideContainer: true, type: "" } as const;

  it("puts the live event on top and keeps what is shown, letting older events go", () => {
    const held = [ev(5), ev(4), ev(3), ev(2), ev(1)];
    const { events, trimmed } = prependLiveEvent(held, ev(6), all, 3);
    expect(events.map((e) => e.time)).toEqual([6, 5, 4]);
    expect(trimmed).toBe(true);
  });

  it("keeps everything while fewer events than shown are held", () => {
    const { events, trimmed } = prependLiveEvent([ev(2), ev(1)], ev(3), all, 3);
    expect(events.map((e) => e.time)).toEqual([3, 2, 1]);
    expect(trimmed).toBe(false);
  });

  it("counts only the events the type filter shows, keeping the others between them", () => {
    const held = [ev(5, "Normal"), ev(4, "CheatDetected"), ev(3, "Normal"), ev(2, "CheatDetected"), ev(1, "CheatDetected")];
    const { events } = prependLiveEvent(held, ev(6, "CheatDetected"), { hideContainer: true, type: "CheatDetected" }, 2);
    expect(events.map((e) => e.time)).toEqual([6, 5, 4]);
  });

  it("holds at most HELD_MAX events when the filter shows few of them", () => {
    const held = Array.from({ length: HELD_MAX }, (_, i) => ev(HELD_MAX - i, "Normal"));
    const { events, trimmed } = prependLiveEvent(held, ev(HELD_MAX + 1, "Normal"), { hideContainer: true, type: "CheatDetected" }, 100);
    expect(events).toHaveLength(HELD_MAX);
    expect(events[0]!.time).toBe(HELD_MAX + 1);
    expect(trimmed).toBe(true);
  });
});

describe("eventText", () => {
  const locales = Object.fromEntries(
    (["en-US", "ja-JP", "zh-CN"] as const).map((lang) => [lang, JSON.parse(readFileSync(new URL(`../../locales/${lang}/common.json`, import.meta.url), "utf8")) as Record<string, unknown>]),
  );
  const translator = (lang: keyof typeof locales) => (key: string, values: Record<string, string> = {}) => {
    const template = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], locales[lang]);
    if (typeof template !== "string") throw new Error(`no ${key} in ${lang}`);
    return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`${key} in ${lang} uses {{${name}}}, which is not given`);
      return values[name]!;
    });
  };
  const event = (type: EventType, values: string[], user: string | null): GameEvent => ({ type, values, time: 1, user, team: "Alpha", teamId: 1 });
  const withUser: [EventType, string[]][] = [
    ["FlagSubmit", ["WrongAnswer", "flag{x}", "Box"]],
    ["CheatDetected", ["Box", "Alpha", "Beta"]],
    ["ContainerStart", ["7", "Box"]],
    ["ContainerDestroy", ["7", "Box"]],
    ["Normal", ["A note"]],
  ];

  it("names the user of every event type that has one, in every language", () => {
    for (const lang of ["en-US", "ja-JP", "zh-CN"] as const) {
      for (const [type, values] of withUser) expect(eventText(event(type, values, "alice"), translator(lang)), `${type} in ${lang}`).toContain("alice");
    }
    expect(eventText(event("ContainerStart", ["7", "Box Static"], "alice"), translator("en-US"))).toBe("Alpha / alice started a container for Box Static");
    expect(eventText(event("CheatDetected", ["Box", "Alpha", "Beta"], "alice"), translator("en-US"))).toBe("Cheat: Alpha / alice submitted the flag of Beta for Box");
  });

  it("says a player's deleted user is gone, and a removal without a user is the platform's", () => {
    const en = translator("en-US");
    expect(eventText(event("ContainerStart", ["7", "Box"], null), en)).toBe("Alpha / (deleted user) started a container for Box");
    expect(eventText(event("ContainerDestroy", ["7", "Box"], null), en)).toBe("The container of Alpha for Box was removed");
    expect(eventText(event("Normal", ["A note"], null), en)).toBe("A note");
  });
});
