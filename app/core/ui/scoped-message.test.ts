import { describe, expect, it } from "vitest";
import { bindScopedMessage, scopedMessage, shownScopedMessage } from "./scoped-message";

describe("a success message scoped to the list it changed", () => {
  it("shows through the form's own change of the list, then goes at the next change", () => {
    let m = bindScopedMessage(scopedMessage("Flags added", "1"), "1");
    expect(shownScopedMessage(m, "1")).toBe("Flags added");
    // The list read again after the addition: a new key, the message's own.
    m = bindScopedMessage(m, "1,2");
    expect(shownScopedMessage(m, "1,2")).toBe("Flags added");
    expect(bindScopedMessage(m, "1,2")).toBe(m);
    // A flag deleted: the message no longer describes the list.
    m = bindScopedMessage(m, "2");
    expect(shownScopedMessage(m, "2")).toBeNull();
  });

  it("shows nothing without a message", () => {
    expect(shownScopedMessage(bindScopedMessage(null, "1"), "1")).toBeNull();
  });
});
