import { describe, expect, it } from "vitest";
import type { EventType } from "~/core/enums";
import type { GameEvent } from "~/core/protocol";
import { appendOlderEvents, eventTypeOptions, matchesEventFilter } from "./event-list";

const ev = (time: number, type: EventType = "FlagSubmit", values: string[] = [String(time)]): GameEvent => ({ type, values, time, user: "u", team: "t", teamId: 1 });

describe("eventTypeOptions", () => {
  it("offers every type, or none of the container types while they are hidden", () => {
    expect(eventTypeOptions(false)).toEqual(["Normal", "ContainerStart", "ContainerDestroy", "FlagSubmit", "CheatDetected"]);
    expect(eventTypeOptions(true)).toEqual(["Normal", "FlagSubmit", "CheatDetected"]);
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
