import { describe, expect, it } from "vitest";
import { banToggleBody, teamEditChanges, teamFormBody, type UserEditValues, userEditChanges } from "./dialog-edits";

describe("userEditChanges", () => {
  const opened: UserEditValues = { userName: "ada", email: "ada@example.com", realName: "Ada", stdNumber: "1001", phone: "", bio: "hi", role: "User", emailConfirmed: true };

  it("sends only the fields changed against the dialog as opened: never the role or activation it was opened with", () => {
    // The user was banned (or deactivated) in another tab meanwhile; this dialog changes the phone only.
    expect(userEditChanges(opened, { ...opened, phone: " 555-0100 " }, false)).toEqual({ phone: "555-0100" });
  });

  it("sends a role, an activation or a cleared field the admin changed; a role with the role the dialog opened with", () => {
    expect(userEditChanges(opened, { ...opened, role: "Banned" }, false)).toEqual({ role: "Banned", expectedRole: "User" });
    expect(userEditChanges(opened, { ...opened, emailConfirmed: false, bio: "" }, false)).toEqual({ bio: "", emailConfirmed: false });
  });

  it("is empty when nothing changed, spaces the dialog trims included", () => {
    expect(userEditChanges(opened, { ...opened, realName: " Ada  " }, false)).toEqual({});
  });

  it("never sends one's own role or activation", () => {
    expect(userEditChanges(opened, { ...opened, role: "Admin", emailConfirmed: false, bio: "new" }, true)).toEqual({ bio: "new" });
  });
});

describe("banToggleBody", () => {
  it("sets the other of User and Banned, with the role the row showed", () => {
    expect(banToggleBody("Banned")).toEqual({ role: "User", expectedRole: "Banned" });
    expect(banToggleBody("User")).toEqual({ role: "Banned", expectedRole: "User" });
    // A row showing a Monitor offers Ban: refused when the role is no longer Monitor.
    expect(banToggleBody("Monitor")).toEqual({ role: "Banned", expectedRole: "Monitor" });
  });
});

describe("teamEditChanges", () => {
  const opened = { name: "Owls", bio: "night" };

  it("sends only the fields changed against the dialog as opened: a stale name is not sent back with a bio", () => {
    expect(teamEditChanges(opened, { name: "Owls", bio: "day " })).toEqual({ bio: "day" });
    expect(teamEditChanges(opened, { name: " Larks", bio: "night" })).toEqual({ name: "Larks" });
    expect(teamEditChanges(opened, { name: "Owls ", bio: "night" })).toEqual({});
  });

  it("trims what the form sends", () => {
    expect(teamFormBody({ name: " a ", bio: " b " })).toEqual({ name: "a", bio: "b" });
  });
});
