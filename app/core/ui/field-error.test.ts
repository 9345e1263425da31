import { describe, expect, it } from "vitest";
import { computeFieldEdit, computeShownFieldError, type FieldEdit } from "./field-error";

/** The field as the user goes: a refusal comes, the user changes the field, and so on. */
function field() {
  let edited: FieldEdit | null = null;
  return {
    shown: (error: string | null, refusal: unknown) => computeShownFieldError(error, refusal, edited),
    change(error: string | null, refusal: unknown) {
      edited = computeFieldEdit(computeShownFieldError(error, refusal, edited), refusal, edited);
    },
  };
}

describe("computeShownFieldError", () => {
  it("shows a refusal's error until the user changes the field", () => {
    const userName = field();
    const refusal = { field: "userName" };
    expect(userName.shown("taken", refusal)).toBe("taken");
    userName.change("taken", refusal);
    expect(userName.shown("taken", refusal)).toBeNull();
  });

  it("shows the error again at the next refusal, even with the same message", () => {
    const userName = field();
    const first = { field: "userName" };
    userName.change("taken", first);
    const second = { field: "userName" };
    expect(userName.shown("taken", second)).toBe("taken");
    // A counter of refusals works as well as a new object.
    const counted = field();
    counted.change("required", 1);
    expect(counted.shown("required", 1)).toBeNull();
    expect(counted.shown("required", 2)).toBe("required");
  });

  it("keeps the errors of the fields the user did not change", () => {
    const refusal = { fieldErrors: { userName: "short", email: "required" } };
    const userName = field();
    const email = field();
    userName.change("short", refusal);
    expect(userName.shown("short", refusal)).toBeNull();
    expect(email.shown("required", refusal)).toBe("required");
  });

  it("does not hide an error that is not a refusal's (worked out as the user types)", () => {
    const team = field();
    team.change("team is full", null);
    expect(team.shown("team is full", null)).toBe("team is full");
    const counted = field();
    counted.change("live", 0);
    expect(counted.shown("live", 0)).toBe("live");
  });

  it("a change before any error leaves nothing to hide later", () => {
    const userName = field();
    const refusal = { field: "userName" };
    userName.change(null, refusal);
    expect(userName.shown("taken", refusal)).toBe("taken");
  });

  it.each([null, undefined, ""])("no error (%j) shows nothing", (error) => {
    expect(computeShownFieldError(error, { x: 1 }, null)).toBeNull();
  });
});
