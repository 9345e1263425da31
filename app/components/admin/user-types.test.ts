import { describe, expect, it } from "vitest";
import { parseBatchLines } from "./user-types";

describe("parseBatchLines", () => {
  it("reads comma-separated lines, skipping blank ones and trimming cells", () => {
    const { rows, badQuoteLine } = parseBatchLines("alice, Passw0rd!, alice@example.com\n\n  \nbob,Secret123!,bob@example.com,Bob,2024001,,Red Team\n");
    expect(badQuoteLine).toBeNull();
    expect(rows).toEqual([
      { userName: "alice", password: "Passw0rd!", email: "alice@example.com" },
      { userName: "bob", password: "Secret123!", email: "bob@example.com", realName: "Bob", stdNumber: "2024001", teamName: "Red Team" },
    ]);
  });

  it("keeps a quoted cell whole: commas, doubled quotes and line breaks inside it", () => {
    const { rows } = parseBatchLines('jack,Passw0rd!,jack@example.com,"Jack ""Quoted"", with comma",1,,"Team\nTwo"\nkim,Passw0rd!,kim@example.com');
    expect(rows).toEqual([
      { userName: "jack", password: "Passw0rd!", email: "jack@example.com", realName: 'Jack "Quoted", with comma', stdNumber: "1", teamName: "Team\nTwo" },
      { userName: "kim", password: "Passw0rd!", email: "kim@example.com" },
    ]);
  });

  it("reads tab-separated cells as a spreadsheet copies them, commas kept inside cells", () => {
    const { rows } = parseBatchLines("lee\tPassw0rd!\tlee@example.com\tLee, Jr.\n");
    expect(rows).toEqual([{ userName: "lee", password: "Passw0rd!", email: "lee@example.com", realName: "Lee, Jr." }]);
  });

  it("names the line of a quote that is never closed and returns no rows", () => {
    expect(parseBatchLines('amy,Passw0rd!,amy@example.com\nben,Passw0rd!,ben@example.com,"Ben\ncal,Passw0rd!,cal@example.com')).toEqual({ rows: [], badQuoteLine: 2 });
  });

  it("returns nothing for blank input", () => {
    expect(parseBatchLines(" \n\n")).toEqual({ rows: [], badQuoteLine: null });
  });
});
