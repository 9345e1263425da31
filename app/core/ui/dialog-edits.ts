import type { Role } from "../enums";
import { changedFields } from "./changed-fields";

/**
 * The bodies of the edit dialogs that PUT a user or a team. They send only what the dialog changed against
 * the values it opened with (DECISIONS.md "Edit forms send only what they changed"): a dialog left open
 * while another tab banned the user, promoted them or renamed the team would otherwise send its stale
 * role, activation or name back with the field it did change (a phone edit unbanned the user).
 */

/** The edit user dialog's fields, as it shows them (and as a user opens it). */
export type UserEditValues = Record<"userName" | "email" | "realName" | "stdNumber" | "phone" | "bio" | "role", string> & { emailConfirmed: boolean };

/** PUT /api/admin/users/{id}'s fields. */
export type UserEditBody = Record<"userName" | "email" | "realName" | "stdNumber" | "phone" | "bio", string> & { role?: Role; emailConfirmed?: boolean };

/** The user dialog's PUT body: its changes, and with a role change the role it opened with (`expectedRole`). */
export type UserEditRequest = Partial<UserEditBody> & { expectedRole?: Role };

/** The values as the dialog sends them (text trimmed); own role and activation are not offered, so never sent. */
function userEditBody(values: UserEditValues, isSelf: boolean): UserEditBody {
  return {
    userName: values.userName.trim(),
    email: values.email.trim(),
    realName: values.realName.trim(),
    stdNumber: values.stdNumber.trim(),
    phone: values.phone.trim(),
    bio: values.bio.trim(),
    ...(isSelf ? {} : { role: values.role.trim() as Role, emailConfirmed: values.emailConfirmed }),
  };
}

/**
 * The user dialog's PUT body: the fields changed against the user as the dialog opened (empty: nothing to send).
 * A role change carries the role the dialog showed: the server refuses it (409) when another admin changed the
 * role meanwhile, so a stale dialog's "User" does not demote a user promoted elsewhere.
 */
export function userEditChanges(opened: UserEditValues, shown: UserEditValues, isSelf: boolean): UserEditRequest {
  const changes: UserEditRequest = changedFields(userEditBody(opened, isSelf), userEditBody(shown, isSelf));
  if (changes.role !== undefined) changes.expectedRole = opened.role.trim() as Role;
  return changes;
}

/** The list's Ban or Unban: the role it sets, with the role the row showed (`expectedRole`, 409 when stale). */
export const banToggleBody = (shownRole: Role): { role: Role; expectedRole: Role } => ({ role: shownRole === "Banned" ? "User" : "Banned", expectedRole: shownRole });

/** A team's name and bio, as the team form shows them. */
export type TeamFormValues = { name: string; bio: string };

/** The values as the team form sends them (trimmed). */
export const teamFormBody = (values: TeamFormValues): TeamFormValues => ({ name: values.name.trim(), bio: values.bio.trim() });

/** The team dialog's PUT body: the fields changed against the team as the dialog opened (empty: nothing to send). */
export const teamEditChanges = (opened: TeamFormValues, shown: TeamFormValues): Partial<TeamFormValues> => changedFields(teamFormBody(opened), teamFormBody(shown));
