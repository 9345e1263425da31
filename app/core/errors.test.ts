import { describe, expect, it } from "vitest";
import { AppError, badRequest, errorField } from "./errors";

describe("errorField", () => {
  it.each([
    ["account.username_taken", "userName"],
    ["account.email_taken", "email"],
    ["account.email_domain_not_allowed", "email"],
    ["account.email_domain_not_allowed_change", "newMail"],
    // PUT account/changepassword: the current password, refused.
    ["account.wrong_old_password", "old"],
    ["team.invite_incorrect", "inviteCode"],
    ["team.invite_malformed", "inviteCode"],
    ["game.invite_code_incorrect", "inviteCode"],
    ["game.division_required", "divisionId"],
    // A game's times: the end, refused for coming before the start; the writeup deadline, for coming before the end.
    ["game.end_before_start", "end"],
    ["game.writeup_deadline_before_end", "writeupDeadline"],
    // About the request as a whole, or either of two fields: no field.
    ["account.username_or_email_taken", null],
    ["team.locked", null],
    ["toString", null],
  ])("%s is about %s", (code, field) => {
    expect(errorField(code)).toBe(field);
  });

  it("is what an error carries unless it names its own field", () => {
    expect(badRequest("account.email_taken").field).toBe("email");
    expect(new AppError(400, "validation.failed", { message: "…" }, undefined, "password").field).toBe("password");
    expect(badRequest("team.locked").field).toBeNull();
  });
});
